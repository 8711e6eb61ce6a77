#!/usr/bin/env bash
# The 2010 Redisql large-update test, run against RespSQL, with correctness checks.
#
# For each MOD: DROP TABLE message_list; CREATE TABLE message_list (id int primary key, fk int,
# count INT); CREATE INDEX message_list:fk:index ON message_list (fk); insert REQ rows
# (n, n % MOD, 4), n = 1..REQ, with CLIENTS connections (timed); then one client sends MOD
# sequential UPDATE message_list SET count=MOD WHERE fk=k, k = 1..MOD. Each update matches about
# REQ/MOD rows (the "FK range"); fk = MOD matches none, fk = 0 is never updated.
# After the updates, sampled rows must read (id, id % MOD, MOD if id % MOD != 0 else 4), ids
# 0 and REQ+1 must not exist, and SELECT COUNT(*) ... WHERE fk = k (through the index) must equal
# the number of n in 1..REQ with n % MOD = k. Any mismatch, error reply or failed step fails the
# script (exit 1) after all MODs have run.
#
# Env (all optional):
#   REQ=10000000            rows inserted per MOD
#   MODS="100 200 400 1000 2000 5000 10000 100000"
#   CLIENTS=200             connections for the inserts
#   PORT=                   use the server already answering on this port (it is not stopped);
#                           if nothing answers there, a server is started on it; if unset, a
#                           server is started on the first free port from 7711
#   HOST=127.0.0.1          server address (a server started here binds to it)
#   RUN_NAME=$(hostname)    names the result directory bench/results/<date>-<RUN_NAME>/
#   RESULT_DIR=             write there instead
#   RESPSQL_HEAP            passed on to scripts/respsql-server (sets -Xmx)
#   SERVER_CMD=scripts/respsql-server   server launcher; called as SERVER_CMD --port P --bind HOST
#                           --save "" --dir TMP (no snapshots; nothing read or written in the repository)
#   SERVER_WAIT=180         seconds to wait for the started server to answer PING
#   ROW_SAMPLES=300         rows checked per MOD (plus first, last and edge ids)
#   FK_SAMPLES=40           fk values whose COUNT(*) is checked per MOD (plus edge values)
#   FK_DECLARED=0           1: fk is a declared foreign key instead of a CREATE INDEX: a table
#                           fk_parent (id int primary key) holds 0..MOD-1 and message_list is
#                           (id int primary key, fk int REFERENCES fk_parent, count INT) (the
#                           foreign key gives fk its index; every INSERT checks it)
#   RENDER_PNG=auto         render compare.svg to compare.png with headless chromium (auto: if
#                           chromium is installed; 0: never)
#
# Result directory layout (read by `scripts/gen-benchmark compare DIR`):
#   run.env               parameters, machine, versions, pinning
#   server-output.txt     output of the server this script started
#   setup-<MOD>.txt       the DROP/CREATE replies for that MOD
#   insert-<MOD>.txt      insert output (gen-benchmark -q, progress lines, `time`)
#   insert-<MOD>.json     gen-benchmark --json of the insert
#   update-<MOD>.txt      "MOD: M FK-RANGE: R" then the 2010-style update report
#   update-<MOD>.json     gen-benchmark --json of the updates
#   memory-<MOD>.txt      server VmRSS/VmHWM after the insert and after the updates, INFO memory
#   check-<MOD>.txt       every verification query, expected and actual reply
#   summary.tsv, summary.txt  one row per MOD
#   compare.txt, compare.tsv, compare.svg (and compare.png)  from the compare command
#
# Several builds side by side: scripts/large-update-test.sh NAME=server.jar ... (e.g.
# before=A.jar after=B.jar). For each MOD, each build in turn (the order rotated by MOD, so load
# drift hits every build alike) runs this script's one-build form with MODS=MOD on a fresh server
# of its own (scripts/respsql-server with RESPSQL_JAR=the jar: pinned, temporary --dir, the same
# inserts, updates and checks), into DIR/<NAME>/mod-<MOD>/ (the layout above). Then in DIR:
#   ab-env.txt          the builds (path, sha256), parameters, machine load before and after
#   ab-long.tsv         round (1: one sample per MOD), item (the MOD), metric, build, value
#   ab-ratios.tsv       per MOD and metric, each later build over the first (after/before)
#   ab-summary.txt      per MOD: FK-range UPDATE p50/p99 ms, update/s, insert/s of each build
#                       and the ratios (times: below 1 = the later build is faster; rates: above 1)
# PORT (of a running server) does not apply: every build gets servers of its own.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ $# -gt 0 ]]; then
  source "$ROOT/scripts/lib/ab-jars.sh"
  ab_parse_jars "" -- "$@" || exit 2
  [[ -z "${PORT:-}" ]] || { echo "large-update-test: PORT does not apply to an A/B of builds (each gets fresh servers)" >&2; exit 2; }
  REQ="${REQ:-10000000}"
  MODS="${MODS:-100 200 400 1000 2000 5000 10000 100000}"
  DIR="${RESULT_DIR:-$ROOT/bench/results/$(date +%Y%m%d-%H%M%S)-${RUN_NAME:-$(hostname)}-ab}"
  mkdir -p "$DIR" || { echo "large-update-test: cannot create $DIR" >&2; exit 1; }
  {
    echo "date: $(date -u +%FT%TZ); host: $(uname -srm), $(nproc) cores; commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "REQ=$REQ MODS=\"$MODS\" CLIENTS=${CLIENTS:-200}"
    ab_jar_lines
  } | tee "$DIR/ab-env.txt"
  LONG="$DIR/ab-long.tsv"
  printf 'round\titem\tmetric\tname\tvalue\n' >"$LONG"
  FAILED=0 k=0
  for MOD in $MODS; do
    k=$((k + 1))
    bench_rotate "$k" "${AB_NAMES[@]}"
    for name in "${ORDER[@]}"; do
      echo "=== A/B: MOD $MOD, build $name ($(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg))" | tee -a "$DIR/ab-env.txt"
      out="$DIR/$name/mod-$MOD"
      RESPSQL_JAR="${AB_JAR[$name]}" SERVER_CMD="$ROOT/scripts/respsql-server" RESULT_DIR="$out" \
        REQ="$REQ" MODS="$MOD" RENDER_PNG=0 "$0" || FAILED=1
      # summary.tsv columns: 7 update_rps, 8 p50_ms, 9 p99_ms, 11 insert_rps, 15 check.
      awk -F'\t' -v mod="$MOD" -v name="$name" 'NR == 2 {
          m = "MOD " mod " (FK range " $2 ")"
          printf "1\t%s\tUPDATE p50 ms\t%s\t%s\n", m, name, $8
          printf "1\t%s\tUPDATE p99 ms\t%s\t%s\n", m, name, $9
          printf "1\t%s\tupdate/s\t%s\t%s\n", m, name, $7
          printf "1\t%s\tinsert/s\t%s\t%s\n", m, name, $11
        }' "$out/summary.tsv" >>"$LONG" 2>/dev/null || FAILED=1
    done
  done
  echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$DIR/ab-env.txt"
  echo
  python3 "$ROOT/scripts/lib/ab_ratios.py" "$LONG" "${AB_NAMES[@]}" --tsv "$DIR/ab-ratios.tsv" \
    --title "Large-update test, builds side by side: $REQ rows, one fresh server per build and MOD ($(basename "$DIR"))" \
    --note "Ratios: each build over ${AB_NAMES[0]}, one per MOD (the order of the builds rotates by MOD)." \
    --note "UPDATE p50/p99: one client's round trip of the FK-range UPDATE (below 1 = faster); update/s, insert/s: rates (above 1 = faster)." \
    --note "Per-build files: $DIR/<build>/mod-<MOD>/ (summary.txt, update-<MOD>.json, check-<MOD>.txt, ...)." \
    | tee "$DIR/ab-summary.txt"
  if [[ "$FAILED" != 0 ]]; then
    echo "large-update-test: FAILED (a build's run failed; see $DIR/<build>/mod-<MOD>/)"
    exit 1
  fi
  echo "large-update-test: all checks passed for every build; results in $DIR"
  exit 0
