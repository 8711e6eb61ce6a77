#!/usr/bin/env bash
# Output backpressure, process-level (issue 22): a real server process (java -jar of the -all jar,
# through scripts/respsql-server) with ROWS rows in big(id int primary key, v int); a client sends
# SELECT * FROM big, reads nothing for PAUSE seconds, then reads at RATE bytes/s. Prints the
# server's VmRSS (/proc/<pid>/status) growth over its value just before the SELECT, the client's
# unsent output (CLIENT LIST omem) and the INFO bg_queries_* fields every 0.25 s, then checks every
# row (count, sum of ids, sum of squares, each v). Exits 1 when a row is wrong or missing, 2 when
# the RSS growth is MAX_GROWTH_MB or more.
#
# Env (all optional):
#   ROWS=10000000       rows loaded (INSERTs of 20,000 rows, pipelined 8 at a time)
#   PAUSE=10            seconds the client reads nothing after sending the SELECT
#   RATE=8000000        bytes/s the client reads afterwards
#   LIMITS=             client-output-buffer-limit for the run (empty: the server's default,
#                       normal 256mb 16mb 60); "normal 256mb 0 0" turns the soft limit off: the
#                       reply is built as fast as the server can (the behaviour before
#                       backpressure), up to the hard limit
#   MAX_GROWTH_MB=64    the bound checked
#   PORT=16390  OUT=    (OUT: also write the output to this file)
#   NMT=1 with RESPSQL_JAVA_OPTS=-XX:NativeMemoryTracking=summary: also prints the JVM's
#                       committed-memory diff (heap, direct buffers under "Other", ...) at the end
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROWS="${ROWS:-10000000}"
PAUSE="${PAUSE:-10}"
RATE="${RATE:-8000000}"
LIMITS="${LIMITS:-}"
MAX_GROWTH_MB="${MAX_GROWTH_MB:-64}"
PORT="${PORT:-16390}"

run() {
    local dir log pid
    dir="$(mktemp -d)"
    log="$dir/server.log"
    echo "slow-reader-check: ROWS=$ROWS PAUSE=$PAUSE RATE=$RATE LIMITS='${LIMITS:-default}' $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    local limits=()
    [[ -n "$LIMITS" ]] && limits=(--client-output-buffer-limit "$LIMITS")
    "$root/scripts/respsql-server" --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" \
        "${limits[@]}" > "$log" 2>&1 &
    pid=$!
    trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' RETURN
    for _ in $(seq 1 600); do
        if python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1).close()" 2>/dev/null; then
            break
        fi
        kill -0 "$pid" 2>/dev/null || { cat "$log"; return 1; }
        sleep 0.1
    done
    echo "server: $(head -c 300 /proc/$pid/cmdline | tr '\0' ' ')"
    python3 "$root/scripts/lib/slow_reader.py" load "$PORT" "$ROWS"
    local status=0
    python3 "$root/scripts/lib/slow_reader.py" measure "$PORT" "$pid" "$ROWS" "$PAUSE" "$RATE" | tee "$dir/measure.txt" || status=$?
    grep -E "WARN|ERROR" "$log" | head -5 || true
    local growth_kb
    growth_kb="$(sed -n 's/^max VmRSS growth \([-0-9]*\) kB.*/\1/p' "$dir/measure.txt")"
    if [[ "$status" -ne 0 ]]; then
        echo "FAIL: rows wrong or missing"
        return 1
    fi
    if [[ -z "$growth_kb" || "$growth_kb" -ge $((MAX_GROWTH_MB * 1024)) ]]; then
        echo "FAIL: server RSS grew ${growth_kb:-?} kB (bound ${MAX_GROWTH_MB} MB)"
        return 2
    fi
    echo "PASS: server RSS grew $((growth_kb / 1024)) MB (< ${MAX_GROWTH_MB} MB) while a slow reader took all $ROWS rows"
}

if [[ -n "${OUT:-}" ]]; then
    run 2>&1 | tee "$OUT"
    exit "${PIPESTATUS[0]}"
fi
run
