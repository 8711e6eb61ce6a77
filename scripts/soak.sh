#!/usr/bin/env bash
# Soak test: starts its own RespSQL server on a free loopback port, runs `gen-benchmark soak`
# against it (INSERT, point SELECT, fk-range UPDATE, DELETE from many connections, every reply
# checked against an exact model, the whole table verified at the end), then stops the server.
# Exits non-zero on any error reply, wrong reply, final mismatch, or if the server dies.
#
#   scripts/soak.sh [soak options]      e.g. scripts/soak.sh --duration 20 --connections 200
#
# Options are gen-benchmark soak's (`scripts/gen-benchmark soak --help`): --duration (default
# 300 s), --max-requests (default 50M), --connections (default 200), --mix, --interval, ...
# --host and --port are chosen here: the server always listens on 127.0.0.1.
#
# Env (all optional):
#   RESPSQL_HEAP     passed on to scripts/respsql-server (sets -Xmx)
#   SOAK_LOG         where the server's output goes (default: a temporary file, shown on failure)
#   SERVER_WAIT=120  seconds to wait for the server to answer PING
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HOST=127.0.0.1
SERVER_WAIT="${SERVER_WAIT:-120}"
GEN="$ROOT/scripts/gen-benchmark"

die() { echo "soak: $*" >&2; exit 1; }

for arg in "$@"; do
  case "$arg" in
    --host|--port|--server-pid) die "$arg is set by this script (the server is its own, on $HOST)" ;;
  esac
done
command -v java >/dev/null || die "java is needed"

if [[ "$(nproc)" -ge 2 ]] && command -v taskset >/dev/null; then
  SERVER_PIN=(taskset -c 0)
  CLIENT_PIN=(taskset -c 1)
  PINNING="server on core 0, client on core 1"
else
  SERVER_PIN=()
  CLIENT_PIN=()
  PINNING="not pinned"
fi

# Build both jars before the server starts, so no build runs beside it.
"$GEN" --help >/dev/null || die "gen-benchmark does not build"
"$ROOT/scripts/respsql-server" --version >/dev/null 2>&1 || true

# Any socket on the port counts (not only listeners), and the port is picked below the
# kernel's ephemeral range, so no outgoing connection can hold it meanwhile.
port_in_use() { ss -tanH "sport = :$1" 2>/dev/null | grep -q .; }
PORT=$((20000 + RANDOM % 12000))
while port_in_use "$PORT"; do PORT=$((PORT + 1)); done

LOG="${SOAK_LOG:-$(mktemp -t respsql-soak-server.XXXXXX)}"
echo "soak: starting a server on $HOST:$PORT ($PINNING), its output in $LOG"
"${SERVER_PIN[@]}" "$ROOT/scripts/respsql-server" --port "$PORT" --bind "$HOST" >"$LOG" 2>&1 &
LAUNCHER=$!

# The pid of the process listening on PORT (the JVM, even if the launcher did not exec it).
listening_pid() { ss -ltnpH "sport = :$PORT" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1; }

stop_server() {
  local jpid
  jpid="$(listening_pid)"
  kill "$LAUNCHER" 2>/dev/null
  [[ -n "$jpid" && "$jpid" != "$LAUNCHER" ]] && kill "$jpid" 2>/dev/null
  for _ in $(seq 1 50); do
    kill -0 "$LAUNCHER" 2>/dev/null || { [[ -n "$jpid" ]] && kill -0 "$jpid" 2>/dev/null; } || break
    sleep 0.2
  done
}
trap stop_server EXIT
trap 'exit 130' INT TERM

# No redis-cli needed: a PING over bash's /dev/tcp.
answers_ping() {
  local reply
  { exec 3<>"/dev/tcp/$HOST/$PORT"; } 2>/dev/null || return 1
  printf 'PING\r\n' >&3
  IFS= read -r -t 2 reply <&3
  exec 3<&- 3>&-
  [[ "$reply" == $'+PONG\r' ]]
}
waited=0
until answers_ping; do
  kill -0 "$LAUNCHER" 2>/dev/null || { cat "$LOG" >&2; die "the server exited before answering"; }
  [[ "$waited" -ge $((SERVER_WAIT * 5)) ]] && die "the server did not answer PING within ${SERVER_WAIT}s"
  sleep 0.2
  waited=$((waited + 1))
done
PID="$(listening_pid)"

"${CLIENT_PIN[@]}" "$GEN" soak --host "$HOST" --port "$PORT" ${PID:+--server-pid "$PID"} "$@"
status=$?

if ! answers_ping; then
  echo "soak: FAILED: the server no longer answers PING; its output:" >&2
  tail -50 "$LOG" >&2
  status=1
elif [[ "$status" != 0 ]]; then
  echo "soak: server output (last lines of $LOG):" >&2
  tail -20 "$LOG" >&2
fi
stop_server
[[ -z "${SOAK_LOG:-}" && "$status" == 0 ]] && rm -f "$LOG"
exit "$status"
