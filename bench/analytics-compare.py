import csv, sys, statistics, math
def load(d):
    runs = {}
    for r in csv.DictReader(open(d + '/runs.tsv'), delimiter='\t'):
        runs.setdefault((r['query'], r['system']), []).append(r)
    out = {}
    for (q, s), rs in runs.items():
        warm = [r for r in rs if r['run'] != '0']
        ok = all(r['status'] in ('ok', 'reference') for r in rs) and warm
        if not ok:
            st = [r['status'] for r in rs]
            out[(q, s)] = (None, None, 'cap' if 'cap' in st else ('error' if 'error' in st else '/'.join(sorted(set(st)))))
            continue
        c = statistics.median(float(r['client_ms']) for r in warm)
        sv = [float(r['server_ms']) for r in warm if r['server_ms']]
        out[(q, s)] = (c, statistics.median(sv) if sv else None, 'ok')
    # Runs since issue 11 measure DuckDB at several thread settings (DuckDB-1t, DuckDB-2t); compared
    # here is the one with the most threads, as the single DuckDB of older runs (the machine's cores).
    ducks = sorted({s for _, s in out if s.startswith('DuckDB-')}, key=lambda s: int(s[len('DuckDB-'):-1]))
    if ducks and not any(s == 'DuckDB' for _, s in out):
        out.update({(q, 'DuckDB'): v for (q, s), v in list(out.items()) if s == ducks[-1]})
    return out
b, a = load(sys.argv[1]), load(sys.argv[2])
qs = sorted({q for q, _ in b}, key=lambda q: (int(''.join(ch for ch in q if ch.isdigit())), q))
def f(x):
    if x is None: return ''
    return f'{x:,.0f}' if x >= 100 else f'{x:.2f}' if x >= 1 else f'{x:.3f}'
print('| query | PG before | PG after | DuckDB before | DuckDB after | RespSQL before | RespSQL after | RespSQL after/before | RespSQL/PG before | RespSQL/PG after | RespSQL/DuckDB before | RespSQL/DuckDB after |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
g = {k: [] for k in ('pb', 'pa', 'db', 'da', 'ab', 'pp', 'cpb', 'cpa', 'cdb', 'cda')}
for q in qs:
    pg_b, pg_a = b[(q, 'PostgreSQL')], a[(q, 'PostgreSQL')]
    dk_b, dk_a = b[(q, 'DuckDB')], a[(q, 'DuckDB')]
    rb, ra = b[(q, 'RespSQL')], a[(q, 'RespSQL')]
    def cell(r): return f(r[0]) if r[0] is not None else r[2]
    def ratio(x, y, key):
        if x[0] is None or y[0] is None: return ''
        v = x[0] / y[0]; g[key].append(v); return f'{v:.2f}'
    ratio(pg_a, pg_b, 'pp')
    if rb[0] is not None and ra[0] is not None and pg_b[0] and pg_a[0]:
        g['cpb'].append(rb[0]/pg_b[0]); g['cpa'].append(ra[0]/pg_a[0]); g['cdb'].append(rb[0]/dk_b[0]); g['cda'].append(ra[0]/dk_a[0])
    print(f'| {q.upper()} | {cell(pg_b)} | {cell(pg_a)} | {cell(dk_b)} | {cell(dk_a)} | {cell(rb)} | {cell(ra)} | {ratio(ra, rb, "ab")} | {ratio(rb, pg_b, "pb")} | {ratio(ra, pg_a, "pa")} | {ratio(rb, dk_b, "db")} | {ratio(ra, dk_a, "da")} |')
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float('nan')
print()
for k, name in (('pp', 'PostgreSQL after/before (the machine drift)'), ('ab', 'RespSQL after/before'), ('pb', 'RespSQL/PostgreSQL before'), ('pa', 'RespSQL/PostgreSQL after'), ('db', 'RespSQL/DuckDB before'), ('da', 'RespSQL/DuckDB after'), ('cpb', 'RespSQL/PostgreSQL before, queries answered in both runs'), ('cpa', 'RespSQL/PostgreSQL after, queries answered in both runs'), ('cdb', 'RespSQL/DuckDB before, queries answered in both runs'), ('cda', 'RespSQL/DuckDB after, queries answered in both runs')):
    print(f'- geometric mean {name}: {gm(g[k]):.3f} over {len(g[k])} queries')
