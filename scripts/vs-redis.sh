#!/usr/bin/env bash
# RespSQL against Redis 7, the table of issue 13 in one run:
#
#   scripts/vs-redis.sh [NAME=server.jar ...]
#
# Without arguments it measures respsql=<the jar of scripts/respsql-server, built when missing or
# stale>; with NAME=jar arguments it measures each of them (e.g. before=... after=...) and adds
# the ratios of the later ones to the first (after/before).
#
# Each round starts, one after the other and in a rotated order, a Debian redis-server 7 and every
# RespSQL jar, each pinned to core 0 on a free port with a temporary --dir and no persistence
# (--save "", appendonly no), loads KEYS rows / keys, warms every workload up with a quarter of
# its requests (not counted, and into tables / keys of their own), then measures, with the client
# pinned to core 1:
#   ping         PING, 50 clients                                       (redis-benchmark)
#   ping-p16     PING, 50 clients, pipeline 16                          (redis-benchmark)
#   point-read   SELECT v FROM kv WHERE id = __rand_int__ / GET key:__rand_int__, 50 clients, -r KEYS
#   update       UPDATE kv SET v = v + 1 WHERE id = __rand_int__ / INCR key:__rand_int__, 50 clients
#   update-p16   the same, pipeline 16
#   insert-pipe  N_INSERT single-row INSERT INTO t VALUES (i,i,'x') (t has a primary key) /
#                N_INSERT HSET h:i f1 i f2 x, each a generated RESP file sent by redis-cli --pipe;
#                rate = requests / wall time of redis-cli
#   insert-2010  200 clients, one request in flight each (scripts/gen-benchmark -c 200 -s -m 100):
#                INSERT INTO message_list VALUES (n,n%100,4) (primary key and fk index) /
#                SET key_<n> 4
# After each server it checks the data (SUM of kv / of the key:* values against the updates sent,
# row and key counts) and stops on a wrong answer or an error reply.
#
# Printed, and written to OUT/<stamp>/ (env.txt, raw.txt with every tool output, results.tsv,
# checks.txt, summary.txt): per workload and round the requests per second and the server's CPU
# time per request (utime+stime from /proc, of the process and of its serving thread), and the
# ratios RespSQL/Redis of each round with their median, ending with the table. How to read it:
# bench/vs-redis/README.md.
#
# Env: ROUNDS (3), KEYS (100000), N_PING (400000), N_PIPE (2000000), N_READ (400000),
#      N_UPDATE (400000), N_UPDATE_PIPE (1000000), N_INSERT (1000000), N_2010 (400000),
#      GEN_WARMUP (2000: gen-benchmark's untimed PINGs), OUT (bench/vs-redis), RESPSQL_HEAP (2g),
#      WORKLOADS (all: "ping ping-p16 point-read update update-p16 insert-pipe insert-2010"; a
#      subset, e.g. WORKLOADS="ping-p16 update-p16", runs only those, the others' counts taken as 0).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-3}"
KEYS="${KEYS:-100000}"
N_PING="${N_PING:-400000}"
N_PIPE="${N_PIPE:-2000000}"
N_READ="${N_READ:-400000}"
N_UPDATE="${N_UPDATE:-400000}"
N_UPDATE_PIPE="${N_UPDATE_PIPE:-1000000}"
N_INSERT="${N_INSERT:-1000000}"
N_2010="${N_2010:-400000}"
# gen-benchmark's untimed PINGs (at least one per connection): the server's CPU count includes
# them, so they are kept few.
GEN_WARMUP="${GEN_WARMUP:-2000}"
HEAP="${RESPSQL_HEAP:-2g}"
ALL_WORKLOADS=(ping ping-p16 point-read update update-p16 insert-pipe insert-2010)
read -r -a WORKLOADS <<<"${WORKLOADS:-${ALL_WORKLOADS[*]}}"
# A workload left out sends nothing: its count is 0, so the data check expects none of its requests.
declare -A VAR_OF=([ping]=N_PING [ping-p16]=N_PIPE [point-read]=N_READ [update]=N_UPDATE
  [update-p16]=N_UPDATE_PIPE [insert-pipe]=N_INSERT [insert-2010]=N_2010)
for w in "${WORKLOADS[@]}"; do
  [[ -n "${VAR_OF[$w]:-}" ]] || { echo "vs-redis: unknown workload $w (known: ${ALL_WORKLOADS[*]})" >&2; exit 2; }
done
for w in "${ALL_WORKLOADS[@]}"; do
  [[ " ${WORKLOADS[*]} " == *" $w "* ]] || printf -v "${VAR_OF[$w]}" 0
