#!/usr/bin/env bash
# The cost of TLS, RespSQL beside Redis 7 (issue 28):
#
#   scripts/tls-bench.sh
#
# Starts a RespSQL server (the jar of scripts/respsql-server, built when missing or stale) and a
# Debian redis-server 7 (built with TLS), both pinned to core 0, each with a plain port and a TLS
# port (the same openssl-made CA-signed certificate, client certificates required), loads KEYS rows
# into table kv (id int primary key, v int) / keys key:<12 digits>, then measures with
# redis-benchmark (50 clients, core 1), plain and with --tls, each workload's four runs in an
# order rotated every round (after one uncounted warm-up round):
#   ping        PING
#   point-read  SELECT v FROM kv WHERE id = __rand_int__    / GET key:__rand_int__
#   update      UPDATE kv SET v = v + 1 WHERE id = __rand_int__ / INCR key:__rand_int__
# and prints per workload the median requests/s of each server and mode, RespSQL/Redis plain and
# over TLS, and how the TLS ratio compares with the plain one (issue 28's goal: within 10%). The
# sums of kv and of the keys are checked against the updates sent.
#
# Written to OUT/<stamp>/: env.txt, raw.txt (every redis-benchmark output), results.tsv, summary.txt.
# Env: ROUNDS (3), KEYS (100000), N (200000 requests per run), OUT (bench/tls), RESPSQL_HEAP (2g).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-3}"
KEYS="${KEYS:-100000}"
N="${N:-200000}"
HEAP="${RESPSQL_HEAP:-2g}"
OUT="$(realpath -m "${OUT:-$ROOT/bench/tls}")"
case "${1:-}" in -h | --help) sed -n '2,21p' "$0"; exit 0 ;; esac

source "$ROOT/scripts/lib/bench-common.sh"
BENCH=tls-bench
bench_require_tools redis-server redis-benchmark redis-cli openssl python3 java
(($(nproc) < 2)) || bench_require_tools taskset
redis-benchmark --help 2>&1 | grep -q -- '--tls' || bench_die "this redis-benchmark has no --tls"

version="$(sed -n 's:^  <version>\(.*\)</version>.*:\1:p' "$ROOT/pom.xml" | head -n 1)"
"$ROOT/scripts/respsql-server" --version >/dev/null # builds the jar when stale
JAR="$ROOT/server/target/respsql-server-${version}-all.jar"

bench_setup "$OUT"
RESPSQL_PID=""
REDIS_PID=""
cleanup() {
  local p
  for p in "$RESPSQL_PID" "$REDIS_PID"; do
    [[ -n "$p" ]] && { kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; }
  done
  rm -rf "$TMP"
}
trap cleanup EXIT

# --- certificates: a CA, a server certificate for 127.0.0.1, a client certificate -------------------
(cd "$TMP" && openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=tls-bench-ca &&
  for n in server client; do
    openssl req -newkey rsa:2048 -nodes -keyout $n.key -out $n.csr -subj /CN=$n &&
    openssl x509 -req -in $n.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out $n.crt -days 2 \
      -extfile <(echo subjectAltName=IP:127.0.0.1,DNS:localhost) || exit 1
  done) >"$TMP/openssl.log" 2>&1 || { cat "$TMP/openssl.log" >&2; bench_die "openssl failed"; }
TLS_SERVER=(--tls-cert-file "$TMP/server.crt" --tls-key-file "$TMP/server.key" --tls-ca-cert-file "$TMP/ca.crt"
  --tls-auth-clients yes)
TLS_CLIENT=(--tls --cacert "$TMP/ca.crt" --cert "$TMP/client.crt" --key "$TMP/client.key")

# --- the two servers -------------------------------------------------------------------------------
await_ping() { # PORT PID NAME
  until redis-cli -p "$1" PING 2>/dev/null | grep -q PONG; do
    kill -0 "$2" 2>/dev/null || { cat "$TMP/$3/server.log" >&2; bench_die "$3 did not start"; }
    sleep 0.1
  done
}
mkdir -p "$TMP/respsql" "$TMP/redis"
RESPSQL_PORT="$(bench_free_port)"; RESPSQL_TLS="$(bench_free_port)"
REDIS_PORT="$(bench_free_port)"; REDIS_TLS="$(bench_free_port)"
"${PIN_SERVER[@]}" java -Xmx"$HEAP" -jar "$JAR" --port "$RESPSQL_PORT" --tls-port "$RESPSQL_TLS" "${TLS_SERVER[@]}" \
  --bind 127.0.0.1 --dir "$TMP/respsql" --save "" >"$TMP/respsql/server.log" 2>&1 &
