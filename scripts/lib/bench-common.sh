# Shared machinery of the side-by-side benchmarks against Redis (scripts/wire-bench.sh,
# scripts/vs-redis.sh); sourced, not run. It starts one server at a time (a Debian redis-server
# or a RespSQL jar) pinned to core 0 on a free port with a temporary dir and no persistence,
# runs clients pinned to core 1, and reads the server's CPU time from /proc.
#
# The caller sets BENCH (its name, for messages) and HEAP (RespSQL's -Xmx), calls bench_setup,
# and then uses PORT, SERVER_PID, SERVER_KIND (redis|respsql), DIR (the run's output dir),
# RAW (every tool output), RESULTS (the per-run figures) and TMP (removed on exit).

# Servers on core 0, clients on core 1; no pinning on a single core.
if (($(nproc) >= 2)); then PIN_SERVER=(taskset -c 0); PIN_CLIENT=(taskset -c 1); else PIN_SERVER=(); PIN_CLIENT=(); fi
TICKS_PER_S="$(getconf CLK_TCK)"
SERVER_PID=""
SERVER_KIND=""

bench_die() { echo "$BENCH: $*" >&2; exit 1; }

bench_require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || bench_die "$tool not found (apt-get install redis-server redis-tools)"
  done
}

# Creates OUT/<stamp>/ (sets STAMP, DIR, RAW, RESULTS) and TMP; stops the server and removes TMP on exit.
bench_setup() {
  local out="$1"
  STAMP="$(date -u +%Y%m%d-%H%M%S)"
  DIR="$out/$STAMP"
  mkdir -p "$DIR"
  RAW="$DIR/raw.txt"
  RESULTS="$DIR/results.tsv"
  TMP="$(mktemp -d)"
  trap bench_cleanup EXIT
}

bench_cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}

# The lines of env.txt every run shares (the caller adds its own request counts).
bench_env_header() {
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "redis: $(redis-server --version)"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
}

bench_free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# bench_rotate (the order of a round): scripts/lib/ab-jars.sh, shared with the scripts that run no Redis.
source "$(dirname "${BASH_SOURCE[0]}")/ab-jars.sh"

# Starts a server: bench_start redis NAME, or bench_start respsql NAME JAR. Sets PORT, SERVER_PID,
# SERVER_KIND and returns once it answers PING.
bench_start() {
  local kind="$1" name="$2" jar="${3:-}" dir="$TMP/$2"
  rm -rf "$dir"; mkdir -p "$dir"
  PORT="$(bench_free_port)"
  SERVER_KIND="$kind"
  if [[ "$kind" == redis ]]; then
    "${PIN_SERVER[@]}" redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" \
      >"$dir/server.log" 2>&1 &
  else
    "${PIN_SERVER[@]}" java -Xmx"$HEAP" -jar "$jar" --port "$PORT" --bind 127.0.0.1 --dir "$dir" --save "" \
      >"$dir/server.log" 2>&1 &
  fi
  SERVER_PID=$!
  # Await readiness: the server answers PING (it binds only once its data is loaded).
  until redis-cli -p "$PORT" PING 2>/dev/null | grep -q PONG; do
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$dir/server.log" >&2; bench_die "$name did not start"; }
    sleep 0.1
  done
}

bench_stop() {
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

# Loads the point-read data: Redis keys key:<12 digits> = i, or table kv (id int primary key, v int)
# with v = id, for i in 0..KEYS-1 (redis-benchmark's __rand_int__ is 12 digits, zero padded).
bench_load_kv() {
  local keys="$1"
  if [[ "$SERVER_KIND" == redis ]]; then
    python3 -c "
import sys
w = sys.stdout.write
for i in range($keys):
    k = 'key:%012d' % i
    w('*3\r\n\$3\r\nSET\r\n\$%d\r\n%s\r\n\$%d\r\n%d\r\n' % (len(k), k, len(str(i)), i))
" | redis-cli -p "$PORT" --pipe >/dev/null
  else
    redis-cli -p "$PORT" CREATE TABLE kv "(id int primary key, v int)" >/dev/null
    python3 -c "
for b in range(0, $keys, 10000):
    print('SQL \"INSERT INTO kv VALUES ' + ','.join('(%d,%d)' % (i, i) for i in range(b, min(b + 10000, $keys))) + '\"')
" | redis-cli -p "$PORT" >/dev/null
    [[ "$(redis-cli -p "$PORT" SELECT 'COUNT(*)' FROM kv)" == "$keys" ]] || bench_die "kv not loaded"
  fi
}

bench_server_cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat"; }

# CPU of the thread that serves requests (Redis's main thread, RespSQL's event loop): without
# RespSQL's JIT compiler and GC threads, which share core 0 with it.
bench_loop_cpu_ticks() {
  local t
  for t in /proc/"$SERVER_PID"/task/*; do
    if [[ "$t" == */"$SERVER_PID" && "$SERVER_KIND" == redis ]] || grep -q '^respsql-loop' "$t/comm" 2>/dev/null; then
      awk '{print $14 + $15}' "$t/stat"; return
    fi
  done
  echo 0
}

# Around a measured client run: bench_cpu_begin; <client>; bench_cpu_end N prints the header
# fragment for RAW in CPU_NOTE and the two CPU columns (process, serving thread; µs per request)
# in CPU_COLS.
bench_cpu_begin() { CPU_C0="$(bench_server_cpu_ticks)"; CPU_L0="$(bench_loop_cpu_ticks)"; }
bench_cpu_end() {
  local n="$1" c1 l1
  c1="$(bench_server_cpu_ticks)"; l1="$(bench_loop_cpu_ticks)"
  CPU_NOTE="CPU ticks at $TICKS_PER_S/s: process $CPU_C0 -> $c1, serving thread $CPU_L0 -> $l1"
  CPU_COLS="$(python3 -c "print(f'{($c1 - $CPU_C0) * 1e6 / $TICKS_PER_S / $n:.3f}\t{($l1 - $CPU_L0) * 1e6 / $TICKS_PER_S / $n:.3f}')")"
}

# Runs redis-benchmark on core 1 against PORT: bench_redis_benchmark NAME WORKLOAD N ARGS...
# (ARGS without -n). Appends its output to RAW; prints requests/s, process and serving thread CPU
# µs per request, tab-separated. An error reply stops the run.
bench_redis_benchmark() {
  local name="$1" workload="$2" n="$3" out rps; shift 3
  bench_cpu_begin
  out="$("${PIN_CLIENT[@]}" redis-benchmark -p "$PORT" --csv -n "$n" "$@" 2>&1)"
  bench_cpu_end "$n"
  {
    echo "### $name $workload: redis-benchmark -n $n $* ($CPU_NOTE)"
    echo "$out"
  } >>"$RAW"
  if grep -q '^Error from server' <<<"$out"; then bench_die "$name $workload: $(grep -m1 '^Error from server' <<<"$out")"; fi
  rps="$(python3 -c 'import csv, sys; rows = [r for r in csv.reader(sys.stdin) if len(r) > 1 and r[0] != "test"]; print(rows[-1][1] if rows else "")' <<<"$out")"
  [[ -n "$rps" ]] || bench_die "$name $workload: no result from redis-benchmark (see $RAW)"
  printf '%s\t%s\n' "$rps" "$CPU_COLS"
}