done
OUT="$(realpath -m "${OUT:-$ROOT/bench/vs-redis}")"
GEN="$ROOT/scripts/gen-benchmark"

case "${1:-}" in -h | --help) sed -n '2,39p' "$0"; exit 0 ;; esac
source "$ROOT/scripts/lib/bench-common.sh"
BENCH=vs-redis
bench_require_tools redis-server redis-benchmark redis-cli java python3
(($(nproc) < 2)) || bench_require_tools taskset

# redis-benchmark sends a pipelined batch while fewer than -n requests are issued: with -n a
# multiple of 16 it sends exactly -n, which the UPDATE check counts on.
N_UPDATE_PIPE=$(((N_UPDATE_PIPE + 15) / 16 * 16))
warm() { echo $(($1 / 4)); }
warm16() { echo $(($1 / 4 / 16 * 16)); }

NAMES=(redis)
declare -A JAR
if [[ $# -eq 0 ]]; then
  # scripts/respsql-server builds the jar when it is missing or older than the sources.
  "$ROOT/scripts/respsql-server" --version >/dev/null || bench_die "scripts/respsql-server could not build the server"
  version="$(sed -n 's:^  <version>\(.*\)</version>.*:\1:p' "$ROOT/pom.xml" | head -n 1)"
  set -- "respsql=$ROOT/server/target/respsql-server-${version}-all.jar"
fi
ab_parse_jars redis -- "$@" || bench_die "bad arguments"
NAMES+=("${AB_NAMES[@]}")
for name in "${AB_NAMES[@]}"; do JAR[$name]="${AB_JAR[$name]}"; done
# The 2010 client: built now (when missing or stale) rather than inside a measurement.
"$GEN" --help >/dev/null || bench_die "scripts/gen-benchmark could not be built"

bench_setup "$OUT"
CHECKS="$DIR/checks.txt"
{
  bench_env_header
  ab_jar_lines
  echo "rounds $ROUNDS; KEYS $KEYS; requests: PING $N_PING, PING -P 16 $N_PIPE, point reads $N_READ," \
    "UPDATE/INCR $N_UPDATE, UPDATE/INCR -P 16 $N_UPDATE_PIPE, --pipe INSERT/HSET $N_INSERT, gen-benchmark INSERT/SET $N_2010;" \
    "warm-ups a quarter of each"
  echo "servers: ${PIN_SERVER[*]:-unpinned}; clients: ${PIN_CLIENT[*]:-unpinned}; RespSQL -Xmx$HEAP"
} | tee "$DIR/env.txt"

# The redis-cli --pipe inputs, generated once: RESP arrays, one request each.
echo "generating the --pipe inputs ($N_INSERT + $(warm "$N_INSERT") requests each) ..."
python3 - "$TMP" "$N_INSERT" "$(warm "$N_INSERT")" <<'EOF'
import sys
tmp, n, w = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def resp(words):
    return '*%d\r\n' % len(words) + ''.join('$%d\r\n%s\r\n' % (len(x), x) for x in words)

def write(path, first, count, make):
    with open(path, 'w', newline='') as f:
        for i in range(first, first + count):
            f.write(resp(make(i)))

write(f'{tmp}/insert-respsql.resp', 0, n, lambda i: ['INSERT', 'INTO', 't', 'VALUES', "(%d,%d,'x')" % (i, i)])
write(f'{tmp}/insert-respsql-warm.resp', 0, w, lambda i: ['INSERT', 'INTO', 'tw', 'VALUES', "(%d,%d,'x')" % (i, i)])
write(f'{tmp}/insert-redis.resp', 0, n, lambda i: ['HSET', 'h:%d' % i, 'f1', str(i), 'f2', 'x'])
write(f'{tmp}/insert-redis-warm.resp', 0, w, lambda i: ['HSET', 'hw:%d' % i, 'f1', str(i), 'f2', 'x'])
EOF

# Creates what the write workloads need beyond kv (RespSQL: the tables; Redis: nothing).
create_tables() {
  [[ "$SERVER_KIND" == redis ]] && return
  local t
  for t in t tw; do
    redis-cli -p "$PORT" CREATE TABLE "$t" "(id int primary key, n int, s text)" | grep -qx OK || bench_die "CREATE TABLE $t failed"
  done
  for t in message_list message_warm; do
    redis-cli -p "$PORT" CREATE TABLE "$t" "(id int primary key, fk int, count INT)" | grep -qx OK || bench_die "CREATE TABLE $t failed"
    redis-cli -p "$PORT" CREATE INDEX "$t:fk:index" ON "$t" "(fk)" | grep -qx OK || bench_die "CREATE INDEX on $t failed"
  done
}

# redis-cli --pipe of a generated file: prints requests/s (by redis-cli's wall time) and CPU columns.
bench_pipe() {
  local name="$1" workload="$2" file="$3" n="$4" out t0 t1
  bench_cpu_begin
  t0="$(date +%s%N)"
  out="$("${PIN_CLIENT[@]}" redis-cli -p "$PORT" --pipe <"$file" 2>&1)" || true
  t1="$(date +%s%N)"
  bench_cpu_end "$n"
  {
    echo "### $name $workload: redis-cli --pipe < $(basename "$file") ($n requests; $CPU_NOTE)"
    echo "$out"
    echo "wall time: $(((t1 - t0) / 1000000)) ms"
  } >>"$RAW"
  grep -q "^errors: 0, replies: $n\$" <<<"$out" || bench_die "$name $workload: expected 'errors: 0, replies: $n' from redis-cli --pipe, got: $(tail -1 <<<"$out")"
  printf '%s\t%s\n' "$(python3 -c "print(f'{$n / (($t1 - $t0) / 1e9):.2f}')")" "$CPU_COLS"
}

# gen-benchmark, 200 clients, one request in flight each, sequential keys 1..n: prints requests/s and CPU columns.
bench_gen() {
  local name="$1" workload="$2" n="$3" target="$4" request out rps
  if [[ "$SERVER_KIND" == redis ]]; then request=(SET "${target}_000000000001" 4)
  else request=(INSERT INTO "$target" VALUES "(000000000001,000000000001,4)"); fi
  bench_cpu_begin
  out="$("${PIN_CLIENT[@]}" "$GEN" --no-progress --warmup "$GEN_WARMUP" -p "$PORT" -c 200 -n "$n" -s -m 100 -A OK -Q "${request[@]}" 2>&1)" \
    || { echo "$out" >>"$RAW"; bench_die "$name $workload: gen-benchmark failed: $(grep -m1 -i 'error' <<<"$out")"; }
  bench_cpu_end "$n"
  {
    echo "### $name $workload: gen-benchmark --warmup $GEN_WARMUP -c 200 -n $n -s -m 100 -A OK -Q ${request[*]} ($CPU_NOTE)"
    echo "$out"
  } >>"$RAW"
  rps="$(awk '/requests per second/ {print $1; exit}' <<<"$out")"
  [[ -n "$rps" ]] || bench_die "$name $workload: no result from gen-benchmark (see $RAW)"
  printf '%s\t%s\n' "$rps" "$CPU_COLS"
}

# One workload: bench NAME WORKLOAD N [warm]; a warm-up writes into tables / keys of its own.
bench() {
  local name="$1" workload="$2" n="$3" phase="${4:-}" redis=""
  [[ "$SERVER_KIND" == redis ]] && redis=1
  case "$workload" in
    ping) bench_redis_benchmark "$name" "$workload" "$n" -c 50 PING ;;
    ping-p16) bench_redis_benchmark "$name" "$workload" "$n" -c 50 -P 16 PING ;;
    point-read)
      if [[ -n "$redis" ]]; then bench_redis_benchmark "$name" "$workload" "$n" -c 50 -r "$KEYS" GET key:__rand_int__
      else bench_redis_benchmark "$name" "$workload" "$n" -c 50 -r "$KEYS" SELECT v FROM kv WHERE id = __rand_int__; fi ;;
    update | update-p16)
      local pipe=()
      [[ "$workload" == update-p16 ]] && pipe=(-P 16)
      if [[ -n "$redis" ]]; then bench_redis_benchmark "$name" "$workload" "$n" -c 50 "${pipe[@]}" -r "$KEYS" INCR key:__rand_int__
      else bench_redis_benchmark "$name" "$workload" "$n" -c 50 "${pipe[@]}" -r "$KEYS" UPDATE kv SET v = v + 1 WHERE id = __rand_int__; fi ;;
    insert-pipe)
      bench_pipe "$name" "$workload" "$TMP/insert-$SERVER_KIND${phase:+-warm}.resp" "$n" ;;
    insert-2010)
      if [[ -n "$redis" ]]; then bench_gen "$name" "$workload" "$n" "$([[ -n "$phase" ]] && echo warm || echo key)"
      else bench_gen "$name" "$workload" "$n" "message_${phase:-list}"; fi ;;
  esac
}

