#!/usr/bin/env bash
# Issue 13, index memory: JMH of the index kernels and the memory of message_list at 10M rows.
# Output goes to bench/index-memory/<UTC stamp>/. The old/new A/B of README.md (the pre-issue-13
# LongIntBTree as a renamed copy in jmh/, alternating per round) is this script at commit 7f79914;
# the copy is gone, so here every round runs the current class.
#   mvn -B -q -o -Pjmh -pl jmh -am package -DskipTests && bench/index-memory/run.sh
# ROUNDS (default 2), BENCH (JMH regex, default IndexBenchmark), JMH_ARGS (extra JMH options),
# SKIP_MEMORY=1 (JMH only) may be set.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=jmh/target/respsql-jmh.jar
OUT=bench/index-memory/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$OUT"
ROUNDS=${ROUNDS:-2}
{ date -u; java -version 2>&1; nproc; git rev-parse HEAD; } > "$OUT/env.txt"

[ -n "${SKIP_MEMORY:-}" ] || for a in "trees new 10000000 100 1" \
         "table 10000000 100 1" "table 10000000 100 200" "table 10000000 1000 200" "table 10000000 100000 200"; do
  java -Xms3g -Xmx3g -cp "$JAR" io.respsql.index.IndexMemory $a | tee -a "$OUT/memory.txt"
done

for r in $(seq 1 "$ROUNDS"); do
  java -jar "$JAR" "${BENCH:-IndexBenchmark}" -rf json -rff "$OUT/jmh-r$r.json" ${JMH_ARGS:-} > "$OUT/jmh-r$r.txt" 2>&1
  grep -E "^IndexBenchmark" "$OUT/jmh-r$r.txt" | sed "s/^/round $r: /" | tee -a "$OUT/jmh-summary.txt"
done
echo "output in $OUT"

