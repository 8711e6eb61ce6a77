#!/usr/bin/env bash
# Compares the bulk-load rate of two server builds side by side: A B A B ... rounds, each on a fresh
# server pinned to core 0, loading the analytics suite's data set (gen-benchmark load-bench: pipelined
# multi-row INSERTs, BATCH rows each, WINDOW in flight) from core 1.
# Usage: scripts/ab-load.sh JAR_A JAR_B [ROUNDS] [SF] [BATCH] [WINDOW]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
A="$1" B="$2" ROUNDS="${3:-3}" SF="${4:-0.05}" BATCH="${5:-1000}" WINDOW="${6:-32}" PORT="${PORT:-7791}"
GEN="$ROOT/scripts/gen-benchmark"
pin_server=() pin_client=()
if (( $(nproc) >= 2 )); then pin_server=(taskset -c 0); pin_client=(taskset -c 1); fi
"$GEN" --help >/dev/null # build before anything is timed

run_one() { # label jar; prints the load's lines, sets RATE (rows/s of all tables)
  local dir; dir=$(mktemp -d)
  "${pin_server[@]}" java -Xmx${RESPSQL_HEAP:-4g} -jar "$2" --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 100); do redis-cli -p "$PORT" PING >/dev/null 2>&1 && break; sleep 0.1; done
  local out
  out=$(GEN_BENCHMARK_JAVA_OPTS="-XX:+UseParallelGC -Xmx2g" "${pin_client[@]}" "$GEN" load-bench 127.0.0.1 "$PORT" "$SF" "$BATCH" "$WINDOW")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  echo "$out" | sed "s/^/  $1: /"
  RATE=$(echo "$out" | awk '/^insert \(all tables\)/ {for (i = 1; i <= NF; i++) if ($i == "rows/s") print $(i-1)}')
}

echo "# A=$A"
echo "# B=$B"
echo "# $ROUNDS rounds, SF $SF, BATCH $BATCH, WINDOW $WINDOW; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%FT%TZ)"
for r in $(seq "$ROUNDS"); do
  run_one A "$A"; a=$RATE
  run_one B "$B"; b=$RATE
  echo "round $r: A $a B $b ratio_B/A $(awk -v x="$a" -v y="$b" 'BEGIN {printf "%.3f", y / x}')"
done
