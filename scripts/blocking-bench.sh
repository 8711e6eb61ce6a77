#!/usr/bin/env bash
# Does a long analytic query stall other clients? (issue 11 section 4)
#
# Starts a RespSQL server (free loopback port, temporary dir, no AOF, no snapshots), loads seed
# 004's e-commerce data set (gen-benchmark's EcomGen) at a scale factor, then runs
# `gen-benchmark blocking-bench`: a probe client times point UPDATEs and point SELECTs (primary key,
# one request in flight) in alternating phases, quiet (nothing else runs) and loaded (another
# connection runs Q07 and Q11 back to back), in two modes: bg (background queries, the default
# bg-query-min-rows 100000) and inline (bg-query-min-rows 0: the 2010 behaviour, for contrast).
# Raw per-request latencies and summary.txt go to bench/blocking/<UTC date-time>/ (or RESULT_DIR).
#
# Env or flags: SF=0.1 (--sf)  ROUNDS=4 (--rounds)  OPS=2000 (--ops)  MODES=bg,inline (--modes)
#               RESPSQL_HEAP=3g  RESULT_DIR=
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --sf) SF="$2" ;;
    --rounds) ROUNDS="$2" ;;
    --ops) OPS="$2" ;;
    --modes) MODES="$2" ;;
    --result-dir) RESULT_DIR="$2" ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "blocking-bench: unknown flag $1 (see --help)" >&2; exit 2 ;;
  esac
  shift 2
done
SF="${SF:-0.1}"
ROUNDS="${ROUNDS:-4}"
OPS="${OPS:-2000}"
MODES="${MODES:-bg,inline}"
export RESPSQL_HEAP="${RESPSQL_HEAP:-3g}"
DIR="${RESULT_DIR:-$ROOT/bench/blocking/$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$DIR"

"$ROOT/scripts/gen-benchmark" --help >/dev/null
"$ROOT/scripts/respsql-server" --help >/dev/null

SERVER_PID="" SERVER_DATA=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [[ -n "$SERVER_DATA" ]]; then rm -rf "$SERVER_DATA"; fi
}
trap cleanup EXIT

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1), $(nproc) cores online"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "git: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "SF=$SF ROUNDS=$ROUNDS OPS=$OPS MODES=$MODES RESPSQL_HEAP=$RESPSQL_HEAP"
} > "$DIR/machine.txt"

PORT=7760
while ss -ltnH "sport = :$PORT" 2>/dev/null | grep -q .; do PORT=$((PORT + 1)); done
SERVER_DATA="$(mktemp -d "${TMPDIR:-/tmp}/blocking-bench-data.XXXXXX")"
"$ROOT/scripts/respsql-server" --port "$PORT" --bind 127.0.0.1 --appendonly no --save "" --dir "$SERVER_DATA" \
  > "$DIR/server-output.txt" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 600); do
  grep -q ' ready on ' "$DIR/server-output.txt" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "server exited; see $DIR/server-output.txt" >&2; exit 1; }
  sleep 0.1
done

set +e
GEN_BENCHMARK_JAVA_OPTS="-XX:+UseParallelGC -Xmx2g" "$ROOT/scripts/gen-benchmark" blocking-bench --host 127.0.0.1 \
  --port "$PORT" --out "$DIR" --sf "$SF" --rounds "$ROUNDS" --ops "$OPS" --modes "$MODES" 2>&1 | tee "$DIR/output.txt"
rc=${PIPESTATUS[0]}
set -e
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$DIR/machine.txt"
echo "blocking-bench: exit $rc; results in $DIR"
exit "$rc"
