#!/usr/bin/env bash
# Client overhead check: is gen-benchmark fast enough not to be the bottleneck?
#
# Starts one redis-server (pinned to core 0) and runs, side by side on core 1,
#   A: redis-benchmark -t ping_mbulk | -t set   -c C -n N
#   B: gen-benchmark   -A OK -Q PING | SET foo bar  -c C -n N
# alternating A B A B ... ROUNDS times for C in CLIENTS, then reports per configuration the
# median requests/s of each tool, the ratio of the medians and the median of the per-round
# (side-by-side) ratios B/A, and the CPU time each client process used per request (bash `time`:
# user+sys of the whole process, so gen-benchmark's includes JVM start-up and JIT; gen-benchmark
# also reports the CPU it used while its clock ran). Everything goes to
# bench/client-overhead/<stamp>/:
#   runs.txt     every command and its output, verbatim, in order, with its wall/user/sys times
#   results.tsv  test, clients, round, tool, requests/s, CPU seconds (process), CPU seconds
#                while timed (gen-benchmark only), all taken from runs.txt
#   summary.txt  medians and ratios
#   env.txt      machine, versions, load
#
# Env: ROUNDS (7), N (200000), CLIENTS ("1 50"), TESTS ("ping set"), PORT (first free from 7379),
#      OUT (bench/client-overhead), GEN_BENCHMARK_ARGS (extra gen-benchmark options).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-7}"
N="${N:-200000}"
CLIENTS="${CLIENTS:-1 50}"
TESTS="${TESTS:-ping set}"
OUT="$(realpath -m "${OUT:-$ROOT/bench/client-overhead}")"
GEN=scripts/gen-benchmark
cd "$ROOT"
STAMP="$(date +%Y%m%d-%H%M%S)"
DIR="$OUT/$STAMP"

for tool in redis-server redis-benchmark redis-cli taskset java; do
  command -v "$tool" >/dev/null || { echo "client-overhead: $tool not found" >&2; exit 1; }
done

port_in_use() { ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }
if [[ -z "${PORT:-}" ]]; then
  PORT=7379
  while port_in_use "$PORT"; do PORT=$((PORT + 1)); done
elif port_in_use "$PORT"; then
  echo "client-overhead: port $PORT is in use; give a free PORT" >&2
  exit 1
fi

if [[ "$(nproc)" -ge 2 ]]; then
  SERVER_PIN=(taskset -c 0)
  CLIENT_PIN=(taskset -c 1)
  PINNING="server on core 0, clients on core 1"
else
  SERVER_PIN=()
  CLIENT_PIN=()
  PINNING="none (nproc < 2)"
  echo "client-overhead: fewer than 2 cores, running unpinned" >&2
fi

# Build the client before anything is timed.
GEN_BENCHMARK_JAVA_OPTS="${GEN_BENCHMARK_JAVA_OPTS:-}" "$GEN" --help >/dev/null

mkdir -p "$DIR"
PIDFILE="$DIR/redis.pid"
cleanup() {
  if [[ -f "$PIDFILE" ]]; then
    kill "$(cat "$PIDFILE")" 2>/dev/null || true
    rm -f "$PIDFILE"
  fi
}
trap cleanup EXIT

"${SERVER_PIN[@]}" redis-server --port "$PORT" --bind 127.0.0.1 --save '' --appendonly no \
  --daemonize yes --pidfile "$PIDFILE" --logfile /dev/null
for _ in $(seq 1 100); do
  redis-cli -p "$PORT" PING 2>/dev/null | grep -q PONG && break
  sleep 0.1
