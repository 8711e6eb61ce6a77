#!/usr/bin/env bash
# Wire-path throughput against Redis, side by side:
#
#   scripts/wire-bench.sh NAME=server.jar [NAME=server.jar ...]
#
# e.g. scripts/wire-bench.sh before=/tmp/before.jar after=server/target/respsql-server-0.1.0-SNAPSHOT-all.jar
#
# Each round starts, one after the other and in a rotated order, a Debian redis-server 7 and every
# RespSQL jar given, each pinned to core 0 on a free port with a temporary dir and no persistence,
# and runs redis-benchmark pinned to core 1 against it:
#   ping       PING, 50 clients
#   ping-p16   PING, 50 clients, pipeline 16
#   point-read RespSQL: SELECT v FROM kv WHERE id = __rand_int__ (table of KEYS rows)
#              Redis:   GET key:__rand_int__                     (KEYS keys)
#              50 clients, -r KEYS
# after a warm-up of the same workloads that is not counted (the JIT compiles RespSQL's path).
# It prints every redis-benchmark result, then per workload and jar the ratio jar/Redis of each
# round and their median, for requests per second and for the server's CPU time per request
# (utime+stime from /proc, which the machine's other load disturbs less than the rate does).
# Raw output and the summary go to OUT/<stamp>/.
#
# Env: ROUNDS (3), N_PING (400000), N_PIPE (3000000), N_READ (400000), KEYS (100000),
#      OUT (bench/wire-path), RESPSQL_HEAP (1g).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-3}"
N_PING="${N_PING:-400000}"
N_PIPE="${N_PIPE:-3000000}"
N_READ="${N_READ:-400000}"
KEYS="${KEYS:-100000}"
HEAP="${RESPSQL_HEAP:-1g}"
OUT="$(realpath -m "${OUT:-$ROOT/bench/wire-path}")"

if [[ $# -lt 1 ]]; then
  sed -n '2,21p' "$0" >&2
  exit 2
fi
for tool in redis-server redis-benchmark redis-cli taskset java python3; do
  command -v "$tool" >/dev/null || { echo "wire-bench: $tool not found (apt-get install redis-server redis-tools)" >&2; exit 1; }
done
NAMES=(redis)
declare -A JAR
for spec in "$@"; do
  name="${spec%%=*}"; jar="${spec#*=}"
  [[ -f "$jar" ]] || { echo "wire-bench: $jar not found" >&2; exit 1; }
  NAMES+=("$name"); JAR[$name]="$(realpath "$jar")"
done

STAMP="$(date -u +%Y%m%d-%H%M%S)"
DIR="$OUT/$STAMP"
mkdir -p "$DIR"
RAW="$DIR/raw.txt"
RESULTS="$DIR/results.tsv"
TMP="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "redis: $(redis-server --version)"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
  for n in "${NAMES[@]:1}"; do echo "jar $n: ${JAR[$n]} ($(sha256sum "${JAR[$n]}" | cut -c1-12))"; done
  echo "rounds $ROUNDS, PING -n $N_PING, PING -P 16 -n $N_PIPE, point reads -n $N_READ -r $KEYS"
  echo "servers: taskset -c 0; redis-benchmark: taskset -c 1; RespSQL -Xmx$HEAP"
} | tee "$DIR/env.txt"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Starts server $1 on a free port (sets PORT, SERVER_PID) and loads the point-read data.
start_server() {
  local name="$1" dir="$TMP/$1"
  rm -rf "$dir"; mkdir -p "$dir"
  PORT="$(free_port)"
  if [[ "$name" == redis ]]; then
    taskset -c 0 redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" \
      >"$dir/server.log" 2>&1 &
  else
    taskset -c 0 java -Xmx"$HEAP" -jar "${JAR[$name]}" --port "$PORT" --bind 127.0.0.1 --dir "$dir" --save "" \
      >"$dir/server.log" 2>&1 &
  fi
  SERVER_PID=$!
  # Await readiness: the server answers PING (it binds only once its data is loaded).
  until redis-cli -p "$PORT" PING 2>/dev/null | grep -q PONG; do
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "wire-bench: $name did not start:" >&2; cat "$dir/server.log" >&2; exit 1; }
    sleep 0.1
  done
  if [[ "$name" == redis ]]; then
    # redis-benchmark's __rand_int__ is 12 digits, zero padded.
    python3 -c "
import sys
w = sys.stdout.write
for i in range($KEYS):
    k = 'key:%012d' % i
    w('*3\r\n\$3\r\nSET\r\n\$%d\r\n%s\r\n\$%d\r\n%d\r\n' % (len(k), k, len(str(i)), i))
" | redis-cli -p "$PORT" --pipe >/dev/null
  else
    redis-cli -p "$PORT" CREATE TABLE kv "(id int primary key, v int)" >/dev/null
    python3 -c "
for b in range(0, $KEYS, 10000):
    print('SQL \"INSERT INTO kv VALUES ' + ','.join('(%d,%d)' % (i, i) for i in range(b, min(b + 10000, $KEYS))) + '\"')
" | redis-cli -p "$PORT" >/dev/null
    [[ "$(redis-cli -p "$PORT" SELECT 'COUNT(*)' FROM kv)" == "$KEYS" ]] || { echo "wire-bench: $name: kv not loaded" >&2; exit 1; }
  fi
}

