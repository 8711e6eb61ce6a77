#!/usr/bin/env bash
# One-row UPDATE by primary key on a small and a large table, beside a PING round trip, in one run:
# the cost of an UPDATE should follow the rows it matches, not the table's size.
# Usage: SMALL=1000 LARGE=10000000 N=100000 scripts/update-cost-by-size.sh   (prints raw output)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SMALL="${SMALL:-1000}" LARGE="${LARGE:-10000000}" N="${N:-100000}" PORT="${PORT:-7795}"
GEN=("$ROOT/scripts/gen-benchmark" --no-progress)
pin_server=() pin_client=()
if (( $(nproc) >= 2 )); then pin_server=(taskset -c 0); pin_client=(taskset -c 1); fi
# No snapshots, and a scratch dir so nothing is loaded from or written to the working directory.
data="$(mktemp -d)"
"${pin_server[@]}" "$ROOT/scripts/respsql-server" --port "$PORT" --save "" --dir "$data" >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 300); do redis-cli -p "$PORT" PING >/dev/null 2>&1 && break; sleep 0.2; done

echo "# $(date -u +%FT%TZ) $(nproc) cores, commit $(git -C "$ROOT" rev-parse --short HEAD)"
for t in small:$SMALL large:$LARGE; do
  name=${t%%:*} rows=${t#*:}
  redis-cli -p "$PORT" CREATE TABLE "$name" "(id int primary key, fk int, count INT)" >/dev/null
  redis-cli -p "$PORT" CREATE INDEX "$name:fk:index" ON "$name" "(fk)" >/dev/null
  "${pin_client[@]}" "${GEN[@]}" -p "$PORT" -q -c 200 -n "$rows" -s -m 100 -A OK \
    -Q INSERT INTO "$name" VALUES "(000000000001,000000000001,4)" >/dev/null
  echo "== $name: $(redis-cli -p "$PORT" SELECT "COUNT(*)" FROM "$name") rows"
done
for round in 1 2; do
  echo "== round $round: PING, 1 client"
  "${pin_client[@]}" "${GEN[@]}" -p "$PORT" -c 1 -n "$N" -A ANY -Q PING
  for name in small large; do
    rows=$([[ $name == small ]] && echo "$SMALL" || echo "$LARGE")
    echo "== round $round: UPDATE $name SET count=count+1 WHERE id=<random below $rows>, 1 client"
    "${pin_client[@]}" "${GEN[@]}" -p "$PORT" -c 1 -n "$N" -r "$rows" -A INT \
      -Q UPDATE "$name" SET "count=count+1" WHERE "id=000000000001"
  done
done
