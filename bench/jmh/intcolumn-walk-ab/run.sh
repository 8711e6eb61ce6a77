#!/usr/bin/env bash
# A/B of the UPDATE-increment kernel (IntColumn's bitmap walks): two jmh jars, A (old) and B (new),
# forks alternated per round (A B, B A, A B, ...), UpdateApplyBenchmark's increment shapes.
#   bench/jmh/intcolumn-walk-ab/run.sh A.jar B.jar [rounds]      (build each with
#   mvn -B -q -o -Pjmh -pl jmh -am package -DskipTests and copy jmh/target/respsql-jmh.jar aside)
# Prints per round and shape old time / new time (>= 1: new is as fast or faster); raw output beside.
set -euo pipefail
A=$1; B=$2; ROUNDS=${3:-4}
OUT=$(dirname "$0")/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$OUT"
{ date -u; uptime; nproc; java -version 2>&1 | head -1; sha1sum "$A" "$B"; } > "$OUT/env.txt"
ARGS=(UpdateApplyBenchmark -p shape=fkIncr,pkRangeIncr,allIncr -f 1 -wi 3 -i 5 -w 1s -r 1s)
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then order="A B"; else order="B A"; fi
  for side in $order; do
    jar=$A; [ "$side" = B ] && jar=$B
    java -jar "$jar" "${ARGS[@]}" -rf json -rff "$OUT/r$r-$side.json" > "$OUT/r$r-$side.txt" 2>&1
    echo "round $r $side done $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT/env.txt"
  done
done
python3 - "$OUT" "$ROUNDS" <<'PY' | tee "$OUT/ratios.txt"
import json, sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
res = {}
for r in range(1, rounds + 1):
    for side in "AB":
        for b in json.load(open(f"{out}/r{r}-{side}.json")):
            res.setdefault(b["params"]["shape"], {}).setdefault(r, {})[side] = b["primaryMetric"]["score"]
print(f"{'shape':12s} {'A us/op':>10s} {'B us/op':>10s}  A/B per round (>=1: B not slower)  median")
for shape, by in res.items():
    ratios = [by[r]["A"] / by[r]["B"] for r in sorted(by)]
    print(f"{shape:12s} {statistics.median(by[r]['A'] for r in by):10.1f} {statistics.median(by[r]['B'] for r in by):10.1f}  "
          f"{' '.join(f'{x:.3f}' for x in ratios):34s}  {statistics.median(ratios):.3f}")
PY
echo "output in $OUT"
