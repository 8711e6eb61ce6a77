#!/usr/bin/env bash
# Replica benchmark: what one attached replica costs the master, how far behind it runs, and that
# it ends identical.
#
# The 2010 FK-range workload of scripts/large-update-test.sh and scripts/persist-bench.sh: per run
# a fresh master (and, in mode "replica", a fresh replica of it, REPLICAOF given at startup and
# waited for until the master lists it online), CREATE TABLE message_list (id int primary key,
# fk int, count INT) and an index on fk, ROWS inserts (n, n % MOD, 4) from CLIENTS connections,
# then MOD sequential FK-range updates UPDATE message_list SET count=7 WHERE fk=k (k = 1..MOD,
# about ROWS/MOD rows each) from one connection. Insert/s and update/s are the master's (what
# gen-benchmark measured against it).
#
# Modes alternate in each round, ABAB / BABA: odd rounds run "none" then "replica", even rounds
# "replica" then "none", so a drift of the machine's load over time does not favour one mode.
# The ratio replica/none is taken per round (the two runs of the round), then the median.
#
# During each run a sampler (both modes, so the client core carries the same probe) reads INFO
# replication of the replica, then of the master, every SAMPLE_INTERVAL seconds: master
# master_repl_offset, the replica's acknowledged offset (slave0 offset=) and the replica's own
# slave_repl_offset. Lag in bytes = master offset - replica offset (the replica is read first, so
# this over- rather than under-states); lag in time = the age of the oldest write the replica had
# not applied at a sample: the time since the first sample at which the master was past the
# replica's offset (0 when caught up; it may be up to one SAMPLE_INTERVAL more).
# After each phase (replica mode): catch-up time from the end of the last write to (1) the
# replica's slave_repl_offset reaching the master's offset (polled) and (2) `WAIT 1 0` returning 1,
# sent on one connection after a write that changes nothing (UPDATE ... WHERE id=0; WAIT waits for
# the client's last write). Both include a redis-cli start (a few ms; both clients unpinned, as
# the replica and the benchmark client may keep core 1 busy at that moment).
# At the end: the exact RESP bytes of `DUMP message_list` on master and replica, hashed
# (sha256); they must be identical. Then the full-sync rate: the replica is stopped, a new empty
# server is started and sent REPLICAOF; time from REPLICAOF to its offset matching the master's,
# the snapshot bytes it received (its log) and the same DUMP identity check on it.
# Every server runs with client-output-buffer-limit "normal 0 0 0": at 10M rows the DUMP reply is
# 538 MB, produced in one go, and the default hard limit (256mb) closes a reader that is slower.
# Every server logs its garbage collections (-Xlog:gc, wall-clock times) to gc-<run>.txt, to tell
# a collection that fell into a timed phase from a cost of replication.
# Bytes per write: master_repl_offset delta over the phase / statements in the phase.
#
# Pinning (2 cores): master taskset -c 0; clients, sampler and DUMP readers -c 1; the replica
# -c REPLICA_CPU (default 1: it shares the client core, not the master's). Every figure of
# summary.txt is read from the raw files beside it.
#
# Env (all optional):
#   ROWS=1000000          rows inserted per run
#   ROUNDS=2              rounds (each runs every mode of MODES once, order alternating)
#   MODES="none replica"  modes; "replica" alone for a correctness-only run
#   MOD=1000              fk modulo: MOD updates of about ROWS/MOD rows each
#   CLIENTS=50            insert connections
#   UPDATE_WARMUP=100     gen-benchmark --warmup PINGs before the updates (its default, 20000, would
#                         be most of the master's CPU in the short update phase's window)
#   SAMPLE_INTERVAL=0.25  seconds between lag samples
#   FULLSYNC=1            measure a full sync onto a fresh replica after each replica run (0: no;
#                         first: after the first replica run only)
#   REPLICA_CPU=1         core of the replica
#   RUN_NAME=             result directory bench/results/<date>[-RUN_NAME]-replica/
#   RESULT_DIR=           write there instead
#   RESPSQL_HEAP          passed on to scripts/respsql-server (-Xmx; default there 2g)
#   SERVER_WAIT=300       seconds to wait for a server's ready line / a replica to come online
#   CATCHUP_TIMEOUT=600   seconds a replica may take to catch up before the run fails
#   CORRUPT_REPLICA=0     1: check the checker: the replica runs with replica-read-only no and one
#                         row is changed on it directly after the updates, so the DUMP check must
#                         fail (exit 1)
#   SETTLE=1              seconds of quiet after each phase (after the catch-up checks), in both
#                         modes, so the next phase starts after the same kind of gap
#
# Exit status 1 when any DUMP differs, a replica did not catch up, a step failed or the updates
# changed another number of rows than expected. Needs java, redis-cli, python3, taskset.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROWS="${ROWS:-1000000}"
ROUNDS="${ROUNDS:-2}"
MODES="${MODES:-none replica}"
MOD="${MOD:-1000}"
CLIENTS="${CLIENTS:-50}"
SAMPLE_INTERVAL="${SAMPLE_INTERVAL:-0.25}"
FULLSYNC="${FULLSYNC:-1}"
REPLICA_CPU="${REPLICA_CPU:-1}"
SERVER_WAIT="${SERVER_WAIT:-300}"
CATCHUP_TIMEOUT="${CATCHUP_TIMEOUT:-600}"
SETTLE="${SETTLE:-1}"
UPDATE_WARMUP="${UPDATE_WARMUP:-100}"
CORRUPT_REPLICA="${CORRUPT_REPLICA:-0}"
HOST=127.0.0.1
GEN="$ROOT/scripts/gen-benchmark"
SERVER_CMD="$ROOT/scripts/respsql-server"
DIR="${RESULT_DIR:-$ROOT/bench/results/$(date +%Y%m%d-%H%M%S)${RUN_NAME:+-$RUN_NAME}-replica}"

