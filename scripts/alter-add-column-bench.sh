#!/usr/bin/env bash
# ALTER TABLE ... ADD COLUMN with a constant DEFAULT on the 10M-row 2010 table, timed in-process
# (bench/issue24/AddColumnBench.java: the time the statement holds the event loop). Needs the
# server's -all jar (scripts/respsql-server builds it). Usage: [N=10000000] scripts/alter-add-column-bench.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
jar=$(ls "$ROOT"/server/target/respsql-server-*-all.jar | head -1)
echo "# $(date -u +%FT%TZ) commit $(git -C "$ROOT" rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
exec java -Xmx${HEAP:-4g} -cp "$jar" "$ROOT/bench/issue24/AddColumnBench.java" "${N:-10000000}"
