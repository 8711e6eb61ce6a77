#!/usr/bin/env python3
"""The RespSQL figures of one `gen-benchmark write-bench` result directory, as rows of
scripts/lib/ab_ratios.py's long table (round, item, metric, name, value); used by
scripts/write-bench.sh with NAME=jar arguments.

    ab_write_extract.py DIR ROUND NAME >> ab-long.tsv

Section 1: U1/U2/U3 single timings (s1-timings.tsv) and the repeated U1's p50/p99
(s1-u1x<R>-respsql-<N>.samples.txt); section 2: each shape's p50/p99 (s2-<shape>-respsql.samples.txt);
section 3: per setting, phase and read the median of the rounds' p50 (s3-<setting>-respsql-rounds.tsv).
All in microseconds.
"""
import csv
import glob
import os
import re
import statistics
import sys


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(p / 100 * len(xs) + 0.5)) - 1))] if xs else float('nan')


def samples(path):
    with open(path) as f:
        return [int(x) for x in f if x.strip() and not x.startswith('#')]


d, rnd, name = sys.argv[1:4]
rows = []
t = os.path.join(d, 's1-timings.tsv')
if os.path.exists(t):
    for r in csv.DictReader(open(t), delimiter='\t'):
        if r['target'] == 'RespSQL':
            rows.append((f"s1 {int(r['rows']):,} rows", f"{r['statement']} us (one)", int(r['nanos']) / 1e3))
for p in sorted(glob.glob(os.path.join(d, 's1-u1x*-respsql-*.samples.txt')), key=lambda p: int(re.findall(r'-(\d+)\.samples', p)[0])):
    n = int(re.findall(r'-(\d+)\.samples', p)[0])
    xs = samples(p)
    rows.append((f"s1 {n:,} rows", "U1 repeated p50 us", pct(xs, 50) / 1e3))
    rows.append((f"s1 {n:,} rows", "U1 repeated p99 us", pct(xs, 99) / 1e3))
for p in sorted(glob.glob(os.path.join(d, 's2-*-respsql.samples.txt'))):
    shape = os.path.basename(p)[3:-len('-respsql.samples.txt')]
    xs = samples(p)
    rows.append((f"s2 {shape}", "p50 us", pct(xs, 50) / 1e3))
    rows.append((f"s2 {shape}", "p99 us", pct(xs, 99) / 1e3))
for p in sorted(glob.glob(os.path.join(d, 's3-*-respsql-rounds.tsv'))):
    setting = os.path.basename(p)[3:-len('-respsql-rounds.tsv')]
    by = {}
    for r in csv.DictReader((x for x in open(p) if not x.startswith('#')), delimiter='\t'):
        by.setdefault((r['phase'], r['query']), []).append(float(r['p50_us']))
    for (phase, query), v in by.items():
        rows.append((f"s3 {setting} {query}", f"{phase} p50 us (median of rounds)", statistics.median(v)))
for item, metric, v in rows:
    print(f"{rnd}\t{item}\t{metric}\t{name}\t{v:.3f}")