die() { echo "replica-bench: $*" >&2; exit 1; }

for v in ROWS ROUNDS MOD CLIENTS SERVER_WAIT CATCHUP_TIMEOUT; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive number"
done
[[ "$SAMPLE_INTERVAL" =~ ^[0-9]*\.?[0-9]+$ ]] || die "SAMPLE_INTERVAL must be a number of seconds"
[[ "$FULLSYNC" =~ ^(0|1|first)$ ]] || die "FULLSYNC is 0, 1 or first"
[[ "$SETTLE" =~ ^[0-9]*\.?[0-9]+$ ]] || die "SETTLE must be a number of seconds"
for m in $MODES; do [[ "$m" =~ ^(none|replica)$ ]] || die "MODES are none and replica; got '$m'"; done
[[ -n "$MODES" ]] || die "MODES is empty"
((MOD >= 2)) || die "MOD must be at least 2"
if ! command -v python3 >/dev/null || ! command -v redis-cli >/dev/null; then
  # A fresh Debian machine (CI): install what is missing where we can.
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    pkgs=()
    command -v python3 >/dev/null || pkgs+=(python3-minimal)
    command -v redis-cli >/dev/null || pkgs+=(redis-tools)
    echo "replica-bench: installing ${pkgs[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null
  fi
fi
for c in java redis-cli python3; do command -v "$c" >/dev/null || die "$c is needed"; done

if [[ "$(nproc)" -ge 2 ]] && command -v taskset >/dev/null; then
  MASTER_PIN=(taskset -c 0); REPLICA_PIN=(taskset -c "$REPLICA_CPU"); CLIENT_PIN=(taskset -c 1)
  PINNING="master taskset -c 0, replica taskset -c $REPLICA_CPU, clients/sampler/DUMP readers taskset -c 1"
else
  MASTER_PIN=(); REPLICA_PIN=(); CLIENT_PIN=(); PINNING="none (fewer than 2 cores or no taskset)"
fi

mkdir -p "$DIR" || die "cannot create $DIR"
DATA_ROOT="$(mktemp -d "${TMPDIR:-/tmp}/replica-bench.XXXXXX")"
echo "replica-bench: results in $DIR, data in $DATA_ROOT"

# Build both jars before anything is timed.
"$GEN" --help >/dev/null || die "gen-benchmark does not build"
"$SERVER_CMD" --version >/dev/null || die "the server does not build"

now_ns() { date +%s%N; }
now_ms() { date +%s%3N; }
port_in_use() { ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }
NEXT_PORT=7851
free_port() {
  while port_in_use "$NEXT_PORT"; do NEXT_PORT=$((NEXT_PORT + 1)); done
  echo "$NEXT_PORT"
  NEXT_PORT=$((NEXT_PORT + 1))
}
# field PORT SECTION NAME: one INFO field ("" when absent)
field() { redis-cli -h "$HOST" -p "$1" INFO "$2" 2>/dev/null | tr -d '\r' | sed -n "s/^$3://p" | head -1; }
load_avg() { cut -d' ' -f1-3 /proc/loadavg; }
TCK="$(getconf CLK_TCK 2>/dev/null || echo 100)"
# cpu_ms PID: user + system CPU of the process so far (all its threads: GC and JIT included), ms.
cpu_ms() { [[ -n "$1" && -r "/proc/$1/stat" ]] && sed 's/^.*) //' "/proc/$1/stat" | awk -v t="$TCK" '{ printf "%d", ($12 + $13) * 1000 / t }'; }

