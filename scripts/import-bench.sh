#!/usr/bin/env bash
# Import and export rates: respsql-import of a narrow CSV (id INT PRIMARY KEY, a INT, x FLOAT)
# beside redis-cli --pipe of the same rows as the same INSERT statements (1000 rows each, RESP
# prepared in advance: the pipe's cost is only the send), and PostgreSQL 15's COPY of the same file
# (scripts/pg-peer.sh: durability off), then respsql-export beside COPY TO. Each run's wall time, the
# client's CPU and the server's CPU (from /proc) go to raw.txt; the load average before and after.
#   ROWS (default 1000000), ROUNDS (default 3), OUT (default bench/import/<UTC stamp>), PG=0 to skip PostgreSQL
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROWS="${ROWS:-1000000}"
ROUNDS="${ROUNDS:-3}"
OUT="${OUT:-$ROOT/bench/import/$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT"
RAW="$OUT/raw.txt"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/respsql-import-bench.XXXXXX")"
SERVER_PID=""
PG_STARTED=0
export PG_PEER_STATE="$WORK/pg-peer.env"
cleanup() {
  [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  [[ "$PG_STARTED" == 1 ]] && "$ROOT/scripts/pg-peer.sh" stop >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT

python3 - "$ROWS" "$WORK" <<'PY'
import sys
rows, work = int(sys.argv[1]), sys.argv[2]
with open(f"{work}/narrow.csv", "w") as f:
    f.write("id,a,x\n")
    for i in range(rows):
        f.write(f"{i},{i * 7 % 1000},{i}.5\n")
with open(f"{work}/narrow.resp", "w") as f:
    for b in range(0, rows, 1000):
        st = "INSERT INTO n (id,a,x) VALUES " + ",".join(f"({i},{i * 7 % 1000},{i}.5)" for i in range(b, min(rows, b + 1000)))
        f.write(f"*2\r\n$3\r\nSQL\r\n${len(st.encode())}\r\n{st}\r\n")
PY

port=16500
while ss -ltnH "sport = :$port" 2>/dev/null | grep -q .; do port=$((port + 1)); done
mkdir -p "$WORK/data"
"$ROOT/scripts/respsql-server" --port "$port" --dir "$WORK/data" --save "" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
until redis-cli -p "$port" PING >/dev/null 2>&1; do sleep 0.2; done
JPID="$(pgrep -P "$SERVER_PID" java || echo "$SERVER_PID")"
R=(redis-cli -p "$port")
cpu() { if [[ -n "$JPID" ]]; then awk '{print $14 + $15}' "/proc/$JPID/stat"; else echo 0; fi; }
tick="$(getconf CLK_TCK)"
timed() { # label command...: one raw line with wall, client CPU and server CPU
  local label="$1"; shift
  local s0 s1
  s0="$(cpu)"
  /usr/bin/time -o "$WORK/t" -f "%e %U %S" "$@" >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
  s1="$(cpu)"
  read -r wall user sys <"$WORK/t"
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v sc="$(( s1 - s0 ))" -v t="$tick" -v n="$ROWS" \
    -v known="${JPID:+1}" 'BEGIN { printf "%-22s rows=%d wall_s=%.2f rows_per_s=%.0f client_cpu_s=%.2f server_cpu_s=%s\n", l, n, w, n / w, u + s, known ? sprintf("%.2f", sc / t) : "n/a" }' | tee -a "$RAW"
  grep -h "respsql-" "$WORK/err" >>"$RAW" || true
}
reset() { "${R[@]}" SQL "DROP TABLE IF EXISTS n" >/dev/null; "${R[@]}" SQL "CREATE TABLE n (id INT PRIMARY KEY, a INT, x FLOAT)" >/dev/null; }

{
  echo "# $(date -u +%FT%TZ) rows=$ROWS rounds=$ROUNDS nproc=$(nproc) commit=$(git -C "$ROOT" rev-parse --short HEAD)"
  echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# csv bytes=$(stat -c %s "$WORK/narrow.csv") resp bytes=$(stat -c %s "$WORK/narrow.resp")"
} | tee -a "$RAW"
"$ROOT/scripts/respsql-import" --help >/dev/null # build first, outside the timings
for r in $(seq 1 "$ROUNDS"); do
  reset; timed "respsql-import" "$ROOT/scripts/respsql-import" -p "$port" --progress none n "$WORK/narrow.csv"
  [[ "$("${R[@]}" SQL "SELECT COUNT(*) FROM n")" == "$ROWS" ]] || { echo "row count wrong" >&2; exit 1; }
  timed "respsql-export" "$ROOT/scripts/respsql-export" -p "$port" --progress none n -o "$WORK/export.csv"
  # what came out is what went in (a table has no order: compared sorted)
  cmp -s <(head -n 1 "$WORK/narrow.csv"; tail -n +2 "$WORK/narrow.csv" | LC_ALL=C sort) \
         <(head -n 1 "$WORK/export.csv"; tail -n +2 "$WORK/export.csv" | LC_ALL=C sort) ||
    { echo "the export differs from the imported file" >&2; exit 1; }
  reset; timed "redis-cli --pipe" bash -c "redis-cli -p $port --pipe < '$WORK/narrow.resp'"
  [[ "$("${R[@]}" SQL "SELECT COUNT(*) FROM n")" == "$ROWS" ]] || { echo "row count wrong" >&2; exit 1; }
done

if [[ "${PG:-1}" == 1 ]] && "$ROOT/scripts/pg-peer.sh" start >"$WORK/pg.env" 2>"$WORK/pg.err"; then
  PG_STARTED=1
  # shellcheck disable=SC1091
  source "$WORK/pg.env"
  echo "# PostgreSQL: $PG_VERSION $PG_SETTINGS" | tee -a "$RAW"
  export PGOPTIONS="-c client_min_messages=warning" # no NOTICE for DROP TABLE IF EXISTS
  PSQL=(psql -q -X -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d "$PG_DB" -v ON_ERROR_STOP=1)
  JPID="" # PostgreSQL's CPU is spent in a backend that ends with the connection: not counted
  for r in $(seq 1 "$ROUNDS"); do
    "${PSQL[@]}" -c "DROP TABLE IF EXISTS n" -c "CREATE TABLE n (id int PRIMARY KEY, a int, x float8)"
    timed "pg COPY FROM" "${PSQL[@]}" -c "\\copy n FROM '$WORK/narrow.csv' CSV HEADER"
    timed "pg COPY TO" "${PSQL[@]}" -c "\\copy n TO '$WORK/pg-export.csv' CSV HEADER"
  done
fi
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$RAW"
