#!/usr/bin/env bash
# Persistence benchmark: what durability costs.
#
#  (a) write throughput with the append-only file off, appendfsync everysec and appendfsync always,
#      side by side in one run and alternated (ROUNDS rounds x MODES): per run a fresh server and
#      data directory, CREATE TABLE message_list (id int primary key, fk int, count INT) with an
#      index on fk, ROWS inserts (n, n % MOD, 4) from CLIENTS connections, then MOD sequential
#      FK-range updates UPDATE message_list SET count=7 WHERE fk=k (k = 1..MOD, about ROWS/MOD
#      rows each) from one connection, as in scripts/large-update-test.sh;
#  (b) BGSAVE at each of SIZES rows: its duration (BGSAVE sent to rdb_bgsave_in_progress:0), the
#      event-loop pause it causes (INFO persistence rdb_last_capture_usec when the server reports
#      it, and the largest PING round trip of a probe running throughout, beside a baseline probe
#      without BGSAVE) and the snapshot's size;
#  (c) startup at the largest size: from the snapshot of (b), from an append-only file written by
#      the inserts, and from that file after BGREWRITEAOF: time from process start to the ready
#      line, and the server's own "loaded ... in N ms" line.
#
# Server pinned to core 0 (taskset), clients and the PING probe to core 1. Every figure of the
# summary is taken from the raw files in the result directory.
#
# Env (all optional):
#   ROWS=1000000              (a) rows inserted per run
#   ROUNDS=3                  (a) rounds; each round runs every mode once, in order
#   MODES="off everysec always"
#   MOD=1000                  (a) fk modulo: MOD updates of about ROWS/MOD rows each
#   CLIENTS=50                (a) insert connections
#   SIZES="1000000 10000000"  (b) table sizes for BGSAVE; (c) uses the largest
#   LOAD_CLIENTS=200          (b), (c) connections filling the tables
#   BASELINE_SECONDS=3        (b) PING probe without BGSAVE, for comparison
#   RUN_NAME=$(hostname)      result directory bench/results/<date>-<RUN_NAME>-persist/
#   RESULT_DIR=               write there instead
#   DATA_ROOT=                parent of the servers' data directories (default: a new directory
#                             under TMPDIR, removed at the end unless KEEP_DATA=1)
#   RESPSQL_HEAP              passed on to scripts/respsql-server (-Xmx; default there 2g; 10M
#                             rows need about 1 GB)
#   SERVER_WAIT=600           seconds to wait for a server's ready line (10M-row loads)
#   PARTS="a b c"             which parts to run ((c) needs (b) for its snapshot)
#
# Needs java, redis-cli and python3 (the PING probe).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROWS="${ROWS:-1000000}"
ROUNDS="${ROUNDS:-3}"
MODES="${MODES:-off everysec always}"
MOD="${MOD:-1000}"
CLIENTS="${CLIENTS:-50}"
SIZES="${SIZES:-1000000 10000000}"
LOAD_CLIENTS="${LOAD_CLIENTS:-200}"
BASELINE_SECONDS="${BASELINE_SECONDS:-3}"
RUN_NAME="${RUN_NAME:-$(hostname)}"
SERVER_WAIT="${SERVER_WAIT:-600}"
PARTS="${PARTS:-a b c}"
HOST=127.0.0.1
GEN="$ROOT/scripts/gen-benchmark"
SERVER_CMD="$ROOT/scripts/respsql-server"
DIR="${RESULT_DIR:-$ROOT/bench/results/$(date +%Y%m%d-%H%M%S)-$RUN_NAME-persist}"

die() { echo "persist-bench: $*" >&2; exit 1; }

for v in ROWS ROUNDS MOD CLIENTS LOAD_CLIENTS BASELINE_SECONDS; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive number"
done
for s in $SIZES; do [[ "$s" =~ ^[1-9][0-9]*$ ]] || die "SIZES must be positive numbers, got '$s'"; done
for m in $MODES; do [[ "$m" =~ ^(off|everysec|always)$ ]] || die "MODES are off, everysec, always; got '$m'"; done
part() { [[ " $PARTS " == *" $1 "* ]]; }
part c && ! part b && die "part c loads the snapshot written by part b"
for c in java redis-cli python3; do command -v "$c" >/dev/null || die "$c is needed"; done
LARGEST="$(printf '%s\n' $SIZES | sort -n | tail -1)"