RESPSQL_PID=$!
"${PIN_SERVER[@]}" redis-server --port "$REDIS_PORT" --tls-port "$REDIS_TLS" "${TLS_SERVER[@]}" --bind 127.0.0.1 \
  --save "" --appendonly no --dir "$TMP/redis" >"$TMP/redis/server.log" 2>&1 &
REDIS_PID=$!
await_ping "$RESPSQL_PORT" "$RESPSQL_PID" respsql
await_ping "$REDIS_PORT" "$REDIS_PID" redis
redis-cli "${TLS_CLIENT[@]}" -p "$RESPSQL_TLS" PING | grep -q PONG || bench_die "RespSQL's TLS port does not answer"
redis-cli "${TLS_CLIENT[@]}" -p "$REDIS_TLS" PING | grep -q PONG || bench_die "Redis's TLS port does not answer"

{
  bench_env_header
  echo "respsql: $JAR (-Xmx$HEAP), TLS: JDK provider; redis: $(redis-server --version | awk '{print $3}'), OpenSSL"
  echo "runs: ROUNDS=$ROUNDS (+1 warm-up round, not counted), KEYS=$KEYS, N=$N requests per run, 50 clients"
  echo "servers pinned to core 0, redis-benchmark to core 1; both servers up for the whole run (the idle one takes no CPU)"
  echo "NOTE: the machine is shared with other builds (8 helpers on 2 cores when this was written): absolute"
  echo "      figures are noisy; the rounds alternate the four runs so the ratios see the same load."
} | tee "$DIR/env.txt"

SERVER_PID="$RESPSQL_PID"; SERVER_KIND=respsql; PORT="$RESPSQL_PORT"; bench_load_kv "$KEYS"
SERVER_PID="$REDIS_PID"; SERVER_KIND=redis; PORT="$REDIS_PORT"; bench_load_kv "$KEYS"

# run SERVER MODE WORKLOAD N: one redis-benchmark run; prints requests/s and CPU columns.
UPDATES=0
run() {
  local server="$1" mode="$2" workload="$3" n="$4" tls=()
  if [[ "$server" == respsql ]]; then SERVER_PID="$RESPSQL_PID"; SERVER_KIND=respsql; PORT="$RESPSQL_PORT"
  else SERVER_PID="$REDIS_PID"; SERVER_KIND=redis; PORT="$REDIS_PORT"; fi
  if [[ "$mode" == tls ]]; then
    tls=("${TLS_CLIENT[@]}")
    [[ "$server" == respsql ]] && PORT="$RESPSQL_TLS" || PORT="$REDIS_TLS"
  fi
  case "$workload/$server" in
    ping/*)             bench_redis_benchmark "$server-$mode" "$workload" "$n" "${tls[@]}" -c 50 PING ;;
    point-read/respsql) bench_redis_benchmark "$server-$mode" "$workload" "$n" "${tls[@]}" -c 50 -r "$KEYS" \
                          SELECT v FROM kv WHERE id = __rand_int__ ;;
    point-read/redis)   bench_redis_benchmark "$server-$mode" "$workload" "$n" "${tls[@]}" -c 50 -r "$KEYS" GET key:__rand_int__ ;;
    update/respsql)     bench_redis_benchmark "$server-$mode" "$workload" "$n" "${tls[@]}" -c 50 -r "$KEYS" \
                          UPDATE kv SET v = v + 1 WHERE id = __rand_int__ ;;
    update/redis)       bench_redis_benchmark "$server-$mode" "$workload" "$n" "${tls[@]}" -c 50 -r "$KEYS" INCR key:__rand_int__ ;;
  esac
}

COMBOS=(respsql/plain respsql/tls redis/plain redis/tls)
printf 'round\tworkload\tserver\tmode\trps\tcpu_us_process\tcpu_us_thread\n' >"$RESULTS"
for round in $(seq 0 "$ROUNDS"); do
  for workload in ping point-read update; do
    n="$N"; ((round > 0)) || n=$((N / 4))
    for k in 0 1 2 3; do
      combo="${COMBOS[$(((k + round) % 4))]}"
      server="${combo%/*}"; mode="${combo#*/}"
      cols="$(run "$server" "$mode" "$workload" "$n")"
      [[ "$workload" == update ]] && UPDATES=$((UPDATES + n))
      if ((round > 0)); then
        printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$workload" "$server" "$mode" "$cols" | tee -a "$RESULTS"
      else
        echo "warm-up $workload $server $mode: $(cut -f1 <<<"$cols") req/s"
      fi
    done
  done
