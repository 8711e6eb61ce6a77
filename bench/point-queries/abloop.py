#!/usr/bin/env python3
"""A/B of queries on two loaded RespSQL servers: alternated rounds (A B B A ...), per run the
server's SLOWLOG time (us) and the CPU time of its event-loop thread (respsql-loop-*, from
/proc/PID/task/TID/schedstat: excludes JIT compiler and GC threads, insensitive to waiting for a core).
usage: abloop.py PORT_A PID_A PORT_B PID_B ROUNDS RUNS q25,q02"""
import os, sys, time, statistics
AB = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../groupby/ab.py')
ns = {'__file__': AB}
exec(compile(open(AB).read().replace('\nmain()\n', '\n'), 'ab', 'exec'), ns)
ns['CONST'].update({'PK_CUSTOMER': '166666', 'PK_EMAIL': 'user166666@mail6.example', 'NEEDLE_CUSTOMER': '250007'})
def loop_tid(pid):
    for t in os.listdir(f'/proc/{pid}/task'):
        if open(f'/proc/{pid}/task/{t}/comm').read().startswith('respsql-loop'):
            return t
def cpu(pid, tid):
    return int(open(f'/proc/{pid}/task/{tid}/schedstat').read().split()[0])
pa, pida, pb, pidb, rounds, runs, qs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7].split(',')
srv = {'A': (ns['conn'](pa), pida, loop_tid(pida)), 'B': (ns['conn'](pb), pidb, loop_tid(pidb))}
for c, _, _ in srv.values():
    ns['call'](c, 'CONFIG', 'SET', 'slowlog-log-slower-than', '0')
res = {}
print('load average at start:', open('/proc/loadavg').read().strip())
order = []
for r in range(rounds):
    order += ['A', 'B'] if r % 2 == 0 else ['B', 'A']
for i, k in enumerate(order):
    c, pid, tid = srv[k]
    for q in qs:
        text = ns['sql'](q)
        for j in range(runs):
            ns['call'](c, 'SLOWLOG', 'RESET')
            c0 = cpu(pid, tid)
            t0 = time.perf_counter()
            ns['call'](c, 'SQL', text)
            ms = (time.perf_counter() - t0) * 1e3
            cus = (cpu(pid, tid) - c0) / 1e3
            sl = int(ns['call'](c, 'SLOWLOG', 'GET', '1')[0][2])
            print(f'raw round {i} server {k} {q} run {j} wall {ms:.3f} ms server {sl} us loop-cpu {cus:.1f} us')
            if j > 0:
                res.setdefault((q, k), []).append((ms, sl, cus))
print('load average at end:', open('/proc/loadavg').read().strip())
print('| query | A server us | B server us | B/A | A loop-cpu us | B loop-cpu us | B/A | A wall ms | B wall ms |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
for q in qs:
    m = {k: [statistics.median(x[i] for x in res[(q, k)]) for i in range(3)] for k in 'AB'}
    print(f"| {q} | {m['A'][1]:.0f} | {m['B'][1]:.0f} | {m['B'][1]/m['A'][1]:.2f} | {m['A'][2]:.0f} | {m['B'][2]:.0f} | {m['B'][2]/m['A'][2]:.2f} | {m['A'][0]:.2f} | {m['B'][0]:.2f} |")