if [[ "$(nproc)" -ge 2 ]] && command -v taskset >/dev/null; then
  SERVER_PIN=(taskset -c 0); CLIENT_PIN=(taskset -c 1); PINNING="server taskset -c 0, clients taskset -c 1"
else
  SERVER_PIN=(); CLIENT_PIN=(); PINNING="none"
fi

mkdir -p "$DIR" || die "cannot create $DIR"
if [[ -z "${DATA_ROOT:-}" ]]; then
  DATA_ROOT="$(mktemp -d "${TMPDIR:-/tmp}/persist-bench.XXXXXX")"
  OWN_DATA_ROOT=1
else
  mkdir -p "$DATA_ROOT" || die "cannot create $DATA_ROOT"
  OWN_DATA_ROOT=0
fi
echo "persist-bench: results in $DIR, data in $DATA_ROOT"

# Build both jars before anything is timed.
"$GEN" --help >/dev/null || die "gen-benchmark does not build"
"$SERVER_CMD" --version >/dev/null || die "the server does not build"

now_ns() { date +%s%N; }
port_in_use() { ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }
cli() { redis-cli -h "$HOST" -p "$PORT" "$@"; }
info_field() { cli INFO persistence 2>/dev/null | tr -d '\r' | sed -n "s/^$1://p"; }

SERVER_PID=""
PORT=""
# start_server NAME DATA_DIR [--flag value ...]: starts a server, waits for its ready line and
# writes startup-NAME.txt (launch to ready line in ms, the ready and "loaded" lines).
start_server() {
  local name="$1" data="$2"; shift 2
  PORT=7811
  while port_in_use "$PORT"; do PORT=$((PORT + 1)); done
  local out="$DIR/server-$name.txt" t0 t1 waited=0
  t0="$(now_ns)"
  "${SERVER_PIN[@]}" "$SERVER_CMD" --port "$PORT" --bind "$HOST" --dir "$data" "$@" > "$out" 2>&1 &
  SERVER_PID=$!
  until grep -q ' ready on ' "$out" 2>/dev/null; do
    kill -0 "$SERVER_PID" 2>/dev/null || die "server $name exited; see $out"
    [[ "$waited" -ge $((SERVER_WAIT * 100)) ]] && die "server $name not ready within ${SERVER_WAIT}s"
    sleep 0.01
    waited=$((waited + 1))
  done
  t1="$(now_ns)"
  {
    echo "name=$name"
    echo "flags=$*"
    echo "launch_to_ready_ms=$(( (t1 - t0) / 1000000 ))"
    echo "ready_line=$(grep -m1 ' ready on ' "$out")"
    echo "loaded_lines:"
    grep -iE 'load(ed|ing)' "$out" || echo "(none)"
  } > "$DIR/startup-$name.txt"
}

stop_server() {
  [[ -z "$SERVER_PID" ]] && return
  cli SHUTDOWN NOSAVE >/dev/null 2>&1
  for _ in $(seq 1 300); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
  kill "$SERVER_PID" 2>/dev/null
  wait "$SERVER_PID" 2>/dev/null
  SERVER_PID=""
}
cleanup() {
  stop_server
  [[ "$OWN_DATA_ROOT" == 1 && "${KEEP_DATA:-0}" != 1 ]] && rm -rf "$DATA_ROOT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Flags as an array (the empty save schedule must reach the server as an empty argument).
flags_for() {
  case "$1" in
    off) FLAGS=(--appendonly no --save "") ;;
    everysec) FLAGS=(--appendonly yes --appendfsync everysec --save "") ;;
    always) FLAGS=(--appendonly yes --appendfsync always --save "") ;;
  esac
}

create_table() { # log file
  {
    echo "\$ CREATE TABLE message_list (id int primary key, fk int, count INT)"
    cli CREATE TABLE message_list "(id int primary key, fk int, count INT)"
    echo "\$ CREATE INDEX message_list:fk:index ON message_list (fk)"
    cli CREATE INDEX message_list:fk:index ON message_list "(fk)"
  } > "$1" 2>&1
  grep -qv '^OK$' <(grep -v '^\$' "$1") && die "CREATE failed, see $1"
  return 0
}

insert_rows() { # rows clients json txt
  { time "${CLIENT_PIN[@]}" "$GEN" -h "$HOST" -p "$PORT" -q -c "$2" -n "$1" -s -m "$MOD" -A OK --no-progress \
      --json "$3" -Q INSERT INTO message_list VALUES "(000000000001,000000000001,4)"; } > "$4" 2>&1 \
    || die "insert failed, see $4"
}

