#!/usr/bin/env bash
# Issue 13, index memory: JMH of the index kernels, the pre-issue-13 LongIntBTree ("old", a renamed
# copy in jmh/) against the current one ("new"), alternating per round in one run, and the memory
# of message_list at 10M rows. Output goes to bench/index-memory/<UTC stamp>/.
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

[ -n "${SKIP_MEMORY:-}" ] || for a in "trees old 10000000 100 1" "trees new 10000000 100 1" \
         "table 10000000 100 1" "table 10000000 100 200" "table 10000000 1000 200" "table 10000000 100000 200"; do
  java -Xms3g -Xmx3g -cp "$JAR" io.respsql.index.IndexMemory $a | tee -a "$OUT/memory.txt"
done

for r in $(seq 1 "$ROUNDS"); do
  for impl in old new; do
    java -jar "$JAR" "${BENCH:-IndexBenchmark}" -p impl=$impl -rf json -rff "$OUT/jmh-r$r-$impl.json" ${JMH_ARGS:-} \
      > "$OUT/jmh-r$r-$impl.txt" 2>&1
    grep -E "^IndexBenchmark" "$OUT/jmh-r$r-$impl.txt" | sed "s/^/round $r: /" | tee -a "$OUT/jmh-summary.txt"
  done
done

# Speed ratio per benchmark and round: old time / new time (above 1: the new class is faster).
python3 - "$OUT" "$ROUNDS" <<'PY' | tee "$OUT/ratios.txt"
import json, sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
res = {}
for r in range(1, rounds + 1):
    for impl in ("old", "new"):
        for b in json.load(open(f"{out}/jmh-r{r}-{impl}.json")):
            name = b["benchmark"].split(".")[-1]
            res.setdefault(name, {}).setdefault(r, {})[impl] = b["primaryMetric"]["score"]
print(f"{'benchmark':22s} {'old ns/op':>12s} {'new ns/op':>12s}  old/new per round  median")
for name, byRound in res.items():
    ratios = [byRound[r]["old"] / byRound[r]["new"] for r in sorted(byRound)]
    o = statistics.median(byRound[r]["old"] for r in byRound)
    n = statistics.median(byRound[r]["new"] for r in byRound)
    print(f"{name:22s} {o:12.2f} {n:12.2f}  {' '.join(f'{x:.2f}' for x in ratios):17s}  {statistics.median(ratios):.2f}")
PY
echo "output in $OUT"
