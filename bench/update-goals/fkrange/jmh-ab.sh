#!/usr/bin/env bash
# A (base 115d4f1) / B (this branch) jmh jars, forks alternated per round; UpdateApplyBenchmark all four shapes, -prof gc.
set -euo pipefail
A=$1; B=$2; OUT=$3; ROUNDS=${4:-2}
{ date -u; uptime; nproc; sha1sum "$A" "$B"; } > "$OUT/env.txt"
ARGS=(UpdateApplyBenchmark -p shape=fkConst,fkIncr,pkRangeIncr,allIncr -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc)
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then order="A B"; else order="B A"; fi
  for side in $order; do
    jar=$A; [ "$side" = B ] && jar=$B
    java -jar "$jar" "${ARGS[@]}" -rf json -rff "$OUT/r$r-$side.json" > "$OUT/r$r-$side.txt" 2>&1
    echo "round $r $side done $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT/env.txt"
  done
done
