#!/usr/bin/env bash
# The PostgreSQL regression yardstick (README, "PostgreSQL regression yardstick"):
#   scripts/pg-regress.sh [file ...]        e.g. scripts/pg-regress.sh select join
# runs PgRegressTest: the files of ../shared/pg-regress/sql/ (all but test_setup when none is
# named) statement by statement on a throwaway PostgreSQL 15 and on RespSQL, and prints per file the
# statements PostgreSQL answered, answered the same by RespSQL, differently, refused, and a TOTAL.
# Per-statement details: tests/target/pg-regress/results.tsv (the table: summary.tsv).
# Env: UPDATE_BASELINE=1 writes this run's counts into tests/src/test/resources/pg-regress-baseline.tsv;
# MVN_OPTS (default -o, offline) for extra Maven flags; PG_BIN as for scripts/pg-peer.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
files="$(echo "$*" | tr ' ' ',')"
# shellcheck disable=SC2086  # MVN_OPTS is a list of flags
mvn -B ${MVN_OPTS:--o} -q -pl server,tests -am verify -Dtest=PgRegressTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dpgregress.files="$files" -Dpgregress.updateBaseline="${UPDATE_BASELINE:+true}" 2>&1 |
  sed 's/\x1b\[[0-9;]*m//g' | grep -v '^$'
status=${PIPESTATUS[0]}
exit "$status"