done

# --- checks: every UPDATE / INCR counted once ---------------------------------------------------------
per_server=$((UPDATES / 2)) # each server got half of the update runs (plain and TLS)
expected=$((KEYS * (KEYS - 1) / 2 + per_server))
got_sql="$(redis-cli -p "$RESPSQL_PORT" SELECT 'SUM(v)' FROM kv)"
got_redis="$(redis-cli -p "$REDIS_PORT" EVAL "local s = 0 for i = 0, $((KEYS - 1)) do s = s + tonumber(redis.call('GET', string.format('key:%012d', i))) end return tostring(s)" 0)"
{
  echo "check: SUM(v) of kv = $got_sql, sum of key:* = $got_redis, expected $expected ($per_server updates each)"
} | tee "$DIR/checks.txt"
[[ "$got_sql" == "$expected" && "$got_redis" == "$expected" ]] || bench_die "the sums do not match the updates sent"

python3 - "$RESULTS" <<'EOF' | tee "$DIR/summary.txt"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
med = {}
for w in ('ping', 'point-read', 'update'):
    for s in ('respsql', 'redis'):
        for m in ('plain', 'tls'):
            v = [float(r['rps']) for r in rows if r['workload'] == w and r['server'] == s and r['mode'] == m]
            med[w, s, m] = statistics.median(v) if v else float('nan')
print('median requests/s (redis-benchmark, 50 clients); ratio = RespSQL/Redis; TLS cost = TLS/plain of each server')
print(f"{'workload':<11} {'RespSQL plain':>13} {'RespSQL TLS':>11} {'Redis plain':>11} {'Redis TLS':>9} "
      f"{'ratio plain':>11} {'ratio TLS':>9} {'TLS/plain ratio':>15} {'RespSQL TLS cost':>16} {'Redis TLS cost':>14}")
for w in ('ping', 'point-read', 'update'):
    rp, rt = med[w, 'respsql', 'plain'], med[w, 'respsql', 'tls']
    dp, dt = med[w, 'redis', 'plain'], med[w, 'redis', 'tls']
    ratio_p, ratio_t = rp / dp, rt / dt
    print(f"{w:<11} {rp:>13.0f} {rt:>11.0f} {dp:>11.0f} {dt:>9.0f} {ratio_p:>11.2f} {ratio_t:>9.2f} "
          f"{ratio_t / ratio_p:>15.2f} {rt / rp:>16.2f} {dt / dp:>14.2f}")
# Server CPU per request (process, from /proc): less sensitive than requests/s to what else runs on the machine.
cpu = {}
for w in ('ping', 'point-read', 'update'):
    for s in ('respsql', 'redis'):
        for m in ('plain', 'tls'):
            v = [float(r['cpu_us_process']) for r in rows if r['workload'] == w and r['server'] == s and r['mode'] == m]
            cpu[w, s, m] = statistics.median(v) if v else float('nan')
print()
print('median server CPU µs per request (process); ratio = RespSQL/Redis (lower is better for RespSQL)')
print(f"{'workload':<11} {'RespSQL plain':>13} {'RespSQL TLS':>11} {'Redis plain':>11} {'Redis TLS':>9} "
      f"{'ratio plain':>11} {'ratio TLS':>9} {'TLS/plain ratio':>15}")
for w in ('ping', 'point-read', 'update'):
    rp, rt = cpu[w, 'respsql', 'plain'], cpu[w, 'respsql', 'tls']
    dp, dt = cpu[w, 'redis', 'plain'], cpu[w, 'redis', 'tls']
    print(f"{w:<11} {rp:>13.2f} {rt:>11.2f} {dp:>11.2f} {dt:>9.2f} {rp / dp:>11.2f} {rt / dt:>9.2f} {(rt / dt) / (rp / dp):>15.2f}")
EOF
echo "written to $DIR"