# A top-level scalar of a gen-benchmark --json file.
jget() { sed -n "s/^  \"$2\": \(.*\)$/\1/p" "$1" 2>/dev/null | sed 's/,$//; s/^"//; s/"$//' | head -1; }

{
  echo "ROWS=$ROWS"; echo "ROUNDS=$ROUNDS"; echo "MODES=\"$MODES\""; echo "MOD=$MOD"; echo "CLIENTS=$CLIENTS"
  echo "SIZES=\"$SIZES\""; echo "LOAD_CLIENTS=$LOAD_CLIENTS"; echo "BASELINE_SECONDS=$BASELINE_SECONDS"
  echo "DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "MACHINE=\"$(hostname)\""
  echo "CPU=\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')\""
  echo "NPROC=$(nproc)"; echo "MEMORY_KB=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
  echo "KERNEL=$(uname -r)"; echo "JAVA=\"$(java -version 2>&1 | head -1 | tr -d '"')\""
  echo "DATA_FILESYSTEM=\"$(df -T "$DATA_ROOT" | awk 'NR == 2 { print $1, $2 }')\""
  echo "COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "PINNING=\"$PINNING\""; echo "RESPSQL_HEAP=${RESPSQL_HEAP:-}"
} > "$DIR/run.env"

# ---- (a) write throughput per fsync mode -------------------------------------------------------
A_TSV="$DIR/a-throughput.tsv"
part a && printf 'round\tmode\tinsert_rps\tupdate_rps\tupdate_p50_ms\tupdate_p99_ms\trows_updated\taof_bytes\n' > "$A_TSV"
part a && for round in $(seq 1 "$ROUNDS"); do
  for mode in $MODES; do
    tag="r$round-$mode"
    echo "(a) round $round, $mode: $ROWS inserts, $MOD FK-range updates"
    data="$DATA_ROOT/a-$tag"; mkdir -p "$data"
    flags_for "$mode"
    start_server "a-$tag" "$data" "${FLAGS[@]}"
    create_table "$DIR/a-setup-$tag.txt"
    insert_rows "$ROWS" "$CLIENTS" "$DIR/a-insert-$tag.json" "$DIR/a-insert-$tag.txt"
    "${CLIENT_PIN[@]}" "$GEN" -h "$HOST" -p "$PORT" -c 1 -n "$MOD" -s -A INT --no-progress \
      --json "$DIR/a-update-$tag.json" -Q UPDATE message_list SET "count=7" WHERE "fk=000000000001" \
      > "$DIR/a-update-$tag.txt" 2>&1 || die "updates failed, see $DIR/a-update-$tag.txt"
    cli INFO persistence | tr -d '\r' > "$DIR/a-info-$tag.txt"
    aof_bytes="$(find "$data" -type f -name '*.aof*' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')"
    ls -l "$data" >> "$DIR/a-info-$tag.txt"
    stop_server
    rm -rf "$data"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$mode" \
      "$(jget "$DIR/a-insert-$tag.json" requests_per_second)" "$(jget "$DIR/a-update-$tag.json" requests_per_second)" \
      "$(jget "$DIR/a-update-$tag.json" p50_ms)" "$(jget "$DIR/a-update-$tag.json" p99_ms)" \
      "$(jget "$DIR/a-update-$tag.json" int_reply_sum)" "$aof_bytes" >> "$A_TSV"
  done
done