fi
REQ="${REQ:-10000000}"
MODS="${MODS:-100 200 400 1000 2000 5000 10000 100000}"
CLIENTS="${CLIENTS:-200}"
HOST="${HOST:-127.0.0.1}"
RUN_NAME="${RUN_NAME:-$(hostname)}"
SERVER_CMD="${SERVER_CMD:-$ROOT/scripts/respsql-server}"
SERVER_WAIT="${SERVER_WAIT:-180}"
ROW_SAMPLES="${ROW_SAMPLES:-300}"
FK_SAMPLES="${FK_SAMPLES:-40}"
RENDER_PNG="${RENDER_PNG:-auto}"
FK_DECLARED="${FK_DECLARED:-0}"
GEN="$ROOT/scripts/gen-benchmark"
DIR="${RESULT_DIR:-$ROOT/bench/results/$(date +%Y%m%d-%H%M%S)-$RUN_NAME}"

die() { echo "large-update-test: $*" >&2; exit 1; }

[[ "$REQ" =~ ^[1-9][0-9]*$ ]] || die "REQ must be a positive number"
for MOD in $MODS; do
  [[ "$MOD" =~ ^[1-9][0-9]*$ ]] || die "MODS must be positive numbers, got '$MOD'"
done
if ! command -v redis-cli >/dev/null; then
  # The checks query the server with redis-cli; install it where we can (a fresh Debian machine).
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "large-update-test: installing redis-tools for redis-cli"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-tools >/dev/null
  fi
  command -v redis-cli >/dev/null || die "redis-cli is needed (Debian/Ubuntu: apt-get install redis-tools)"
