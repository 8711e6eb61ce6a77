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
source "$ROOT/scripts/lib/bench-common.sh"
BENCH=wire-bench
bench_require_tools redis-server redis-benchmark redis-cli taskset java python3
NAMES=(redis)
declare -A JAR
for spec in "$@"; do
  name="${spec%%=*}"; jar="${spec#*=}"
  [[ -f "$jar" ]] || bench_die "$jar not found"
  NAMES+=("$name"); JAR[$name]="$(realpath "$jar")"
done

bench_setup "$OUT"
{
  bench_env_header
  for n in "${NAMES[@]:1}"; do echo "jar $n: ${JAR[$n]} ($(sha256sum "${JAR[$n]}" | cut -c1-12))"; done
  echo "rounds $ROUNDS, PING -n $N_PING, PING -P 16 -n $N_PIPE, point reads -n $N_READ -r $KEYS"
  echo "servers: ${PIN_SERVER[*]:-unpinned}; redis-benchmark: ${PIN_CLIENT[*]:-unpinned}; RespSQL -Xmx$HEAP"
} | tee "$DIR/env.txt"

# Runs one workload against the server on $PORT; prints requests/s and the server's CPU microseconds per request.
bench() {
  local name="$1" workload="$2" n="$3"
  case "$workload" in
    ping) bench_redis_benchmark "$name" "$workload" "$n" -c 50 PING ;;
    ping-p16) bench_redis_benchmark "$name" "$workload" "$n" -c 50 -P 16 PING ;;
    point-read)
      if [[ "$name" == redis ]]; then bench_redis_benchmark "$name" "$workload" "$n" -c 50 -r "$KEYS" GET key:__rand_int__
      else bench_redis_benchmark "$name" "$workload" "$n" -c 50 -r "$KEYS" SELECT v FROM kv WHERE id = __rand_int__; fi ;;
  esac
}

WORKLOADS=(ping ping-p16 point-read)
printf 'round\tserver\tworkload\trps\tcpu_us\tloop_cpu_us\n' >"$RESULTS"
for ((round = 1; round <= ROUNDS; round++)); do
  bench_rotate "$round" "${NAMES[@]}"
  for name in "${ORDER[@]}"; do
    if [[ "$name" == redis ]]; then bench_start redis redis; else bench_start respsql "$name" "${JAR[$name]}"; fi
    bench_load_kv "$KEYS"
    # Warm-up, not counted.
    bench "$name" ping $((N_PING / 4)) >/dev/null
    bench "$name" ping-p16 $((N_PIPE / 4)) >/dev/null
    bench "$name" point-read $((N_READ / 4)) >/dev/null
    for w in "${WORKLOADS[@]}"; do
      result="$(bench "$name" "$w" "$(case $w in ping) echo "$N_PING";; ping-p16) echo "$N_PIPE";; *) echo "$N_READ";; esac)")"
      printf '%s\t%s\t%s\t%s\n' "$round" "$name" "$w" "$result" | tee -a "$RESULTS"
    done
    bench_stop
  done
done

python3 "$ROOT/scripts/lib/bench-summary.py" "$RESULTS" "${NAMES[@]}" | tee "$DIR/summary.txt"
echo "raw output: $DIR"
