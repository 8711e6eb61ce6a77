#!/usr/bin/env python3
"""Summary of a side-by-side run (scripts/wire-bench.sh, scripts/vs-redis.sh).

    bench-summary.py RESULTS.tsv NAME... [--label WORKLOAD=TEXT ...] [--table]

RESULTS.tsv has the columns round, server, workload, rps, cpu_us, loop_cpu_us; NAME... are the
servers, the reference first (redis). Per workload, in the order they first appear: the figures
of every round, then for every server against the reference (and every later server against the
first non-reference one, e.g. after/before) the ratio of each round and their median, for the
rate and for the CPU time per request. --table adds a Markdown table of the medians at the end.
"""
import argparse
import csv
import statistics

parser = argparse.ArgumentParser()
parser.add_argument('results')
parser.add_argument('names', nargs='+')
parser.add_argument('--label', action='append', default=[])
parser.add_argument('--table', action='store_true')
args = parser.parse_args()
names = args.names
labels = dict(x.split('=', 1) for x in args.label)

rows = list(csv.DictReader(open(args.results), delimiter='\t'))
rps = {(r['round'], r['server'], r['workload']): float(r['rps']) for r in rows}
cpu = {(r['round'], r['server'], r['workload']): float(r['cpu_us']) for r in rows}
loop = {(r['round'], r['server'], r['workload']): float(r['loop_cpu_us']) for r in rows}
rounds = sorted({r['round'] for r in rows}, key=int)
workloads = list(dict.fromkeys(r['workload'] for r in rows))
pairs = [(n, names[0]) for n in names[1:]] + [(n, names[1]) for n in names[2:]]


def ratios(table, a, b, w):
    return [table[(r, a, w)] / table[(r, b, w)] if table[(r, b, w)] else float('nan') for r in rounds]


medians = {}
for w in workloads:
    print(f"{w}: requests/s per round " + "; ".join(
        f"{n} " + " ".join(f"{rps[(r, n, w)]:.0f}" for r in rounds) for n in names))
    print(f"{w}: server CPU us/request per round " + "; ".join(
        f"{n} " + " ".join(f"{cpu[(r, n, w)]:.3f}" for r in rounds) for n in names))
    print(f"{w}: serving thread CPU us/request per round " + "; ".join(
        f"{n} " + " ".join(f"{loop[(r, n, w)]:.3f}" for r in rounds) for n in names))
    for a, b in pairs:
        x = ratios(rps, a, b, w)
        y = ratios(cpu, a, b, w)
        z = ratios(loop, a, b, w)
        medians[(w, a, b)] = (x, statistics.median(x), y, statistics.median(y))
        print(f"  {a}/{b} rate per round: " + " ".join(f"{v:.3f}" for v in x)
              + f"  median {statistics.median(x):.3f}"
              + f" | process CPU per request: " + " ".join(f"{v:.3f}" for v in y)
              + f"  median {statistics.median(y):.3f}"
              + f" | serving thread CPU per request: " + " ".join(f"{v:.3f}" for v in z)
              + f"  median {statistics.median(z):.3f}")

if args.table:
    print()
    head = "| workload |"
    rule = "|---|"
    for a, b in pairs:
        head += f" {a}/{b} rate, median (per round) | {a}/{b} CPU per request, median (per round) |"
        rule += "---|---|"
    print(head)
    print(rule)
    for w in workloads:
        line = f"| {labels.get(w, w)} |"
        for a, b in pairs:
            x, mx, y, my = medians[(w, a, b)]
            line += (f" {mx:.2f} ({' '.join(f'{v:.2f}' for v in x)}) |"
                     f" {my:.2f} ({' '.join(f'{v:.2f}' for v in y)}) |")
        print(line)
