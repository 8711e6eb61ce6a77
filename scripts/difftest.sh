#!/usr/bin/env bash
# The differential tester (issue 22) for a number of minutes: random schemas, rows and
# statements checked by TLP, NoREC, plan equivalence (indexes on/off, event loop/worker), the
# write oracle (the same UPDATE/DELETE through indexes and through scans) and PostgreSQL 15,
# against a RespSQL server it starts in its own JVM on a free loopback port (and a throwaway
# PostgreSQL through scripts/pg-peer.sh when /usr/lib/postgresql/15/bin is there).
#
#   scripts/difftest.sh [--minutes N] [--seed S] [--no-pg] [--rounds-per-seed R]
#
# Defaults: 5 minutes, a random seed (printed). Seeds S, S+1, ... run one after another. Each
# finding is printed as a minimized statement list, one statement per line, to run in order on
# one connection (e.g. each line as redis-cli SQL "<line>" in one redis-cli session); lines
# starting with '#' say what differed. Exit status 1 when there was a finding.
#
# Env: MVN (default "mvn -o": the Maven repository is already filled; MVN=mvn to go online),
#      JAVA_OPTS (default -Xmx2g).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MVN="${MVN:-mvn -o}"
cd "$ROOT"
for arg in "$@"; do
  case "$arg" in
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  esac
done
cp_file="$(mktemp "${TMPDIR:-/tmp}/respsql-difftest-cp.XXXXXX")"
trap 'rm -f "$cp_file"' EXIT
echo "difftest: building server and tests ..." >&2
# one reactor: the tests' classpath then points at this checkout's server classes
$MVN -q -B -Dstyle.color=never -pl server,tests -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >&2
cp="$ROOT/tests/target/test-classes:$ROOT/server/target/classes:$(cat "$cp_file")"
# shellcheck disable=SC2086  # JAVA_OPTS is a list of options
exec java ${JAVA_OPTS:--Xmx2g} -cp "$cp" io.respsql.it.diff.DiffMain "$@"
