#!/usr/bin/env python3
"""A/B of seed 004 queries on two RespSQL servers already loaded with the same data:
rounds alternate A B B A ..., each round runs every query RUNS times (first discarded),
reports per query the median client round-trip ms per server and the ratio B/A, and the same
for the server process's CPU time per query (all its threads, from /proc/PID/task/*/schedstat:
less sensitive than wall time to the other processes of a loaded machine).
--warmup N: first runs every query N times on each server, unmeasured (neither is measured while
still compiling or collecting after its load). --check: compares A's and B's replies (the first
run of each round) and prints per query whether they are all equal.
Started by scripts/ab-queries.sh (which starts and loads the servers).
usage: ab_queries.py [--warmup N] [--check] PORT_A PID_A PORT_B PID_B ROUNDS RUNS q14,q15,... > raw.txt"""
import argparse, os, socket, statistics, sys, time

SQL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../gen-benchmark/src/main/resources/io/respsql/bench/analytics/seed004')
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
    ap = argparse.ArgumentParser(description='A/B of seed 004 queries on two loaded RespSQL servers')
    ap.add_argument('--warmup', type=int, default=0)
    ap.add_argument('--check', action='store_true')
    for name in ('port_a', 'pid_a', 'port_b', 'pid_b', 'rounds', 'runs'):
        ap.add_argument(name, type=int)
    ap.add_argument('queries')
    o = ap.parse_args()
    rounds, runs, qs = o.rounds, o.runs, o.queries.split(',')
    cs = {'A': conn(o.port_a), 'B': conn(o.port_b)}
    pids = {'A': o.pid_a, 'B': o.pid_b}
    replies = {q: set() for q in qs}
    times = {(q, k): [] for q in qs for k in cs}
    cpus = {(q, k): [] for q in qs for k in cs}
    order = []
    for r in range(rounds):
        order += ['A', 'B'] if r % 2 == 0 else ['B', 'A']
    print('load average at start:', open('/proc/loadavg').read().strip())
    for k in ('A', 'B'):
        for q in qs:
            for _ in range(o.warmup):
                call(cs[k], 'SQL', sql(q))
    for i, k in enumerate(order):
        for q in qs:
            text = sql(q)
            for j in range(runs):
                c0 = cpu_ns(pids[k])
                t0 = time.perf_counter()
                reply = call(cs[k], 'SQL', text)
                if o.check and j == 0:
                    replies[q].add(repr(reply))
                ms = (time.perf_counter() - t0) * 1e3
                cms = (cpu_ns(pids[k]) - c0) / 1e6
                if j > 0:
                    times[(q, k)].append(ms)
                    cpus[(q, k)].append(cms)
                print(f'raw round {i} server {k} {q} run {j} {ms:.3f} ms cpu {cms:.3f} ms', flush=True)
    print('load average at end:', open('/proc/loadavg').read().strip())
    print('| query | A wall ms | B wall ms | B/A wall | A cpu ms | B cpu ms | B/A cpu |')
    print('|---|---:|---:|---:|---:|---:|---:|')
    for q in qs:
        a = statistics.median(times[(q, 'A')])
        b = statistics.median(times[(q, 'B')])
        ca = statistics.median(cpus[(q, 'A')])
        cb = statistics.median(cpus[(q, 'B')])
        print(f'| {q} | {a:.2f} | {b:.2f} | {b / a:.2f} | {ca:.2f} | {cb:.2f} | {cb / ca:.2f} |')
    if o.check:
        for q in qs:
            n = len(replies[q])
            print(f'replies of {q}: ' + ('all equal' if n == 1 else f'{n} DIFFERENT replies'))

main()