done
redis-cli -p "$PORT" PING | grep -q PONG || { echo "client-overhead: redis-server did not answer" >&2; exit 1; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "nproc: $(nproc)"
  echo "kernel: $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "redis-server: $(redis-server --version)"
  echo "redis-benchmark: $(redis-benchmark --version 2>/dev/null || echo unknown)"
  echo "gen-benchmark commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "pinning: $PINNING"
  echo "rounds: $ROUNDS  requests per run: $N  clients: $CLIENTS  tests: $TESTS"
  echo "GEN_BENCHMARK_JAVA_OPTS: ${GEN_BENCHMARK_JAVA_OPTS:-(default)}"
  echo "GEN_BENCHMARK_ARGS: ${GEN_BENCHMARK_ARGS:-(none)}"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$DIR/env.txt"

LOG="$DIR/runs.txt"
TSV="$DIR/results.tsv"
printf 'test\tclients\tround\ttool\trequests_per_second\tprocess_cpu_seconds\ttimed_cpu_seconds\n' > "$TSV"
: > "$LOG"

# shellcheck disable=SC2206
EXTRA=(${GEN_BENCHMARK_ARGS:-})

run_logged() { # label, command...
  local label="$1"; shift
  {
    echo "=== $label"
    echo "\$ $*"
  } >> "$LOG"
  local out times rc
  times="$( { TIMEFORMAT='%R %U %S'; time "$@" > "$DIR/.out" 2>&1; } 2>&1 )" && rc=0 || rc=$?
  out="$(cat "$DIR/.out")"
  rm -f "$DIR/.out"
  echo "$out" >> "$LOG"
  [[ "$rc" == 0 ]] || { echo "client-overhead: failed: $*" >&2; exit 1; }
  echo "# wall user sys (s): $times" >> "$LOG"
  echo >> "$LOG"
  LAST_OUTPUT="$out"
  LAST_CPU="$(awk '{ printf "%.2f", $2 + $3 }' <<< "$times")"
}

for round in $(seq 1 "$ROUNDS"); do
  for test in $TESTS; do
    case "$test" in
      ping) RB_TEST=ping_mbulk; GEN_CMD=(PING) ;;
      set) RB_TEST=set; GEN_CMD=(SET foo bar) ;;
      *) echo "client-overhead: unknown test $test" >&2; exit 1 ;;
    esac
    for c in $CLIENTS; do
      run_logged "$test c=$c round=$round A redis-benchmark" \
        "${CLIENT_PIN[@]}" redis-benchmark -p "$PORT" -c "$c" -n "$N" -t "$RB_TEST" --csv
      a="$(printf '%s\n' "$LAST_OUTPUT" | awk -F'"' -v t="${RB_TEST^^}" '$2 == t { print $4 }' | tail -1)"
      a_cpu="$LAST_CPU"
      run_logged "$test c=$c round=$round B gen-benchmark" \
        "${CLIENT_PIN[@]}" "$GEN" -p "$PORT" -c "$c" -n "$N" --no-progress "${EXTRA[@]}" -A OK -Q "${GEN_CMD[@]}"
      b="$(printf '%s\n' "$LAST_OUTPUT" | sed -n 's/^\([0-9.]*\) requests per second$/\1/p' | tail -1)"
      b_cpu="$LAST_CPU"
      b_timed="$(printf '%s\n' "$LAST_OUTPUT" | sed -n 's/^Client CPU while timed: \([0-9.]*\) s,.*/\1/p' | tail -1)"
      [[ -n "$a" && -n "$b" ]] || { echo "client-overhead: could not read a rate (see $LOG)" >&2; exit 1; }
      printf '%s\t%s\t%s\tredis-benchmark\t%s\t%s\t\n' "$test" "$c" "$round" "$a" "$a_cpu" >> "$TSV"
      printf '%s\t%s\t%s\tgen-benchmark\t%s\t%s\t%s\n' "$test" "$c" "$round" "$b" "$b_cpu" "$b_timed" >> "$TSV"
      printf 'round %s %-4s c=%-3s redis-benchmark %10s  gen-benchmark %10s\n' "$round" "$test" "$c" "$a" "$b"
    done
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$DIR/env.txt"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

{
  echo "Client overhead, $N requests per run, $ROUNDS rounds alternating redis-benchmark (A) and gen-benchmark (B); pinning: $PINNING"
  printf '%-5s %-8s %16s %16s %14s %16s %22s\n' test clients "median A req/s" "median B req/s" "B/A medians" "median B/A" "B/A per round (min..max)"
  for test in $TESTS; do
    for c in $CLIENTS; do
      ma="$(awk -F'\t' -v t="$test" -v c="$c" '$1 == t && $2 == c && $4 == "redis-benchmark" { print $5 }' "$TSV" | median)"
      mb="$(awk -F'\t' -v t="$test" -v c="$c" '$1 == t && $2 == c && $4 == "gen-benchmark" { print $5 }' "$TSV" | median)"
      ratios="$(awk -F'\t' -v t="$test" -v c="$c" '
        $1 == t && $2 == c { if ($4 == "redis-benchmark") a[$3] = $5; else b[$3] = $5 }
        END { for (r in a) if (r in b) printf "%.3f\n", b[r] / a[r] }' "$TSV")"
      mr="$(printf '%s\n' "$ratios" | median)"
      lo="$(printf '%s\n' "$ratios" | sort -g | head -1)"
      hi="$(printf '%s\n' "$ratios" | sort -g | tail -1)"
      printf '%-5s %-8s %16s %16s %14s %16s %22s\n' "$test" "$c" "$ma" "$mb" \
        "$(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.3f", b / a }')" "$(printf '%.3f' "$mr")" "$lo..$hi"
    done
  done
  echo
  echo "CPU per request in microseconds (medians): A = redis-benchmark process, B = gen-benchmark process"
  echo "(JVM start-up and JIT included), B timed = gen-benchmark while its clock ran"
  printf '%-5s %-8s %12s %12s %12s\n' test clients "A" "B" "B timed"
  for test in $TESTS; do
    for c in $CLIENTS; do
      col() { awk -F'\t' -v t="$test" -v c="$c" -v tool="$1" -v k="$2" -v n="$N" \
        '$1 == t && $2 == c && $4 == tool && $k != "" { printf "%.2f\n", $k * 1e6 / n }' "$TSV" | median; }
      printf '%-5s %-8s %12s %12s %12s\n' "$test" "$c" "$(col redis-benchmark 6)" "$(col gen-benchmark 6)" \
        "$(col gen-benchmark 7)"
    done
  done
} > "$DIR/summary.txt"
cat "$DIR/summary.txt"
echo "raw output in $DIR"