# The exact RESP reply of DUMP <table>, hashed: sends DUMP then PING on one connection and hashes
# every byte before the final +PONG (nothing in this workload's rows can end in "\r\n+PONG\r\n").
HASHER="$DIR/dump-sha256.py"
cat > "$HASHER" <<'EOF'
import hashlib, socket, sys
host, port, table = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
s = socket.create_connection((host, port))
s.sendall(b"*2\r\n$4\r\nDUMP\r\n$%d\r\n%s\r\n*1\r\n$4\r\nPING\r\n" % (len(table), table))
h, tail, total, head = hashlib.sha256(), b"", 0, b""
end = b"\r\n+PONG\r\n"
while True:
    chunk = s.recv(1 << 20)
    if not chunk:
        sys.exit("connection closed before the reply ended")
    if len(head) < 64:
        head += chunk[:64]
    data = tail + chunk
    if data.endswith(end):
        body = data[:-len(end) + 2]  # keep the reply's own final CRLF
        h.update(body); total += len(body)
        break
    keep = len(end) - 1
    h.update(data[:-keep]); total += len(data) - keep
    tail = data[-keep:]
first = head.split(b"\r\n", 1)[0].decode("ascii", "replace")
if not first.startswith("*"):
    sys.exit("DUMP did not reply an array: %s" % first)
print("sha256=%s bytes=%d elements=%s" % (h.hexdigest(), total, first[1:]))
EOF

PIDS=()   # every server started, stopped at exit
# start_server NAME DATA_DIR PIN_VAR [--flag value ...]: sets SPORT and SPID; waits for the ready line.
start_server() {
  local name="$1" data="$2" pinvar="$3[@]"; shift 3
  SPORT="$(free_port)"
  local out="$DIR/server-$name.txt" waited=0
  mkdir -p "$data"
  RESPSQL_JAVA_OPTS="${RESPSQL_JAVA_OPTS:-} -Xlog:gc:file=$DIR/gc-$name.txt:time" \
    "${!pinvar}" "$SERVER_CMD" --port "$SPORT" --bind "$HOST" --dir "$data" --save "" --appendonly no \
    --client-output-buffer-limit "normal 0 0 0" "$@" > "$out" 2>&1 &
  SPID=$!
  PIDS+=("$SPID")
  until grep -q ' ready on ' "$out" 2>/dev/null; do
    kill -0 "$SPID" 2>/dev/null || die "server $name exited; see $out"
    [[ "$waited" -ge $((SERVER_WAIT * 100)) ]] && die "server $name not ready within ${SERVER_WAIT}s"
    sleep 0.01
    waited=$((waited + 1))
  done
}
stop_pid() { # PID PORT
  redis-cli -h "$HOST" -p "$2" SHUTDOWN NOSAVE >/dev/null 2>&1
  for _ in $(seq 1 300); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill "$1" 2>/dev/null
  wait "$1" 2>/dev/null
}
SAMPLER_PID=""
cleanup() {
  [[ -n "$SAMPLER_PID" ]] && kill "$SAMPLER_PID" 2>/dev/null
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$DATA_ROOT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A top-level scalar of a gen-benchmark --json file.
jget() { sed -n "s/^  \"$2\": \(.*\)$/\1/p" "$1" 2>/dev/null | sed 's/,$//; s/^"//; s/"$//' | head -1; }
g() { sed -n "s/^$2=//p" "$1" | head -1; }  # FILE KEY: the value of a key=value line

# sampler OUT MASTER_PORT REPLICA_PORT: one line per SAMPLE_INTERVAL until killed:
# t_ms master_repl_offset acked_offset replica_offset (the replica first, then the master).
sampler() {
  printf 't_ms\tmaster_repl_offset\tslave0_acked_offset\treplica_slave_repl_offset\n' > "$1"
  while :; do
    local r m t
    t="$(now_ms)"
    r="$(redis-cli -h "$HOST" -p "$3" INFO replication 2>/dev/null | tr -d '\r')"
    m="$(redis-cli -h "$HOST" -p "$2" INFO replication 2>/dev/null | tr -d '\r')"
    awk -v t="$t" -v m="$m" -v r="$r" 'BEGIN {
        mo = ""; ao = ""; ro = ""
        n = split(m, a, "\n")
        for (i = 1; i <= n; i++) {
          if (a[i] ~ /^master_repl_offset:/) mo = substr(a[i], 20)
          if (a[i] ~ /^slave0:/ && match(a[i], /offset=[0-9]+/)) ao = substr(a[i], RSTART + 7, RLENGTH - 7)
        }
        n = split(r, b, "\n")
        for (i = 1; i <= n; i++) if (b[i] ~ /^slave_repl_offset:/) ro = substr(b[i], 19)
        printf "%s\t%s\t%s\t%s\n", t, mo, ao, ro
      }' >> "$1"
    sleep "$SAMPLE_INTERVAL"
  done
}

