#!/usr/bin/env python3
"""A/B of seed 004 queries on two RespSQL servers already loaded with the same data:
rounds alternate A B B A ..., each round runs every query RUNS times (first discarded),
reports per query the median client round-trip ms per server and the ratio B/A, and the same
for the server process's CPU time per query (all its threads, from /proc/PID/task/*/schedstat:
less sensitive than wall time to the other processes of a loaded machine).
usage: ab.py PORT_A PID_A PORT_B PID_B ROUNDS RUNS q14,q15,... > raw.txt"""
import os, socket, statistics, sys, time

SQL_DIR = os.path.join(os.path.dirname(__file__), '../../../gen-benchmark/src/main/resources/io/respsql/bench/analytics/seed004')
CONST = {'PK_CUSTOMER': '50000', 'PK_EMAIL': 'user50000@mail0.example', 'NEEDLE_CUSTOMER': '75007', 'Q17_THRESHOLD': '0'}

def conn(port):
    s = socket.create_connection(('127.0.0.1', port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s, s.makefile('rb')

def read(f):
    line = f.readline()
    t = line[:1]
    if t in (b'+', b':'):
        return line[1:-2]
    if t == b'-':
        raise RuntimeError(line.decode())
    if t == b'$':
        n = int(line[1:-2])
        if n < 0:
            return None
        d = f.read(n + 2)
        return d[:-2]
    if t in (b'*', b'%', b'~'):
        n = int(line[1:-2])
        if n < 0:
            return None
        return [read(f) for _ in range(n * (2 if t == b'%' else 1))]
    if t == b'_':
        return None
    return line

def call(c, *args):
    s, f = c
    out = b'*%d\r\n' % len(args)
    for a in args:
        b = a.encode()
        out += b'$%d\r\n%s\r\n' % (len(b), b)
    s.sendall(out)
    return read(f)

def sql(name):
    q = open(os.path.join(SQL_DIR, name + '.sql')).read().strip().rstrip(';')
    for k, v in CONST.items():
        q = q.replace('${' + k + '}', v)
    return q

def cpu_ns(pid):
    total = 0
    for t in os.listdir(f'/proc/{pid}/task'):
        try:
            total += int(open(f'/proc/{pid}/task/{t}/schedstat').read().split()[0])
        except OSError:
            pass
    return total

def main():
    pa, pida, pb, pidb = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rounds, runs, qs = int(sys.argv[5]), int(sys.argv[6]), sys.argv[7].split(',')
    cs = {'A': conn(pa), 'B': conn(pb)}
    pids = {'A': pida, 'B': pidb}
    times = {(q, k): [] for q in qs for k in cs}
    cpus = {(q, k): [] for q in qs for k in cs}
    order = []
    answers = {}
    for r in range(rounds):
        order += ['A', 'B'] if r % 2 == 0 else ['B', 'A']
    print('load average at start:', open('/proc/loadavg').read().strip())
    for i, k in enumerate(order):
        for q in qs:
            text = sql(q)
            for j in range(runs):
                c0 = cpu_ns(pids[k])
                t0 = time.perf_counter()
                reply = call(cs[k], 'SQL', text)
                answers.setdefault(q, {}).setdefault(k, repr(reply))
                ms = (time.perf_counter() - t0) * 1e3
                cms = (cpu_ns(pids[k]) - c0) / 1e6
                if j > 0:
                    times[(q, k)].append(ms)
                    cpus[(q, k)].append(cms)
                print(f'raw round {i} server {k} {q} run {j} {ms:.3f} ms cpu {cms:.3f} ms', flush=True)
    print('load average at end:', open('/proc/loadavg').read().strip())
    for q in qs:
        same = answers[q]['A'] == answers[q]['B']
        print(f'answer {q}: A and B', 'identical' if same else 'DIFFER', len(answers[q]['A']), 'chars')
    print('| query | A wall ms | B wall ms | B/A wall | A cpu ms | B cpu ms | B/A cpu |')
    print('|---|---:|---:|---:|---:|---:|---:|')
    for q in qs:
        a = statistics.median(times[(q, 'A')])
        b = statistics.median(times[(q, 'B')])
        ca = statistics.median(cpus[(q, 'A')])
        cb = statistics.median(cpus[(q, 'B')])
        print(f'| {q} | {a:.2f} | {b:.2f} | {b / a:.2f} | {ca:.2f} | {cb:.2f} | {cb / ca:.2f} |')

main()
