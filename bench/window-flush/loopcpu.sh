#!/usr/bin/env bash
# Event-loop-thread CPU per query, A/B alternated: starts A.jar and B.jar on free ports from PORT,
# loads both with seed 004 data at SF, warms each with WARM runs of every statement, then ROUNDS
# rounds (A B B A ...) of N runs per statement, reading the CPU of the thread respsql-loop-*
# from /proc/PID/task/TID/schedstat (ns) around each block: the query's own work, not GC or JIT.
# usage: bench/window-flush/loopcpu.sh A.jar B.jar PORT SF WARM ROUNDS N SQL [SQL...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
A="$1"; B="$2"; port="$3"; SF="$4"; WARM="$5"; ROUNDS="$6"; N="$7"; shift 7
pids=(); dirs=(); ports=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null || true; wait $p 2>/dev/null || true; done; for d in "${dirs[@]}"; do rm -rf "$d"; done' EXIT
for jar in "$A" "$B"; do
  while ss -ltnH "sport = :$port" | grep -q .; do port=$((port + 1)); done
  d="$(mktemp -d /tmp/wflush-cpu.XXXXXX)"; dirs+=("$d")
  java -Xmx3g -jar "$jar" --port "$port" --bind 127.0.0.1 --appendonly no --save "" --dir "$d" > "$d/out.txt" 2>&1 &
  pids+=($!); ports+=("$port")
  for _ in $(seq 1 300); do grep -q ' ready on ' "$d/out.txt" && break; sleep 0.2; done
  GEN_BENCHMARK_JAVA_OPTS="-Xmx2g" "$ROOT/scripts/gen-benchmark" blocking-bench --port "$port" --out "$d/load" --sf "$SF" --rounds 0 >/dev/null
  port=$((port + 1))
done
echo "A $A  B $B  sf $SF warm $WARM rounds $ROUNDS n $N; start: $(uptime)"
python3 - "${ports[0]}" "${pids[0]}" "${ports[1]}" "${pids[1]}" "$WARM" "$ROUNDS" "$N" "$ROOT" "$@" <<'PY'
import glob, statistics, sys, types
root = sys.argv[8]
src = open(root + '/scripts/lib/ab_queries.py').read().replace('\nmain()\n', '\n')
ab = types.ModuleType('ab_queries'); ab.__file__ = root + '/scripts/lib/ab_queries.py'
exec(compile(src, ab.__file__, 'exec'), ab.__dict__)
pa, pida, pb, pidb, warm, rounds, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
stmts = sys.argv[9:]
def loop_task(pid):
    for t in glob.glob('/proc/%s/task/*' % pid):
        if open(t + '/comm').read().startswith('respsql-loop'):
            return t + '/schedstat'
    raise SystemExit('no respsql-loop thread in ' + pid)
servers = {'A': (ab.conn(pa), loop_task(pida)), 'B': (ab.conn(pb), loop_task(pidb))}
def cpu(path):
    return int(open(path).read().split()[0])
for k, (c, _) in servers.items():
    for s in stmts:
        for _ in range(warm):
            ab.call(c, 'SQL', s)
res = {}
for r in range(rounds * 2):
    k = 'AB'[(r + 1) // 2 % 2]  # A B B A A B ...
    c, path = servers[k]
    for i, s in enumerate(stmts):
        t0 = cpu(path)
        for _ in range(n):
            ab.call(c, 'SQL', s)
        us = (cpu(path) - t0) / n / 1000
        res.setdefault((i, k), []).append(us)
        print('raw round %d server %s stmt %d loop-cpu %.1f us/query' % (r, k, i, us))
for i, s in enumerate(stmts):
    a, b = statistics.median(res[(i, 'A')]), statistics.median(res[(i, 'B')])
    print('stmt %d: A %.1f us  B %.1f us  B/A %.2f  | %s' % (i, a, b, b / a, s))
PY
echo "end: $(uptime)"