# catchup MASTER_PORT REPLICA_PORT T_END_NS OUT: after a phase, how long until the replica is at
# the master's offset (polled) and until WAIT 1 returns; appends key=value lines to OUT.
catchup() {
  local mp="$1" rp="$2" t_end="$3" out="$4" target ro t_match="" t_wait="" wait_reply
  target="$(field "$mp" replication master_repl_offset)"
  ( printf 'UPDATE message_list SET count=4 WHERE id=0\nWAIT 1 %s\n' $((CATCHUP_TIMEOUT * 1000)) |
      redis-cli -h "$HOST" -p "$mp" > "$out.wait" 2>&1
    echo "t_ns=$(now_ns)" >> "$out.wait" ) &
  local wait_pid=$!
  local deadline=$(( $(date +%s) + CATCHUP_TIMEOUT ))
  while :; do
    ro="$(field "$rp" replication slave_repl_offset)"
    if [[ -n "$ro" && -n "$target" ]] && ((ro >= target)); then t_match="$(now_ns)"; break; fi
    (( $(date +%s) > deadline )) && break
    sleep 0.005
  done
  wait "$wait_pid"
  wait_reply="$(sed -n 2p "$out.wait")"
  t_wait="$(g "$out.wait" t_ns)"
  {
    echo "master_offset_at_end=$target"
    echo "offsets_match_ms=${t_match:+$(( (t_match - t_end) / 1000000 ))}"
    echo "wait_reply=$wait_reply"
    echo "wait_returned_ms=${t_wait:+$(( (t_wait - t_end) / 1000000 ))}"
  } >> "$out"
  rm -f "$out.wait"
  [[ -n "$t_match" && "$wait_reply" == 1 ]]
}

{
  echo "ROWS=$ROWS"; echo "ROUNDS=$ROUNDS"; echo "MODES=\"$MODES\""; echo "MOD=$MOD"; echo "CLIENTS=$CLIENTS"
  echo "SAMPLE_INTERVAL=$SAMPLE_INTERVAL"; echo "FULLSYNC=$FULLSYNC"; echo "SETTLE=$SETTLE"; echo "UPDATE_WARMUP=$UPDATE_WARMUP"
  echo "DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "MACHINE=\"$(hostname)\""
  echo "CPU=\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')\""
  echo "NPROC=$(nproc)"; echo "MEMORY_KB=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
  echo "KERNEL=$(uname -r)"; echo "JAVA=\"$(java -version 2>&1 | head -1 | tr -d '"')\""
  echo "COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "PINNING=\"$PINNING\""; echo "RESPSQL_HEAP=${RESPSQL_HEAP:-}"
  echo "LOADAVG_START=\"$(load_avg)\""
} > "$DIR/run.env"

RUNS_TSV="$DIR/runs.tsv"
printf 'round\tmode\tinsert_rps\tupdate_rps\tupdate_p50_ms\tupdate_p99_ms\trows_updated\tinsert_stream_bytes\tupdate_stream_bytes\tmax_lag_bytes\tmax_lag_ms\tinsert_catchup_ms\tinsert_wait_ms\tupdate_catchup_ms\tupdate_wait_ms\tdump_identical\tmaster_sync_full\tloadavg_start\tloadavg_end\n' > "$RUNS_TSV"
FS_TSV="$DIR/fullsync.tsv"
printf 'round\trows\treplicaof_to_offsets_match_ms\tsnapshot_bytes_received\treplica_log_install\tdump_identical\n' > "$FS_TSV"
CPU_TSV="$DIR/cpu.tsv"
printf 'round\tmode\tmaster_insert_cpu_ms\treplica_insert_cpu_ms\tmaster_update_cpu_ms\treplica_update_cpu_ms\n' > "$CPU_TSV"
FAILED=0
fail() { echo "replica-bench: FAIL: $*" | tee -a "$DIR/failures.txt" >&2; FAILED=1; }