fi
command -v java >/dev/null || die "java is needed"

if [[ "$(nproc)" -ge 2 ]] && command -v taskset >/dev/null; then
  SERVER_PIN=(taskset -c 0)
  CLIENT_PIN=(taskset -c 1)
  PINNING="server taskset -c 0, clients taskset -c 1"
else
  SERVER_PIN=()
  CLIENT_PIN=()
  PINNING="none"
  echo "large-update-test: note: fewer than 2 cores (or no taskset): server and clients are not pinned"
fi

mkdir -p "$DIR" || die "cannot create $DIR"
echo "large-update-test: results in $DIR"

# Build the client before the server starts, so the build is not timed against it.
"$GEN" --help >/dev/null || die "gen-benchmark does not build"

cli() { redis-cli -h "$HOST" -p "$PORT" "$@"; }
answers_ping() { [[ "$(redis-cli -h "$HOST" -p "$1" PING 2>/dev/null)" == PONG ]]; }
port_in_use() { ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }

# The pid of the process listening on PORT (the JVM even when the launcher did not exec it).
listening_pid() {
  ss -ltnpH "sport = :$PORT" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1
}

SERVER_PID=""
SERVER_DIR=""
STARTED_SERVER=0
stop_server() {
  if [[ "$STARTED_SERVER" == 1 ]]; then
    local jpid
    jpid="$(listening_pid)"
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null
    [[ -n "$jpid" && "$jpid" != "$SERVER_PID" ]] && kill "$jpid" 2>/dev/null
    for _ in $(seq 1 50); do
      { [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; } ||
        { [[ -n "$jpid" ]] && kill -0 "$jpid" 2>/dev/null; } || break
      sleep 0.2
    done
    STARTED_SERVER=0
    [[ -n "$SERVER_DIR" ]] && rm -rf "$SERVER_DIR"
  fi
}
trap stop_server EXIT
trap 'exit 130' INT TERM

if [[ -n "${PORT:-}" ]] && answers_ping "$PORT"; then
  echo "large-update-test: using the server already answering on $HOST:$PORT (it will not be stopped)"
else
  if [[ -z "${PORT:-}" ]]; then
    PORT=7711
    while port_in_use "$PORT"; do PORT=$((PORT + 1)); done
  elif port_in_use "$PORT"; then
    die "port $PORT is taken by something that does not answer PING"
  fi
  [[ -x "$SERVER_CMD" ]] || die "server launcher $SERVER_CMD not found"
  SERVER_DIR="$(mktemp -d)"
  echo "large-update-test: starting $SERVER_CMD --port $PORT --bind $HOST --save '' --dir $SERVER_DIR (${PINNING%%,*})"
  "${SERVER_PIN[@]}" "$SERVER_CMD" --port "$PORT" --bind "$HOST" --save "" --dir "$SERVER_DIR" \
    > "$DIR/server-output.txt" 2>&1 &
  SERVER_PID=$!
  STARTED_SERVER=1
  waited=0
  until answers_ping "$PORT"; do
    kill -0 "$SERVER_PID" 2>/dev/null || die "server exited; see $DIR/server-output.txt"
    [[ "$waited" -ge $((SERVER_WAIT * 5)) ]] && die "server did not answer PING within ${SERVER_WAIT}s"
    sleep 0.2
    waited=$((waited + 1))
  done
fi
PID="$(listening_pid)"
PID="${PID:-$SERVER_PID}"

{
  echo "REQ=$REQ"
  echo "MODS=\"$MODS\""
  echo "CLIENTS=$CLIENTS"
  echo "HOST=$HOST"
  echo "PORT=$PORT"
  echo "RUN_NAME=$RUN_NAME"
  echo "DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "MACHINE=\"$(hostname)\""
  echo "CPU=\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')\""
  echo "NPROC=$(nproc)"
  echo "MEMORY_KB=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
  echo "KERNEL=$(uname -r)"
  echo "JAVA=\"$(java -version 2>&1 | head -1 | tr -d '"')\""
  echo "COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "PINNING=\"$PINNING\""
  echo "SERVER_STARTED_HERE=$STARTED_SERVER"
  echo "SERVER_PID=${PID:-unknown}"
  echo "RESPSQL_HEAP=${RESPSQL_HEAP:-}"
} > "$DIR/run.env"

# A top-level scalar of a gen-benchmark --json file.
jget() { sed -n "s/^  \"$2\": \(.*\)$/\1/p" "$1" 2>/dev/null | sed 's/,$//; s/^"//; s/"$//' | head -1; }

# Number of n in 1..REQ with n % MOD == k (0 <= k).
expected_count() {
  local mod="$1" k="$2"
  if ((k >= mod)); then echo 0
  elif ((k == 0)); then echo $((REQ / mod))
  elif ((k > REQ)); then echo 0
  else echo $(((REQ - k) / mod + 1))
  fi
}

memory_snapshot() { # label
  echo "== $1"
  if [[ -n "$PID" && -r "/proc/$PID/status" ]]; then
    grep -E '^(VmRSS|VmHWM|VmSize):' "/proc/$PID/status"
  else
    echo "no /proc status for the server (pid ${PID:-unknown})"
  fi
  echo "-- INFO memory"
  timeout 10 redis-cli -h "$HOST" -p "$PORT" INFO memory 2>&1 | tr -d '\r' | head -40
}

# Runs the checks for one MOD; prints every query with expected and actual reply; returns 1 on
# any mismatch.
check_mod() {
  local mod="$1" bad=0 id fk count want got k i
  local ids=(1 2 3 "$REQ" $((REQ - 1)) $((mod - 1)) "$mod" $((mod + 1)) $((2 * mod)) $((2 * mod + 1)))
  for ((i = 0; i < ROW_SAMPLES; i++)); do
    ids+=($((1 + (REQ - 1) * i / (ROW_SAMPLES > 1 ? ROW_SAMPLES - 1 : 1))))
  done
  local x=$((mod * 7919 + 17))
  for ((i = 0; i < ROW_SAMPLES / 4; i++)); do
    x=$(((x * 1103515245 + 12345) % 2147483648))
    ids+=($((1 + x % REQ)))
  done
  echo "== rows: SELECT id,fk,count FROM message_list WHERE id = X"
  for id in $(printf '%s\n' "${ids[@]}" | awk -v r="$REQ" '$1 >= 1 && $1 <= r' | sort -n -u); do
    fk=$((id % mod))
    if ((fk >= 1)); then count="$mod"; else count=4; fi
    want="$id,$fk,$count"
    got="$(cli SELECT "id,fk,count" FROM message_list WHERE id = "$id" 2>&1 | tr -d '\r')"
    if [[ "$got" == "$want" ]]; then
      echo "ok   id=$id -> $got"
    else
      echo "FAIL id=$id expected '$want' got '$got'"
      bad=1
    fi
  done
  echo "== ids that must not exist"
  for id in 0 $((REQ + 1)); do
    got="$(cli SELECT "id,fk,count" FROM message_list WHERE id = "$id" 2>&1 | tr -d '\r')"
    if [[ -z "$got" ]]; then
      echo "ok   id=$id -> (empty)"
    else
      echo "FAIL id=$id expected no row, got '$got'"
      bad=1
    fi
  done
  echo "== counts through the index: SELECT COUNT(*) FROM message_list WHERE fk = k"
  local ks=(0 1 2 $((mod - 1)) $((mod / 2)) "$mod" $((mod + 1)))
  for ((i = 0; i < FK_SAMPLES; i++)); do
    ks+=($((mod * i / (FK_SAMPLES > 0 ? FK_SAMPLES : 1))))
  done
  for k in $(printf '%s\n' "${ks[@]}" | awk '$1 >= 0' | sort -n -u); do
    want="$(expected_count "$mod" "$k")"
    got="$(cli SELECT "COUNT(*)" FROM message_list WHERE fk = "$k" 2>&1 | tr -d '\r')"
    if [[ "$got" == "$want" ]]; then
      echo "ok   fk=$k -> $got"
    else
      echo "FAIL fk=$k expected '$want' got '$got'"
      bad=1
    fi
  done
  return "$bad"
}

FAILED=0
SUMMARY_TSV="$DIR/summary.tsv"
printf 'mod\tfk_range\trows_per_update_min\trows_per_update_max\trows_updated\trows_expected\tupdate_rps\tp50_ms\tp99_ms\tmax_ms\tinsert_rps\tinsert_seconds\trss_mb_after_insert\trss_mb_after_updates\tcheck\n' > "$SUMMARY_TSV"

for MOD in $MODS; do
  status=ok
  echo
  echo "=== MOD $MOD: $REQ rows, FK range $((REQ / MOD))"
  dropped="$(cli DROP TABLE message_list 2>&1 | tr -d '\r')"
  if [[ "$FK_DECLARED" == 1 ]]; then
    cli DROP TABLE fk_parent >/dev/null 2>&1
    parent="$(cli SQL "CREATE TABLE fk_parent (id int primary key)" 2>&1 | tr -d '\r')"
    parent_rows="$(cli SQL "INSERT INTO fk_parent VALUES $(seq 0 $((MOD - 1)) | sed 's/.*/(&)/' | paste -sd,)" 2>&1 | tr -d '\r')"
    created="$(cli SQL "CREATE TABLE message_list (id int primary key, fk int REFERENCES fk_parent, count INT)" 2>&1 | tr -d '\r')"
    indexed="$parent_rows"
    printf '$ DROP TABLE message_list\n%s\n$ CREATE TABLE fk_parent (id int primary key)\n%s\n$ INSERT INTO fk_parent VALUES (0) .. (%s)\n%s\n$ CREATE TABLE message_list (id int primary key, fk int REFERENCES fk_parent, count INT)\n%s\n' \
      "$dropped" "$parent" $((MOD - 1)) "$parent_rows" "$created" | tee "$DIR/setup-$MOD.txt"
  else
  created="$(cli CREATE TABLE message_list "(id int primary key, fk int, count INT)" 2>&1 | tr -d '\r')"
  indexed="$(cli CREATE INDEX message_list:fk:index ON message_list "(fk)" 2>&1 | tr -d '\r')"
  printf '$ DROP TABLE message_list\n%s\n$ CREATE TABLE message_list (id int primary key, fk int, count INT)\n%s\n$ CREATE INDEX message_list:fk:index ON message_list (fk)\n%s\n' \
    "$dropped" "$created" "$indexed" | tee "$DIR/setup-$MOD.txt"
  fi
  table_ok=1
  if [[ "$created" != OK || "$indexed" != OK ]]; then
    echo "large-update-test: MOD $MOD: CREATE TABLE / CREATE INDEX did not answer OK"
    status=FAIL
    table_ok=0
  fi

  if [[ "$status" == ok ]]; then
    echo "INSERT $REQ rows"
    {
      time "${CLIENT_PIN[@]}" "$GEN" -h "$HOST" -p "$PORT" -q -c "$CLIENTS" -n "$REQ" -s -m "$MOD" -A OK \
        --json "$DIR/insert-$MOD.json" \
        -Q INSERT INTO message_list VALUES "(000000000001,000000000001,4)"
    } 2>&1 | tee "$DIR/insert-$MOD.txt"
    [[ "${PIPESTATUS[0]}" == 0 ]] || { echo "large-update-test: MOD $MOD: insert failed"; status=FAIL; }
  fi
  memory_snapshot "after insert" > "$DIR/memory-$MOD.txt"
  rss_insert="$(awk '/^VmRSS:/ { printf "%.0f", $2 / 1024 }' "$DIR/memory-$MOD.txt")"

  if [[ "$status" == ok ]]; then
    echo "MOD: $MOD FK-RANGE: $((REQ / MOD))" | tee "$DIR/update-$MOD.txt"
    "${CLIENT_PIN[@]}" "$GEN" -h "$HOST" -p "$PORT" -c 1 -n "$MOD" -s -A INT \
      --json "$DIR/update-$MOD.json" \
      -Q UPDATE message_list SET "count=$MOD" WHERE "fk=000000000001" 2>&1 | tee -a "$DIR/update-$MOD.txt"
    [[ "${PIPESTATUS[0]}" == 0 ]] || { echo "large-update-test: MOD $MOD: updates failed"; status=FAIL; }
  fi
  memory_snapshot "after updates" >> "$DIR/memory-$MOD.txt"
  rss_update="$(awk '/^VmRSS:/ { v = $2 } END { if (v != "") printf "%.0f", v / 1024 }' "$DIR/memory-$MOD.txt")"

  # Rows changed by the updates: every row whose fk is in 1..MOD-1 (count goes from 4 to MOD).
  rows_expected=$((REQ - REQ / MOD))
  rows_updated="$(jget "$DIR/update-$MOD.json" int_reply_sum)"
  if [[ "$table_ok" == 1 && "$MOD" != 4 && "$rows_updated" != "$rows_expected" ]]; then
    echo "large-update-test: MOD $MOD: updates changed ${rows_updated:-?} rows, expected $rows_expected"
    status=FAIL
  fi

  # The checks run even after a failed step: they show what the table holds.
  if [[ "$table_ok" == 1 ]]; then
    echo "checking rows and index counts ..."
    if check_mod "$MOD" > "$DIR/check-$MOD.txt" 2>&1; then
      echo "check: $(grep -c '^ok ' "$DIR/check-$MOD.txt") queries as expected"
    else
      echo "large-update-test: MOD $MOD: CHECK FAILED:"
      grep '^FAIL' "$DIR/check-$MOD.txt" | head -10
      status=FAIL
    fi
  fi
  [[ "$status" == ok ]] || FAILED=1

  u="$DIR/update-$MOD.json"
  i="$DIR/insert-$MOD.json"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$MOD" $((REQ / MOD)) \
    "$(jget "$u" int_reply_min)" "$(jget "$u" int_reply_max)" "${rows_updated:-}" "$rows_expected" \
    "$(jget "$u" requests_per_second)" "$(jget "$u" p50_ms)" "$(jget "$u" p99_ms)" "$(jget "$u" max_ms)" \
    "$(jget "$i" requests_per_second)" "$(jget "$i" elapsed_seconds)" "$rss_insert" "$rss_update" \
    "$status" >> "$SUMMARY_TSV"
done

stop_server

{
  echo "Large-update test: $REQ rows, $CLIENTS insert clients, $PINNING ($(basename "$DIR"))"
  awk -F'\t' '
    function f(v, d) { return v == "" || v == "null" ? "-" : sprintf("%." d "f", v) }
    NR == 1 {
      printf "%8s %9s %17s %12s %9s %9s %12s %8s %8s\n", "MOD", "FK range", "rows/update", "update/s",
        "p50 ms", "p99 ms", "insert/s", "RSS MB", "check"
      next
    }
    {
      rows = ($3 == "" || $3 == "null") ? "-" : $3 ".." $4
      printf "%8s %9s %17s %12s %9s %9s %12s %8s %8s\n", $1, $2, rows, f($7, 2), f($8, 3), f($9, 3),
        f($11, 0), ($13 == "" ? "-" : $13), $15
    }' "$SUMMARY_TSV"
  echo "rows/update: fewest..most rows one UPDATE changed (fk = MOD matches none)."
} > "$DIR/summary.txt"
echo
cat "$DIR/summary.txt"
echo

if ls "$DIR"/update-*.json >/dev/null 2>&1; then
  "$GEN" compare "$DIR" || FAILED=1
  if [[ "$RENDER_PNG" != 0 ]] && command -v chromium >/dev/null; then
    profile="$(mktemp -d)"
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --user-data-dir="$profile" --screenshot="$DIR/compare.png" --window-size=1400,1000 \
      "file://$DIR/compare.svg" >/dev/null 2>&1 && echo "wrote $DIR/compare.png"
    rm -rf "$profile"
  fi
fi

if [[ "$FAILED" != 0 ]]; then
  echo "large-update-test: FAILED (see check-*.txt and the logs in $DIR)"
  exit 1
fi
echo "large-update-test: all checks passed; results in $DIR"