# The data after all the requests of one server, against what was sent; a wrong answer stops the run.
check_data() {
  local name="$1" updates sum expect_sum got want
  updates=$(($(warm "$N_UPDATE") + N_UPDATE + $(warm16 "$N_UPDATE_PIPE") + N_UPDATE_PIPE))
  expect_sum=$((KEYS * (KEYS - 1) / 2 + updates))
  if [[ "$SERVER_KIND" == redis ]]; then
    sum="$(redis-cli -p "$PORT" EVAL "local s = 0 for i = 0, tonumber(ARGV[1]) - 1 do s = s + tonumber(redis.call('GET', string.format('key:%012d', i))) end return s" 0 "$KEYS")"
    got="$(redis-cli -p "$PORT" DBSIZE)"
    want=$((KEYS + N_INSERT + $(warm "$N_INSERT") + N_2010 + $(warm "$N_2010")))
    echo "$name round $round: sum of key:* $sum (expected $expect_sum = loaded + $updates INCRs); keys $got (expected $want)" | tee -a "$CHECKS" >>"$RAW"
    [[ "$sum" == "$expect_sum" && "$got" == "$want" ]] || bench_die "$name: wrong data, see $CHECKS"
  else
    sum="$(redis-cli -p "$PORT" SELECT 'SUM(v)' FROM kv)"
    got="$(redis-cli -p "$PORT" SELECT 'COUNT(*)' FROM t)/$(redis-cli -p "$PORT" SELECT 'COUNT(*)' FROM tw)/$(redis-cli -p "$PORT" SELECT 'COUNT(*)' FROM message_list)/$(redis-cli -p "$PORT" SELECT 'COUNT(*)' FROM message_warm)"
    want="$N_INSERT/$(warm "$N_INSERT")/$N_2010/$(warm "$N_2010")"
    echo "$name round $round: SUM(v) of kv $sum (expected $expect_sum = loaded + $updates UPDATEs); rows of t/tw/message_list/message_warm $got (expected $want)" | tee -a "$CHECKS" >>"$RAW"
    [[ "$sum" == "$expect_sum" && "$got" == "$want" ]] || bench_die "$name: wrong data, see $CHECKS"
  fi
}

