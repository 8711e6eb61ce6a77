#!/usr/bin/env bash
# Allocation (and CPU) of the server's threads per query: starts JAR on a free port from PORT,
# loads seed 004 data at SF with gen-benchmark, runs WARM unmeasured then N measured runs of each
# query (one connection, one at a time), and prints per thread the bytes allocated and CPU ms per
# query between two `jstack -e` snapshots (allocated= is printed rounded to K/M: N large enough).
# usage: bench/window-flush/alloc.sh JAR PORT SF WARM N q25[,q26...] [SQL...]
#   each further argument: one more statement, measured the same way (labelled sql1, sql2, ...)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
JAR="$1"; port="$2"; SF="$3"; WARM="$4"; N="$5"; QS="$6"; shift 6
while ss -ltnH "sport = :$port" | grep -q .; do port=$((port + 1)); done
d="$(mktemp -d /tmp/wflush-alloc.XXXXXX)"
java -Xmx3g -jar "$JAR" --port "$port" --bind 127.0.0.1 --appendonly no --save "" --dir "$d" > "$d/out.txt" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$d"' EXIT
for _ in $(seq 1 300); do grep -q ' ready on ' "$d/out.txt" && break; sleep 0.2; done
GEN_BENCHMARK_JAVA_OPTS="-Xmx2g" "$ROOT/scripts/gen-benchmark" blocking-bench --port "$port" --out "$d/load" --sf "$SF" --rounds 0 >/dev/null
echo "jar $JAR sf $SF warm $WARM n $N queries $QS port $port; $(uptime)"
python3 - "$ROOT" "$port" "$pid" "$WARM" "$N" "$QS" "$@" <<'PY'
import re, subprocess, sys
import types
# ab_queries.py runs its main() when imported: take its client functions without that last line
src = open(sys.argv[1] + '/scripts/lib/ab_queries.py').read().replace('\nmain()\n', '\n')
ab = types.ModuleType('ab_queries')
ab.__file__ = sys.argv[1] + '/scripts/lib/ab_queries.py'
exec(compile(src, ab.__file__, 'exec'), ab.__dict__)
port, pid, warm, n = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
qs = sys.argv[6].split(',') + ['sql%d' % i for i in range(1, len(sys.argv) - 6)]
extra = sys.argv[7:]
UNIT = {'B': 1, 'K': 1024, 'M': 1024 ** 2, 'G': 1024 ** 3}
def snap():
    out = subprocess.run(['jstack', '-e', pid], capture_output=True, text=True).stdout
    r = {}
    for m in re.finditer(r'^"([^"]+)".*?cpu=([\d.]+)ms.*?allocated=([\d.]+)([BKMG])', out, re.M):
        r[m.group(1)] = (float(m.group(2)), float(m.group(3)) * UNIT[m.group(4)])
    return r
c = ab.conn(port)
for q in qs:
    text = extra[int(q[3:]) - 1] if q.startswith('sql') else ab.sql(q)
    if q.startswith('sql'):
        print('%s = %s' % (q, text))
    for _ in range(warm):
        ab.call(c, 'SQL', text)
    a = snap()
    for _ in range(n):
        ab.call(c, 'SQL', text)
    b = snap()
    for t in sorted(b):
        if t in a and b[t][1] - a[t][1] > 0 or t.startswith('respsql'):
            da = (b[t][1] - a[t].__getitem__(1)) if t in a else b[t][1]
            dc = (b[t][0] - a[t][0]) if t in a else b[t][0]
            print('%s thread %-22s alloc %10.0f B/query  cpu %8.3f ms/query' % (q, t, da / n, dc / n))
PY
