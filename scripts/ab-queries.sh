#!/usr/bin/env bash
# A/B of two server jars on seed 004 queries over the same SF data: starts both (workers at nice 0,
# free loopback ports searched upwards from AB_PORT, temporary dirs), loads each with gen-benchmark
# (blocking-bench --rounds 0), then runs scripts/lib/ab_queries.py with alternated rounds A B B A ...
#
# usage: scripts/ab-queries.sh OLD.jar NEW.jar OUTFILE [SF] [ROUNDS] [RUNS] [QUERIES]
#   SF 0.3, ROUNDS 4, RUNS 4 (per query per round, the first dropped), QUERIES as AB_QUERIES.
# env (all optional):
#   AB_PORT     first port tried (7840); each server takes the next free one from there
#   AB_HEAP     server -Xmx (3g)          AB_LOAD_HEAP  loader (gen-benchmark) -Xmx (2g)
#   AB_WARMUP   unmeasured runs of every query on each server before the rounds (0)
#   AB_CHECK    1: compare A's and B's replies (first run of each round) and print the verdict (0)
#   AB_QUERIES  default query list (q05,q05b,q14,q15,q16,q17,q18,q21,q22,q27,q28,q29)
#   AB_TAG      prefix of the temporary dirs under /tmp (ab)
#   AB_ARGS_A, AB_ARGS_B  extra server flags of A and of B (word-split), e.g. "--bg-query-threads 1"
# Replaces the copies that were bench/{groupby,point-queries,window-anti,joins/star,joins/eager-agg}/ab.sh:
# the old `bench/X/ab.sh A B OUT SF R N Q` is `AB_PORT=<its port> [AB_WARMUP=3] [AB_CHECK=1] scripts/ab-queries.sh A B OUT SF R N Q`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 3 ]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
A="$1"; B="$2"; OUT="$3"; SF="${4:-0.3}"; ROUNDS="${5:-4}"; RUNS="${6:-4}"
QS="${7:-${AB_QUERIES:-q05,q05b,q14,q15,q16,q17,q18,q21,q22,q27,q28,q29}}"
PORT0="${AB_PORT:-7840}"; HEAP="${AB_HEAP:-3g}"; LOAD_HEAP="${AB_LOAD_HEAP:-2g}"
WARMUP="${AB_WARMUP:-0}"; CHECK="${AB_CHECK:-0}"; TAG="${AB_TAG:-ab}"
for jar in "$A" "$B"; do
  [ -f "$jar" ] || { echo "no jar $jar" >&2; exit 2; }
done
pids=(); dirs=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  for d in "${dirs[@]}"; do rm -rf "$d"; done
}
trap cleanup EXIT
ports=()
port="$PORT0"
side=0
for jar in "$A" "$B"; do
  if [ "$side" = 0 ]; then extra="${AB_ARGS_A:-}"; else extra="${AB_ARGS_B:-}"; fi
  side=1
  while ss -ltnH "sport = :$port" | grep -q .; do port=$((port + 1)); done
  d="$(mktemp -d "/tmp/$TAG-ab.XXXXXX")"; dirs+=("$d")
  java "-Xmx$HEAP" -jar "$jar" --port "$port" --bind 127.0.0.1 --appendonly no --save "" --dir "$d" $extra > "$d/out.txt" 2>&1 &
  pids+=($!); ports+=("$port")
  for _ in $(seq 1 300); do grep -q ' ready on ' "$d/out.txt" && break; sleep 0.2; done
  grep -q ' ready on ' "$d/out.txt" || { echo "server $jar did not start on $port:" >&2; cat "$d/out.txt" >&2; exit 1; }
  port=$((port + 1))
done
for p in "${ports[@]}"; do
  l="$(mktemp -d "/tmp/$TAG-load.XXXXXX")"; dirs+=("$l")
  GEN_BENCHMARK_JAVA_OPTS="-Xmx$LOAD_HEAP" "$ROOT/scripts/gen-benchmark" blocking-bench --port "$p" --out "$l" --sf "$SF" --rounds 0 >/dev/null
done
{ echo "A: $A ${AB_ARGS_A:-}"; echo "B: $B ${AB_ARGS_B:-}"; echo "SF $SF, rounds $ROUNDS (A B B A ...), $RUNS runs per query per round (first dropped)";
  echo "ports ${ports[0]} ${ports[1]}, heap $HEAP, warm-up $WARMUP, reply check $CHECK";
  python3 "$ROOT/scripts/lib/ab_queries.py" --warmup "$WARMUP" $([ "$CHECK" = 1 ] && echo --check) \
    "${ports[0]}" "${pids[0]}" "${ports[1]}" "${pids[1]}" "$ROUNDS" "$RUNS" "$QS"; } > "$OUT"