# run ROUND MODE
run() {
  local round="$1" mode="$2" tag="r$1-$2" mp rp="" mpid rpid="" data="$DATA_ROOT/r$1-$2" la0 la1
  echo "round $round, $mode: $ROWS inserts, $MOD FK-range updates (load average $(load_avg))"
  la0="$(load_avg)"
  start_server "$tag-master" "$data/master" MASTER_PIN
  mp="$SPORT"; mpid="$SPID"
  if [[ "$mode" == replica ]]; then
    local ro_flag=()
    [[ "$CORRUPT_REPLICA" == 1 ]] && ro_flag=(--replica-read-only no)
    start_server "$tag-replica" "$data/replica" REPLICA_PIN --replicaof "$HOST $mp" "${ro_flag[@]}"
    rp="$SPORT"; rpid="$SPID"
    local waited=0
    until [[ "$(field "$mp" replication slave0)" == *state=online* && "$(field "$rp" replication master_link_status)" == up ]]; do
      [[ "$waited" -ge $((SERVER_WAIT * 100)) ]] && die "replica of $tag not online within ${SERVER_WAIT}s"
      sleep 0.01; waited=$((waited + 1))
    done
  fi
  {
    echo "\$ CREATE TABLE message_list (id int primary key, fk int, count INT)"
    redis-cli -h "$HOST" -p "$mp" CREATE TABLE message_list "(id int primary key, fk int, count INT)"
    echo "\$ CREATE INDEX message_list:fk:index ON message_list (fk)"
    redis-cli -h "$HOST" -p "$mp" CREATE INDEX message_list:fk:index ON message_list "(fk)"
  } > "$DIR/setup-$tag.txt" 2>&1
  [[ "$(grep -vc '^\$\|^OK$' "$DIR/setup-$tag.txt")" == 0 ]] || die "CREATE failed, see $DIR/setup-$tag.txt"

  "${CLIENT_PIN[@]}" bash -c "$(declare -f sampler now_ms); HOST=$HOST SAMPLE_INTERVAL=$SAMPLE_INTERVAL sampler '$DIR/lag-$tag.tsv' $mp ${rp:-$mp}" &
  SAMPLER_PID=$!
  local o0 o1 o2 t
  o0="$(field "$mp" replication master_repl_offset)"
  # CPU windows: the master's from the start to the end of its phase; the replica's from the start
  # of the phase to the end of its catch-up (so it holds all of its work for the phase).
  local mc0 mc1 mc2 mc3 rc0 rc1 rc2 rc3
  mc0="$(cpu_ms "$mpid")"; rc0="$(cpu_ms "$rpid")"
  echo "t_ms=$(now_ms) utc=$(date -u +%H:%M:%S.%3N) event=insert_start master_repl_offset=$o0" > "$DIR/events-$tag.txt"
  { time "${CLIENT_PIN[@]}" "$GEN" -h "$HOST" -p "$mp" -q -c "$CLIENTS" -n "$ROWS" -s -m "$MOD" -A OK --no-progress \
      --json "$DIR/insert-$tag.json" -Q INSERT INTO message_list VALUES "(000000000001,000000000001,4)"; } \
    > "$DIR/insert-$tag.txt" 2>&1 || die "insert failed, see $DIR/insert-$tag.txt"
  t="$(now_ns)"
  mc1="$(cpu_ms "$mpid")"
  o1="$(field "$mp" replication master_repl_offset)"
  echo "t_ms=$((t / 1000000)) utc=$(date -u +%H:%M:%S.%3N) event=insert_end master_repl_offset=$o1" >> "$DIR/events-$tag.txt"
  if [[ -n "$rp" ]]; then
    catchup "$mp" "$rp" "$t" "$DIR/catchup-insert-$tag.txt" || fail "$tag: replica did not catch up after the inserts (see $DIR/catchup-insert-$tag.txt)"
  fi
  rc1="$(cpu_ms "$rpid")"
  sleep "$SETTLE"
  mc2="$(cpu_ms "$mpid")"; rc2="$(cpu_ms "$rpid")"
  local o1u="$o1"
  [[ -n "$rp" ]] && o1u="$(field "$mp" replication master_repl_offset)"  # after the catch-up probe's own write
  echo "t_ms=$(now_ms) utc=$(date -u +%H:%M:%S.%3N) event=update_start master_repl_offset=$o1u" >> "$DIR/events-$tag.txt"
  "${CLIENT_PIN[@]}" "$GEN" -h "$HOST" -p "$mp" -c 1 -n "$MOD" -s -A INT --no-progress --warmup "$UPDATE_WARMUP" \
    --json "$DIR/update-$tag.json" -Q UPDATE message_list SET "count=7" WHERE "fk=000000000001" \
    > "$DIR/update-$tag.txt" 2>&1 || die "updates failed, see $DIR/update-$tag.txt"
  t="$(now_ns)"
  mc3="$(cpu_ms "$mpid")"
  o2="$(field "$mp" replication master_repl_offset)"
  echo "t_ms=$((t / 1000000)) utc=$(date -u +%H:%M:%S.%3N) event=update_end master_repl_offset=$o2" >> "$DIR/events-$tag.txt"
  if [[ -n "$rp" ]]; then
    catchup "$mp" "$rp" "$t" "$DIR/catchup-update-$tag.txt" || fail "$tag: replica did not catch up after the updates (see $DIR/catchup-update-$tag.txt)"
  fi
  rc3="$(cpu_ms "$rpid")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$mode" $((mc1 - mc0)) "$( [[ -n "$rp" ]] && echo $((rc1 - rc0)) || echo -)" \
    $((mc3 - mc2)) "$( [[ -n "$rp" ]] && echo $((rc3 - rc2)) || echo -)" >> "$CPU_TSV"
  sleep "$SETTLE"
  if [[ -n "$rp" && "$CORRUPT_REPLICA" == 1 ]]; then
    echo "CORRUPT_REPLICA=1: on the replica: UPDATE message_list SET count=5 WHERE id=1 -> $(redis-cli -h "$HOST" -p "$rp" UPDATE message_list SET count=5 WHERE id=1 2>&1)" |
      tee "$DIR/corrupt-$tag.txt"
  fi
  kill "$SAMPLER_PID" 2>/dev/null; wait "$SAMPLER_PID" 2>/dev/null; SAMPLER_PID=""

  local rows_expected=$((ROWS - ROWS / MOD)) rows_updated
  rows_updated="$(jget "$DIR/update-$tag.json" int_reply_sum)"
  [[ "$rows_updated" == "$rows_expected" ]] || fail "$tag: updates changed ${rows_updated:-?} rows, expected $rows_expected"

  {
    echo "== master INFO replication / stats / memory"
    redis-cli -h "$HOST" -p "$mp" INFO replication | tr -d '\r'
    redis-cli -h "$HOST" -p "$mp" INFO stats | tr -d '\r' | grep -E '^(sync_|total_commands|total_error)'
    grep -E '^(VmRSS|VmHWM):' "/proc/$mpid/status" 2>/dev/null
    if [[ -n "$rp" ]]; then
      echo "== replica INFO replication / stats / memory"
      redis-cli -h "$HOST" -p "$rp" INFO replication | tr -d '\r'
      redis-cli -h "$HOST" -p "$rp" INFO stats | tr -d '\r' | grep -E '^(sync_|total_commands|total_error)'
      grep -E '^(VmRSS|VmHWM):' "/proc/$rpid/status" 2>/dev/null
    fi
  } > "$DIR/info-$tag.txt" 2>&1

  local identical="-" sync_full
  sync_full="$(field "$mp" stats sync_full)"
  if [[ -n "$rp" ]]; then
    "${CLIENT_PIN[@]}" python3 "$HASHER" "$HOST" "$mp" message_list > "$DIR/dump-$tag-master.txt" 2>&1 &
    local h1=$!
    "${CLIENT_PIN[@]}" python3 "$HASHER" "$HOST" "$rp" message_list > "$DIR/dump-$tag-replica.txt" 2>&1
    wait "$h1"
    identical=no
    if grep -q '^sha256=' "$DIR/dump-$tag-master.txt" && cmp -s "$DIR/dump-$tag-master.txt" "$DIR/dump-$tag-replica.txt"; then
      identical=yes
    else
      fail "$tag: DUMP of the replica differs from the master's (see $DIR/dump-$tag-*.txt)"
    fi
    [[ "$(g "$DIR/dump-$tag-master.txt" 'sha256=[0-9a-f]* bytes=[0-9]* elements')" == $((ROWS + 2)) ]] ||
      fail "$tag: the master's DUMP does not have $((ROWS + 2)) statements (see $DIR/dump-$tag-master.txt)"
    [[ "$sync_full" == 1 ]] || fail "$tag: the master did $sync_full full syncs, expected 1 (the replica was dropped and resynced?)"
  fi
  la1="$(load_avg)"

  # Lag from the sampler: bytes (master - replica) and time (how long before the sample the master
  # was at the replica's offset).
  local lagb="-" lagms="-"
  if [[ -n "$rp" ]]; then
    read -r lagb lagms < <(awk -F'\t' 'NR > 1 && $2 != "" && $4 != "" {
        n++; t[n] = $1; mo[n] = $2; ro[n] = $4
      }
      END {
        # j: the first sample at which the master had written past the replica offset of sample
        # i (offsets only grow, so j only moves forward); the oldest write the replica lacks at
        # t[i] is at least t[i] - t[j] old (and less than one interval older than that).
        mb = 0; mt = 0; j = 1
        for (i = 1; i <= n; i++) {
          if (mo[i] - ro[i] > mb) mb = mo[i] - ro[i]
          if (ro[i] >= mo[i]) continue
          while (j < i && mo[j] <= ro[i]) j++
          if (t[i] - t[j] > mt) mt = t[i] - t[j]
        }
        print mb, mt
      }' "$DIR/lag-$tag.tsv")
  fi

  if [[ -n "$rp" && ( "$FULLSYNC" == 1 || ( "$FULLSYNC" == first && ! -s "$DIR/fullsync-done" ) ) ]]; then
    echo "$tag" > "$DIR/fullsync-done"
    stop_pid "$rpid" "$rp"
    start_server "$tag-fullsync" "$data/fullsync" REPLICA_PIN
    local fp="$SPORT" fpid="$SPID" target ro t0 t1="" reply
    target="$(field "$mp" replication master_repl_offset)"
    t0="$(now_ns)"
    reply="$(redis-cli -h "$HOST" -p "$fp" REPLICAOF "$HOST" "$mp" 2>&1)"
    local deadline=$(( $(date +%s) + CATCHUP_TIMEOUT ))
    while :; do
      ro="$(field "$fp" replication slave_repl_offset)"
      if [[ "$(field "$fp" replication master_link_status)" == up && -n "$ro" ]] && ((ro >= target)); then t1="$(now_ns)"; break; fi
      (( $(date +%s) > deadline )) && break
      sleep 0.01
    done
    local fs_ms="${t1:+$(( (t1 - t0) / 1000000 ))}" fs_bytes fs_install fs_ident=no
    [[ -n "$t1" ]] || fail "$tag: the full-sync replica did not catch up within ${CATCHUP_TIMEOUT}s"
    fs_bytes="$(sed -n 's/.*sync: received \([0-9]*\) bytes.*/\1/p' "$DIR/server-$tag-fullsync.txt" | tail -1)"
    fs_install="$(sed -n 's/.*finished with success (\(.*\)).*/\1/p' "$DIR/server-$tag-fullsync.txt" | tail -1)"
    "${CLIENT_PIN[@]}" python3 "$HASHER" "$HOST" "$fp" message_list > "$DIR/dump-$tag-fullsync.txt" 2>&1
    if grep -q '^sha256=' "$DIR/dump-$tag-fullsync.txt" && cmp -s "$DIR/dump-$tag-master.txt" "$DIR/dump-$tag-fullsync.txt"; then
      fs_ident=yes
    else
      fail "$tag: DUMP of the full-sync replica differs from the master's"
    fi
    {
      echo "replicaof_reply=$reply"
      echo "master_offset_before=$target"
      echo "replicaof_to_offsets_match_ms=$fs_ms"
      echo "snapshot_bytes_received=$fs_bytes"
      echo "install=$fs_install"
      echo "dump_identical=$fs_ident"
      echo "== full-sync replica INFO replication"
      redis-cli -h "$HOST" -p "$fp" INFO replication | tr -d '\r'
      ls -l "$data/fullsync"
    } > "$DIR/fullsync-$tag.txt" 2>&1
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$ROWS" "$fs_ms" "$fs_bytes" "$fs_install" "$fs_ident" >> "$FS_TSV"
    stop_pid "$fpid" "$fp"
  elif [[ -n "$rp" ]]; then
    stop_pid "$rpid" "$rp"
  fi
  stop_pid "$mpid" "$mp"
  rm -rf "$data"

  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$mode" \
    "$(jget "$DIR/insert-$tag.json" requests_per_second)" "$(jget "$DIR/update-$tag.json" requests_per_second)" \
    "$(jget "$DIR/update-$tag.json" p50_ms)" "$(jget "$DIR/update-$tag.json" p99_ms)" "${rows_updated:-}" \
    $((o1 - o0)) $((o2 - o1u)) "$lagb" "$lagms" \
    "$( [[ -n "$rp" ]] && g "$DIR/catchup-insert-$tag.txt" offsets_match_ms || echo -)" \
    "$( [[ -n "$rp" ]] && g "$DIR/catchup-insert-$tag.txt" wait_returned_ms || echo -)" \
    "$( [[ -n "$rp" ]] && g "$DIR/catchup-update-$tag.txt" offsets_match_ms || echo -)" \
    "$( [[ -n "$rp" ]] && g "$DIR/catchup-update-$tag.txt" wait_returned_ms || echo -)" \
    "$identical" "${sync_full:-}" "$la0" "$la1" >> "$RUNS_TSV"
}

