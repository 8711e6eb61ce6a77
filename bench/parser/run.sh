#!/usr/bin/env bash
# Parse cost before/after, in one JVM (see ParserBench.java). Compiles the io.respsql.sql package
# as of BASE (default: the commit before keywords became codes) and as in the working tree, with
# javac only (the package depends on nothing else), then runs ROUNDS alternated rounds of PARSES
# parses per build. Output goes to stdout and to bench/parser/results-<UTC time>.txt.
#   ROUNDS=6 PARSES=1000000 BASE=7f0a6d6 bench/parser/run.sh
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BASE="${BASE:-7f0a6d6}"
ROUNDS="${ROUNDS:-6}"
PARSES="${PARSES:-1000000}"
SQL=server/src/main/java/io/respsql/sql
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/base-src" "$work/base" "$work/new" "$work/bench"
for f in $(git -C "$ROOT" ls-tree --name-only "$BASE" "$SQL/"); do
  git -C "$ROOT" show "$BASE:$f" > "$work/base-src/$(basename "$f")"
done
javac --release 17 -d "$work/base" "$work/base-src"/*.java
javac --release 17 -d "$work/new" "$ROOT/$SQL"/*.java
javac --release 17 -d "$work/bench" "$HERE/ParserBench.java"
out="$HERE/results-$(date -u +%Y%m%dT%H%M%SZ).txt"
{
  echo "# base: $(git -C "$ROOT" log -1 --format='%h %s' "$BASE")"
  echo "# new:  $(git -C "$ROOT" log -1 --format='%h %s') (working tree $(git -C "$ROOT" status --porcelain -- "$SQL" | wc -l) changed files in sql/)"
  echo "# load: $(cut -d' ' -f1-3 /proc/loadavg) (machine shared with other builds)"
  java -Xms512m -Xmx512m -XX:+UseParallelGC -Dbase="$work/base" -Dnew="$work/new" -cp "$work/bench" ParserBench "$ROUNDS" "$PARSES"
} | tee "$out"
echo "wrote $out"
