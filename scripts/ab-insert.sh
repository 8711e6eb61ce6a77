#!/usr/bin/env bash
# Compares the INSERT throughput of two server builds side by side: A B A B ... rounds, each on a
# fresh server pinned to core 0, with gen-benchmark (200 clients) pinned to core 1.
# Usage: scripts/ab-insert.sh JAR_A JAR_B [ROUNDS] [REQUESTS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
A="$1" B="$2" ROUNDS="${3:-4}" N="${4:-1000000}" PORT="${PORT:-7790}"
GEN="$ROOT/scripts/gen-benchmark"
pin_server=() pin_client=()
if (( $(nproc) >= 2 )); then pin_server=(taskset -c 0); pin_client=(taskset -c 1); fi

run_one() { # label jar
  # save "" keeps snapshots off (builds without snapshots accept exactly that value too)
  "${pin_server[@]}" java -Xmx2g -jar "$2" --port "$PORT" --save "" >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 100); do redis-cli -p "$PORT" PING >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -p "$PORT" CREATE TABLE message_list "(id int primary key, fk int, count INT)" >/dev/null
  redis-cli -p "$PORT" CREATE INDEX message_list:fk:index ON message_list "(fk)" >/dev/null
  local rps
  rps=$("${pin_client[@]}" "$GEN" --no-progress -p "$PORT" -q -c 200 -n "$N" -s -m 100 -A OK \
        -Q INSERT INTO message_list VALUES "(000000000001,000000000001,4)" | awk '/requests per second/ {print $1}')
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "$1 $rps"
}

echo "# A=$A"
echo "# B=$B"
echo "# $ROUNDS rounds of $N INSERTs, 200 clients; $(nproc) cores; $(date -u +%FT%TZ)"
for r in $(seq "$ROUNDS"); do
  a=$(run_one A "$A"); b=$(run_one B "$B")
  echo "round $r: $a $b ratio_B/A $(awk -v x="${a#A }" -v y="${b#B }" 'BEGIN {printf "%.3f", y / x}')"
done