stop_server() {
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

server_cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat"; }
# CPU of the thread that serves requests (Redis's main thread, RespSQL's event loop): without
# RespSQL's JIT compiler and GC threads, which share core 0 with it.
loop_cpu_ticks() {
  local t
  for t in /proc/"$SERVER_PID"/task/*; do
    if [[ "$t" == */"$SERVER_PID" && -z "${JAR[$1]:-}" ]] || grep -q '^respsql-loop' "$t/comm" 2>/dev/null; then
      awk '{print $14 + $15}' "$t/stat"; return
    fi
  done
  echo 0
}
TICKS_PER_S="$(getconf CLK_TCK)"

# Runs one workload against the server on $PORT; prints requests/s and the server's CPU microseconds per request.
bench() {
  local name="$1" workload="$2" n="$3" args=()
  case "$workload" in
    ping) args=(-c 50 -n "$n" PING) ;;
    ping-p16) args=(-c 50 -n "$n" -P 16 PING) ;;
    point-read)
      if [[ "$name" == redis ]]; then args=(-c 50 -n "$n" -r "$KEYS" GET key:__rand_int__)
      else args=(-c 50 -n "$n" -r "$KEYS" SELECT v FROM kv WHERE id = __rand_int__); fi ;;
  esac
  local out c0 c1 l0 l1
  c0="$(server_cpu_ticks)"; l0="$(loop_cpu_ticks "$name")"
  out="$(taskset -c 1 redis-benchmark -p "$PORT" --csv "${args[@]}" 2>&1)"
  c1="$(server_cpu_ticks)"; l1="$(loop_cpu_ticks "$name")"
  echo "### $name $workload: redis-benchmark ${args[*]} (CPU ticks at $TICKS_PER_S/s: process $c0 -> $c1, serving thread $l0 -> $l1)" >>"$RAW"
  echo "$out" >>"$RAW"
  printf '%s\t%s\t%s\n' "$(echo "$out" | tail -1 | cut -d, -f2 | tr -d '"')" \
    "$(python3 -c "print(f'{($c1 - $c0) * 1e6 / $TICKS_PER_S / $n:.3f}')")" \
    "$(python3 -c "print(f'{($l1 - $l0) * 1e6 / $TICKS_PER_S / $n:.3f}')")"
}

WORKLOADS=(ping ping-p16 point-read)
printf 'round\tserver\tworkload\trps\tcpu_us\tloop_cpu_us\n' >"$RESULTS"
for ((round = 1; round <= ROUNDS; round++)); do
  # Rotate the order so that drift in the machine's load hits every server alike.
  order=()
  for ((k = 0; k < ${#NAMES[@]}; k++)); do order+=("${NAMES[$(((k + round - 1) % ${#NAMES[@]}))]}"); done
  for name in "${order[@]}"; do
    start_server "$name"
    # Warm-up, not counted.
    bench "$name" ping $((N_PING / 4)) >/dev/null
    bench "$name" ping-p16 $((N_PIPE / 4)) >/dev/null
    bench "$name" point-read $((N_READ / 4)) >/dev/null
    for w in "${WORKLOADS[@]}"; do
      result="$(bench "$name" "$w" "$(case $w in ping) echo "$N_PING";; ping-p16) echo "$N_PIPE";; *) echo "$N_READ";; esac)")"
      printf '%s\t%s\t%s\t%s\n' "$round" "$name" "$w" "$result" | tee -a "$RESULTS"
    done
    stop_server
  done
done

python3 - "$RESULTS" "${NAMES[@]}" <<'EOF' | tee "$DIR/summary.txt"
import csv, sys, statistics
path, names = sys.argv[1], sys.argv[2:]
rows = list(csv.DictReader(open(path), delimiter='\t'))
rps = {(r['round'], r['server'], r['workload']): float(r['rps']) for r in rows}
cpu = {(r['round'], r['server'], r['workload']): float(r['cpu_us']) for r in rows}
loop = {(r['round'], r['server'], r['workload']): float(r['loop_cpu_us']) for r in rows}
rounds = sorted({r['round'] for r in rows}, key=int)

def ratios(table, a, b, w):
    return [table[(r, a, w)] / table[(r, b, w)] if table[(r, b, w)] else float('nan') for r in rounds]

for w in ['ping', 'ping-p16', 'point-read']:
    print(f"{w}: requests/s per round " + "; ".join(
        f"{n} " + " ".join(f"{rps[(r, n, w)]:.0f}" for r in rounds) for n in names))
    print(f"{w}: server CPU us/request per round " + "; ".join(
        f"{n} " + " ".join(f"{cpu[(r, n, w)]:.3f}" for r in rounds) for n in names))
    print(f"{w}: serving thread CPU us/request per round " + "; ".join(
        f"{n} " + " ".join(f"{loop[(r, n, w)]:.3f}" for r in rounds) for n in names))
    pairs = [(n, 'redis') for n in names[1:]] + [(n, names[1]) for n in names[2:]]
    for a, b in pairs:
        x = ratios(rps, a, b, w)
        y = ratios(cpu, a, b, w)
        z = ratios(loop, a, b, w)
        print(f"  {a}/{b} rate per round: " + " ".join(f"{v:.3f}" for v in x)
              + f"  median {statistics.median(x):.3f}"
              + f" | process CPU per request: " + " ".join(f"{v:.3f}" for v in y)
              + f"  median {statistics.median(y):.3f}"
              + f" | serving thread CPU per request: " + " ".join(f"{v:.3f}" for v in z)
              + f"  median {statistics.median(z):.3f}")
EOF
echo "raw output: $DIR"