# ---- summary (rewritten after every round, so an interrupted run keeps the rounds it finished) ----
summarize() {
{
  echo "Replica benchmark ($(basename "$DIR")): $ROWS rows, $CLIENTS insert clients, $MOD FK-range updates"
  echo "of about $((ROWS / MOD)) rows each; $ROUNDS rounds, modes alternated; $PINNING"
  echo "load average (1/5/15 min) at start $(g "$DIR/run.env" LOADAVG_START | tr -d '"'), now $(load_avg); rounds finished: $1 of $ROUNDS"
  echo
  awk -F'\t' 'NR == 1 { next }
    function f(v, d) { return v == "" || v == "-" ? "-" : sprintf("%." d "f", v) }
    { printf "round %s %-8s insert/s %9s  update/s %9s  update p99 ms %7s  stream B/insert %6s B/update %6s  max lag %9s B %6s ms  catch-up ins %5s/%5s ms upd %5s/%5s ms  dump %s  load %s\n",
        $1, $2, f($3, 0), f($4, 1), f($6, 3), ($2 == "none" && $8 == 0) ? "-" : f($8 / '"$ROWS"', 1), ($2 == "none" && $9 == 0) ? "-" : f($9 / '"$MOD"', 1),
        $10, $11, $12, $13, $14, $15, $16, $18 }' "$RUNS_TSV"
  echo "(catch-up: ms from the end of the phase's last write to the replica's offset matching / to WAIT 1 returning)"
  echo
  echo "process CPU (user + system, all threads) per statement, microseconds:"
  awk -F'\t' -v n="$ROWS" -v m="$MOD" 'NR > 1 {
      printf "round %s %-8s master %6.1f us/insert %8.1f us/update   replica %6s us/insert %8s us/update\n", $1, $2,
        $3 * 1000 / n, $5 * 1000 / m, ($4 == "-" ? "-" : sprintf("%.1f", $4 * 1000 / n)), ($6 == "-" ? "-" : sprintf("%.1f", $6 * 1000 / m))
    }' "$CPU_TSV"
  if [[ " $MODES " == *" none "* && " $MODES " == *" replica "* ]]; then
    echo
    echo "ratio replica / none per round (same round, adjacent runs):"
    awk -F'\t' 'NR > 1 { i[$1 "," $2] = $3; u[$1 "," $2] = $4; if ($1 > R) R = $1 }
      END {
        for (r = 1; r <= R; r++) if ((r ",none") in i && (r ",replica") in i) {
          ri = i[r ",replica"] / i[r ",none"]; ru = u[r ",replica"] / u[r ",none"]
          printf "round %d  insert %.3f  update %.3f\n", r, ri, ru
          n++; ai[n] = ri; au[n] = ru
        }
        # median (mean of the middle two for an even count)
        for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++) {
          if (ai[y] < ai[x]) { t = ai[x]; ai[x] = ai[y]; ai[y] = t }
          if (au[y] < au[x]) { t = au[x]; au[x] = au[y]; au[y] = t }
        }
        if (n) printf "median   insert %.3f  update %.3f  (%d rounds)\n",
          (ai[int((n + 1) / 2)] + ai[int(n / 2) + 1]) / 2, (au[int((n + 1) / 2)] + au[int(n / 2) + 1]) / 2, n
      }' "$RUNS_TSV"
  fi
  if [[ "$FULLSYNC" != 0 && " $MODES " == *" replica "* ]]; then
    echo
    echo "full sync of a fresh replica from the $ROWS-row master (REPLICAOF to offsets matching):"
    awk -F'\t' 'NR > 1 { printf "round %s  %s ms  %s snapshot bytes (%.1f MB/s, %.1f bytes/row)  %s  dump identical %s\n",
        $1, $3, $4, ($3 > 0 ? $4 / $3 / 1000 : 0), $4 / $2, $5, $6 }' "$FS_TSV"
  fi
  echo
  [[ "$FAILED" == 0 ]] && echo "all checks passed" || { echo "FAILURES:"; cat "$DIR/failures.txt"; }
} > "$DIR/summary.txt"
}

for round in $(seq 1 "$ROUNDS"); do
  order="$MODES"
  ((round % 2 == 0)) && order="$(printf '%s\n' $MODES | tac | tr '\n' ' ')"
  for mode in $order; do run "$round" "$mode"; done
  summarize "$round"
done
echo "LOADAVG_END=\"$(load_avg)\"" >> "$DIR/run.env"
cat "$DIR/summary.txt"
[[ "$FAILED" == 0 ]] || exit 1
