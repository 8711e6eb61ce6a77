#!/usr/bin/env bash
# Usage: scripts/ab-update.sh JAR_A JAR_B [ROUNDS]. A/B of the FK-range UPDATE (GROUP_ROWS rows matched) and of the one-row UPDATE and SELECT by primary
# key: per round a fresh server of each build, pinned to core 0; redis-benchmark on core 1.
# Env: FK_GROUPS (200) fk values of GROUP_ROWS (1000) rows each; FK_N (3000) FK-range UPDATEs per round.
# The 100,000-row range: FK_GROUPS=20 GROUP_ROWS=100000 FK_N=200.
set -euo pipefail
A="$1" B="$2" ROUNDS="${3:-3}" PORT=7791
FK_GROUPS="${FK_GROUPS:-200}" GROUP_ROWS="${GROUP_ROWS:-1000}" FK_N="${FK_N:-3000}"
TOTAL=$((FK_GROUPS * GROUP_ROWS))
run_one() {
  taskset -c 0 java -Xmx2g -jar "$2" --port "$PORT" --save "" >/dev/null 2>&1 & local pid=$!
  for _ in $(seq 100); do redis-cli -p $PORT PING >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -p $PORT CREATE TABLE t "(id int primary key, fk int, v int)" >/dev/null
  redis-cli -p $PORT CREATE INDEX t:fk ON t "(fk)" >/dev/null
  python3 - "$FK_GROUPS" "$TOTAL" <<'PY' | redis-cli -p $PORT --pipe >/dev/null
import sys
groups, total = int(sys.argv[1]), int(sys.argv[2])
for b in range(total // 1000):
    vals=",".join(f"({i},{i%groups},0)" for i in range(b*1000, b*1000+1000))
    s=f"INSERT INTO t VALUES {vals}"
    sys.stdout.write(f"*2\r\n$3\r\nSQL\r\n${len(s)}\r\n{s}\r\n")
PY
  local fk pk sel
  fk=$(taskset -c 1 redis-benchmark -p $PORT -c 10 -n "$FK_N" -r "$FK_GROUPS" -q SQL "UPDATE t SET v = v + 1 WHERE fk = __rand_int__" | tr '\r' '\n' | grep -o '[0-9.]* requests per second' | tail -1 | awk '{print $1}')
  pk=$(taskset -c 1 redis-benchmark -p $PORT -c 50 -n 200000 -r "$TOTAL" -q SQL "UPDATE t SET v = v + 1 WHERE id = __rand_int__" | tr '\r' '\n' | grep -o '[0-9.]* requests per second' | tail -1 | awk '{print $1}')
  sel=$(taskset -c 1 redis-benchmark -p $PORT -c 50 -n 200000 -r "$TOTAL" -q SQL "SELECT v FROM t WHERE id = __rand_int__" | tr '\r' '\n' | grep -o '[0-9.]* requests per second' | tail -1 | awk '{print $1}')
  kill $pid; wait $pid 2>/dev/null || true
  echo "$fk $pk $sel"
}
echo "# A=$A"; echo "# B=$B"; echo "# $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg); $TOTAL rows, $FK_GROUPS fk groups of $GROUP_ROWS rows"
echo "# columns: round, build, FK-range UPDATE/s (10 clients), pk UPDATE/s (50 clients), pk SELECT/s (50 clients)"
for r in $(seq $ROUNDS); do
  if (( r % 2 )); then order="A B"; else order="B A"; fi
  for x in $order; do jar=$A; [[ $x == B ]] && jar=$B; echo "round $r $x $(run_one $x $jar)"; done
done
