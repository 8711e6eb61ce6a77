#!/usr/bin/env bash
# CPU time per statement of two builds (CpuAb.java: in one JVM, no server, the thread's CPU time,
# which a machine shared with other jobs disturbs far less than wall time), rounds alternated.
#   cpu-ab.sh BEFORE.jar AFTER.jar [ROWS] [ROUNDS] [ONLY]   (ONLY: the workloads whose names contain it)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
B="$1" A="$2" ROWS="${3:-200000}" ROUNDS="${4:-3}" ONLY="${5:-}"
W="$(mktemp -d)"; trap 'rm -rf "$W"' EXIT
javac -cp "$B" -d "$W/before" "$HERE/CpuAb.java"
javac -cp "$A" -d "$W/after" "$HERE/CpuAb.java"
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); rows=$ROWS"
for r in $(seq "$ROUNDS"); do
  order="before after"; (( r % 2 == 0 )) && order="after before"
  for side in $order; do
    jar="$B"; [[ $side == after ]] && jar="$A"
    java -Xmx2g -cp "$jar:$W/$side" CpuAb "$ROWS" "$ONLY" 2>/dev/null | sed "s/^/round $r\t$side\t/"
  done
done
echo "# $(date -u +%FT%TZ) done, load $(cut -d' ' -f1-3 /proc/loadavg)"