declare -A COUNT=([ping]="$N_PING" [ping-p16]="$N_PIPE" [point-read]="$N_READ" [update]="$N_UPDATE"
  [update-p16]="$N_UPDATE_PIPE" [insert-pipe]="$N_INSERT" [insert-2010]="$N_2010")
printf 'round\tserver\tworkload\trps\tcpu_us\tloop_cpu_us\n' >"$RESULTS"
for ((round = 1; round <= ROUNDS; round++)); do
  bench_rotate "$round" "${NAMES[@]}"
  for name in "${ORDER[@]}"; do
    echo "round $round: $name ($(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg))"
    if [[ "$name" == redis ]]; then bench_start redis redis; else bench_start respsql "$name" "${JAR[$name]}"; fi
    bench_load_kv "$KEYS"
    create_tables
    # Warm-up, not counted.
    for w in "${WORKLOADS[@]}"; do
      if [[ "$w" == update-p16 ]]; then n="$(warm16 "${COUNT[$w]}")"; else n="$(warm "${COUNT[$w]}")"; fi
      ((n > 0)) && bench "$name" "$w" "$n" warm >/dev/null
    done
    for w in "${WORKLOADS[@]}"; do
      result="$(bench "$name" "$w" "${COUNT[$w]}")"
      printf '%s\t%s\t%s\t%s\n' "$round" "$name" "$w" "$result" | tee -a "$RESULTS"
    done
    check_data "$name"
    bench_stop
  done
done

echo
python3 "$ROOT/scripts/lib/bench-summary.py" "$RESULTS" "${NAMES[@]}" --table \
  --label 'ping=PING, 50 clients' \
  --label 'ping-p16=PING, 50 clients, pipeline 16' \
  --label 'point-read=`SELECT v FROM kv WHERE id = <rand>` vs `GET key:<rand>`, 50 clients' \
  --label 'update=`UPDATE kv SET v = v + 1 WHERE id = <rand>` vs `INCR key:<rand>`, 50 clients' \
  --label 'update-p16=the same, pipeline 16' \
  --label "insert-pipe=$N_INSERT single-row INSERTs through \`redis-cli --pipe\` vs $N_INSERT two-field HSETs" \
  --label 'insert-2010=200 clients, one request in flight each (gen-benchmark): 2010 `INSERT INTO message_list` vs `SET`' \
  | tee "$DIR/summary.txt"
echo "took $((SECONDS / 60)) min $((SECONDS % 60)) s; raw output: $DIR" | tee -a "$DIR/env.txt"
