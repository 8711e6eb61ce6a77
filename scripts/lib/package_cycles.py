"""The package cycles of a Java source tree, from imports and fully qualified names of io.respsql classes
(comments and strings left out), and the files behind each edge of a cycle; then the imports across
the layers issue 23 names (exec into plan/engine/protocol, engine into protocol, plan into engine).

    python3 scripts/lib/package_cycles.py server/src/main/java
"""
import os, re, sys
from collections import defaultdict
root = sys.argv[1] if len(sys.argv) > 1 else 'server/src/main/java'
pkgs = set()
files = []
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith('.java'):
            p = os.path.join(d, f)
            src = open(p, encoding='utf-8', errors='replace').read()
            m = re.search(r'^package\s+([\w.]+);', src, re.M)
            if m:
                pkgs.add(m.group(1)); files.append((m.group(1), p, src))
# generated sources
edges = defaultdict(set); why = defaultdict(list)
for pkg, p, src in files:
    body = re.sub(r'//[^\n]*|/\*.*?\*/', '', src, flags=re.S)
    body = re.sub(r'"(?:\\.|[^"\\])*"', '""', body)
    for m in re.finditer(r'\bio\.respsql\.([\w.]+?)\.([A-Z]\w*)', body):
        target = 'io.respsql.' + m.group(1)
        if target in pkgs and target != pkg:
            edges[pkg].add(target); why[(pkg, target)].append(os.path.basename(p))
# Tarjan
idx = {}; low = {}; st = []; on = set(); out = []; i = [0]
sys.setrecursionlimit(10000)
def sc(v):
    idx[v] = low[v] = i[0]; i[0] += 1; st.append(v); on.add(v)
    for w in edges[v]:
        if w not in idx: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: out.append(comp)
for v in sorted(pkgs):
    if v not in idx: sc(v)
print(len(pkgs), 'packages;', len(out), 'cycles')
for c in out:
    print(' ', sorted(c))
    for a in sorted(c):
        for b in sorted(c):
            if b in edges[a]: print('    ', a, '->', b, sorted(set(why[(a,b)]))[:5])
print('exec* -> plan:', sorted({f for (a,b),fs in why.items() if a.startswith('io.respsql.exec') and b.startswith('io.respsql.plan') for f in fs}))
print('exec* -> engine:', sorted({f for (a,b),fs in why.items() if a.startswith('io.respsql.exec') and b.startswith('io.respsql.engine') for f in fs}))
print('exec* -> protocol:', sorted({f for (a,b),fs in why.items() if a.startswith('io.respsql.exec') and b.startswith('io.respsql.protocol') for f in fs}))
print('engine -> protocol:', sorted({f for (a,b),fs in why.items() if a.startswith('io.respsql.engine') and b.startswith('io.respsql.protocol') for f in fs}))
print('plan -> engine:', sorted({f for (a,b),fs in why.items() if a.startswith('io.respsql.plan') and b.startswith('io.respsql.engine') for f in fs}))
