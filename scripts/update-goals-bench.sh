#!/usr/bin/env bash
# Issue 13's UPDATE and IN-list goals, old build against new in one run:
#   scripts/update-goals-bench.sh OLD.jar NEW.jar   (prints raw output; env passed on to scripts/lib/update_goals.py:
#   ROUNDS=3 BIG=5000000 MSG=10000000 FK_MOD=100 REPS_FULL=15 REPS_FK=200 REPS_IN=300;
#   VTYPE=bigint or VTYPE=float: the updated columns big.v and message_list.count get that type, default int)
# Both servers run at once, pinned to core 0 (only one is asked at a time); the client is pinned to
# core 1 and alternates the order of the servers each round. Each server loads big (5M rows) and
# message_list (10M rows, 100,000 per fk value); see update_goals.py for the workloads and checks.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OLD="$1" NEW="$2"
PORT_OLD="${PORT_OLD:-7921}" PORT_NEW="${PORT_NEW:-7922}"
pin_server=() pin_client=()
if (( $(nproc) >= 2 )); then pin_server=(taskset -c 0); pin_client=(taskset -c 1); fi
pids=() dirs=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "${dirs[@]}"; }
trap cleanup EXIT
for x in "$OLD:$PORT_OLD" "$NEW:$PORT_NEW"; do
  jar=${x%:*} port=${x##*:} d="$(mktemp -d)"; dirs+=("$d")
  # no bound on a write's row search: on a loaded machine the 10M-row load's INSERT ... SELECT and the
  # general path's 5M-row UPDATE can pass the default 1000 ms and be cancelled (both jars have the option)
  "${pin_server[@]}" java -Xmx4g -jar "$jar" --port "$port" --save "" --dir "$d" --loop-write-max-ms 0 >/dev/null 2>&1 &
  pids+=($!)
done
for port in "$PORT_OLD" "$PORT_NEW"; do
  for _ in $(seq 300); do redis-cli -p "$port" PING >/dev/null 2>&1 && break; sleep 0.2; done
done
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# old=$OLD ($(unzip -p "$OLD" META-INF/MANIFEST.MF 2>/dev/null | grep -i implementation-version | tr -d '\r' || true))"
echo "# new=$NEW"
"${pin_client[@]}" python3 "$ROOT/scripts/lib/update_goals.py" old="$PORT_OLD" new="$PORT_NEW"
echo "# $(date -u +%FT%TZ) done, load $(cut -d' ' -f1-3 /proc/loadavg)"