# ---- (b) BGSAVE duration and event-loop pause ----------------------------------------------------
# PING probe: one connection, PING round trips back to back until SIGTERM; prints the count, the
# percentiles and the largest round trip in microseconds, and every round trip over 1 ms.
PROBE="$DIR/ping-probe.py"
cat > "$PROBE" <<'EOF'
import signal, socket, sys, time
host, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
stop = False
def on_term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)
s = socket.create_connection((host, port))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
ping = b"*1\r\n$4\r\nPING\r\n"
lat = []
slow = []
t_start = time.perf_counter_ns()
open(out + ".ready", "w").close()
while not stop:
    t0 = time.perf_counter_ns()
    s.sendall(ping)
    buf = b""
    while not buf.endswith(b"\r\n"):
        chunk = s.recv(64)
        if not chunk:
            sys.exit("connection closed")
        buf += chunk
    dt = (time.perf_counter_ns() - t0) // 1000
    if buf != b"+PONG\r\n":
        sys.exit("unexpected reply %r" % buf)
    lat.append(dt)
    if dt > 1000:
        slow.append(((t0 - t_start) // 1000, dt))
lat.sort()
n = len(lat)
pct = lambda p: lat[min(n - 1, int(p * n))] if n else 0
with open(out, "w") as f:
    f.write("pings=%d\nseconds=%.3f\np50_us=%d\np99_us=%d\np999_us=%d\nmax_us=%d\n" % (
        n, (time.perf_counter_ns() - t_start) / 1e9, pct(0.5), pct(0.99), pct(0.999), lat[-1] if n else 0))
    f.write("over_1ms (start_offset_us latency_us):\n")
    for o, d in slow:
        f.write("%d %d\n" % (o, d))
EOF

g() { sed -n "s/^$2=//p" "$1" | head -1; }  # FILE KEY: the value of a key=value line

# probe OUT: starts the PING probe in the background (PROBE_PID) once it is connected.
probe() {
  rm -f "$1.ready"
  "${CLIENT_PIN[@]}" python3 "$PROBE" "$HOST" "$PORT" "$1" &
  PROBE_PID=$!
  for _ in $(seq 1 500); do [[ -f "$1.ready" ]] && break; sleep 0.01; done
  rm -f "$1.ready"
}

B_TSV="$DIR/b-bgsave.tsv"
part b && printf 'rows\tbgsave_ms\trdb_last_capture_usec\tping_max_us_during\tping_p99_us_during\tping_max_us_baseline\tping_p99_us_baseline\tdump_bytes\n' > "$B_TSV"
part b && for size in $SIZES; do
  echo "(b) BGSAVE at $size rows"
  data="$DATA_ROOT/b-$size"; mkdir -p "$data"
  start_server "b-$size" "$data" --appendonly no --save ""
  create_table "$DIR/b-setup-$size.txt"
  insert_rows "$size" "$LOAD_CLIENTS" "$DIR/b-insert-$size.json" "$DIR/b-insert-$size.txt"
  probe "$DIR/b-ping-baseline-$size.txt"
  sleep "$BASELINE_SECONDS"
  kill -TERM "$PROBE_PID"; wait "$PROBE_PID"
  probe "$DIR/b-ping-bgsave-$size.txt"
  t0="$(now_ns)"
  reply="$(cli BGSAVE 2>&1)"
  while [[ "$(info_field rdb_bgsave_in_progress)" != 0 ]]; do sleep 0.01; done
  t1="$(now_ns)"
  kill -TERM "$PROBE_PID"; wait "$PROBE_PID"
  {
    echo "BGSAVE reply: $reply"
    echo "bgsave_sent_to_done_ms=$(( (t1 - t0) / 1000000 ))"
    cli INFO persistence | tr -d '\r'
    ls -l "$data"
  } > "$DIR/b-bgsave-$size.txt"
  [[ "$(info_field rdb_last_bgsave_status)" == ok ]] || die "BGSAVE at $size rows failed, see $DIR/b-bgsave-$size.txt"
  stop_server
  dump_bytes="$(find "$data" -type f -name '*.rsql' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$(g "$DIR/b-bgsave-$size.txt" bgsave_sent_to_done_ms)" \
    "$(sed -n 's/^rdb_last_capture_usec://p' "$DIR/b-bgsave-$size.txt")" \
    "$(g "$DIR/b-ping-bgsave-$size.txt" max_us)" "$(g "$DIR/b-ping-bgsave-$size.txt" p99_us)" \
    "$(g "$DIR/b-ping-baseline-$size.txt" max_us)" "$(g "$DIR/b-ping-baseline-$size.txt" p99_us)" \
    "$dump_bytes" >> "$B_TSV"
  [[ "$size" == "$LARGEST" ]] || rm -rf "$data"
done

# ---- (c) startup at the largest size ------------------------------------------------------------
C_TSV="$DIR/c-startup.tsv"
part c && printf 'source\trows\tfile_bytes\tlaunch_to_ready_ms\tserver_loaded_line\n' > "$C_TSV"
count_check() { # name
  local got
  got="$(cli SELECT "COUNT(*)" FROM message_list 2>&1 | tr -d '\r')"
  echo "SELECT COUNT(*) FROM message_list -> $got (expected $LARGEST)" >> "$DIR/startup-$1.txt"
  [[ "$got" == "$LARGEST" ]] || die "$1: $got rows after loading, expected $LARGEST"
}
c_row() { # name source bytes
  printf '%s\t%s\t%s\t%s\t%s\n' "$2" "$LARGEST" "$3" "$(sed -n 's/^launch_to_ready_ms=//p' "$DIR/startup-$1.txt")" \
    "$(grep -iE 'loaded' "$DIR/server-$1.txt" | head -1 | sed 's/^.*\] //')" >> "$C_TSV"
}

run_c() {
  echo "(c) startup from the snapshot of $LARGEST rows"
  data="$DATA_ROOT/b-$LARGEST"
  start_server "c-snapshot" "$data" --appendonly no --save ""
  count_check c-snapshot
  stop_server
  c_row c-snapshot snapshot "$(find "$data" -type f -name '*.rsql' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')"
  rm -rf "$data"

  echo "(c) startup from an append-only file of $LARGEST inserts"
  data="$DATA_ROOT/c-aof"; mkdir -p "$data"
  start_server "c-aof-write" "$data" --appendonly yes --appendfsync everysec --save ""
  create_table "$DIR/c-setup-aof.txt"
  insert_rows "$LARGEST" "$LOAD_CLIENTS" "$DIR/c-insert-aof.json" "$DIR/c-insert-aof.txt"
  stop_server
  aof_size() { find "$data" -type f -name '*.aof*' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }
  start_server "c-aof" "$data" --appendonly yes --appendfsync everysec --save ""
  count_check c-aof
  c_row c-aof aof "$(aof_size)"
  reply="$(cli BGREWRITEAOF 2>&1)"
  while [[ "$(info_field aof_rewrite_in_progress)" != 0 ]]; do sleep 0.01; done
  { echo "BGREWRITEAOF reply: $reply"; cli INFO persistence | tr -d '\r'; } > "$DIR/c-rewrite.txt"
  stop_server
  start_server "c-aof-rewritten" "$data" --appendonly yes --appendfsync everysec --save ""
  count_check c-aof-rewritten
  stop_server
  c_row c-aof-rewritten aof-after-rewrite "$(aof_size)"
  rm -rf "$data"
}
part c && run_c

# ---- summary -------------------------------------------------------------------------------------
{
  echo "Persistence benchmark ($(basename "$DIR")), $PINNING"
  echo
  part a && echo "(a) $ROWS inserts ($CLIENTS clients) and $MOD FK-range updates (~$((ROWS / MOD)) rows each, 1 client); median of $ROUNDS rounds [all rounds]"
  part a && awk -F'\t' '
    NR == 1 { next }
    !($2 in seen) { seen[$2] = 1; modes[++nm] = $2 }
    { ins[$2] = ins[$2] " " $3; upd[$2] = upd[$2] " " $4; p99[$2] = p99[$2] " " $6; rounds[$2] = rounds[$2] sprintf(" %.0f/%.1f", $3, $4) }
    function med(list,   a, k, i, j, t) {
      k = split(list, a, " ")
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
      return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
    }
    END {
      printf "%-10s %14s %14s %14s   %s\n", "appendfsync", "insert/s", "update/s", "update p99 ms", "insert/s / update/s per round"
      for (i = 1; i <= nm; i++) {
        m = modes[i]
        printf "%-10s %14.0f %14.2f %14.3f  %s\n", m, med(ins[m]), med(upd[m]), med(p99[m]), rounds[m]
      }
    }' "$A_TSV"
  part b && echo && echo "(b) BGSAVE (PING probe on one connection throughout; baseline: same probe without BGSAVE)"
  part b && awk -F'\t' 'NR == 1 { printf "%12s %11s %12s %16s %16s %16s %12s\n", "rows", "bgsave ms", "capture us", "PING max us", "PING p99 us", "baseline max us", "dump MB"; next }
    { printf "%12s %11s %12s %16s %16s %16s %12.1f\n", $1, $2, ($3 == "" ? "-" : $3), $4, $5, $6, $8 / 1048576 }' "$B_TSV"
  part c && echo && echo "(c) startup at $LARGEST rows (launch of the JVM to its ready line)"
  part c && awk -F'\t' 'NR == 1 { printf "%-18s %12s %16s   %s\n", "from", "file MB", "to ready ms", "server says"; next }
    { printf "%-18s %12.1f %16s   %s\n", $1, $3 / 1048576, $4, $5 }' "$C_TSV"
} > "$DIR/summary.txt"
echo
cat "$DIR/summary.txt"
