#!/usr/bin/env bash
# (bench/groupby/ab.sh with its ports in 8010-8049.) A/B of two server jars on the same SF data: starts both (3g heap, workers at nice 0, free
# loopback ports, temporary dirs), loads each with gen-benchmark (blocking-bench --rounds 0),
# then runs ab.py with alternated rounds. usage: ab.sh OLD.jar NEW.jar OUTFILE [SF] [ROUNDS] [RUNS] [QUERIES]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
A="$1"; B="$2"; OUT="$3"; SF="${4:-0.3}"; ROUNDS="${5:-4}"; RUNS="${6:-4}"
QS="${7:-q01,q02,q03,q04,q12,q13,q20,q21,q22}"
pids=(); dirs=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; for d in "${dirs[@]}"; do rm -rf "$d"; done; }
trap cleanup EXIT
ports=()
port=8010
for jar in "$A" "$B"; do
  while ss -ltnH "sport = :$port" | grep -q .; do port=$((port + 1)); done
  d="$(mktemp -d /tmp/pointq-ab.XXXXXX)"; dirs+=("$d")
  java -Xmx3g -jar "$jar" --port "$port" --bind 127.0.0.1 --appendonly no --save "" --dir "$d" > "$d/out.txt" 2>&1 &
  pids+=($!); ports+=("$port")
  for _ in $(seq 1 300); do grep -q ' ready on ' "$d/out.txt" && break; sleep 0.2; done
  port=$((port + 1))
done
for p in "${ports[@]}"; do
  GEN_BENCHMARK_JAVA_OPTS="-Xmx2g" "$ROOT/scripts/gen-benchmark" blocking-bench --port "$p" --out "$(mktemp -d /tmp/pointq-load.XXXXXX)" --sf "$SF" --rounds 0 >/dev/null
done
{ echo "A: $A"; echo "B: $B"; echo "SF $SF, rounds $ROUNDS (A B B A ...), $RUNS runs per query per round (first dropped)"; 
  python3 "$ROOT/bench/groupby/ab.py" "${ports[0]}" "${pids[0]}" "${ports[1]}" "${pids[1]}" "$ROUNDS" "$RUNS" "$QS"; } > "$OUT"
