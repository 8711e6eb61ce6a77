#!/usr/bin/env bash
# Shared launcher of respsql-import and respsql-export: builds tools/target/respsql-tools-*-all.jar
# when it is missing or older than its sources, then runs `Main <subcommand> "$@"`.
#   RESPSQL_TOOLS_JAVA_OPTS  JVM options (default: -XX:+UseSerialGC -Xmx512m)
#   RESPSQL_TOOLS_NO_BUILD=1 never build, run the jar as it is
set -euo pipefail

sub="$1"
shift
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
JAR="$ROOT/tools/target/respsql-tools-0.1.0-SNAPSHOT-all.jar"

stale() {
  [[ ! -f "$JAR" ]] && return 0
  [[ -n "$(find "$ROOT/tools/src/main" "$ROOT/tools/pom.xml" "$ROOT/pom.xml" -newer "$JAR" -print -quit 2>/dev/null)" ]]
}

if [[ "${RESPSQL_TOOLS_NO_BUILD:-0}" != 1 ]] && stale; then
  mkdir -p "$ROOT/tools/target"
  (
    flock 9
    if stale; then
      echo "respsql-$sub: building $JAR" >&2
      (cd "$ROOT" && mvn -q -B -Dstyle.color=never -DskipTests -pl tools package) >&2
    fi
  ) 9>"$ROOT/tools/target/.build.lock"
fi

tty=0
cols=80
if [[ -t 2 ]]; then
  tty=1
  cols="$(stty size </dev/tty 2>/dev/null | cut -d' ' -f2)"
  [[ "$cols" =~ ^[0-9]+$ ]] || cols="${COLUMNS:-80}"
fi
# shellcheck disable=SC2206  # options are meant to be split
JAVA_OPTS=(${RESPSQL_TOOLS_JAVA_OPTS:--XX:+UseSerialGC -Xmx512m})
# the import's statements are spooled to a temporary file about the size of its input: in $TMPDIR
exec java "${JAVA_OPTS[@]}" -Drespsql.tty=$tty -Drespsql.columns="$cols" -Djava.io.tmpdir="${TMPDIR:-/tmp}" -jar "$JAR" "$sub" "$@"
