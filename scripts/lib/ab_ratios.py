#!/usr/bin/env python3
"""The after/before table of an A/B run of several RespSQL builds (scripts/large-update-test.sh,
scripts/write-bench.sh with NAME=jar arguments).

    ab_ratios.py LONG.tsv NAME... [--title TEXT] [--note TEXT ...] [--tsv RATIOS.tsv]

LONG.tsv has the columns round, item, metric, name, value (one figure of one build; a missing
figure is an empty value). NAME... are the builds, the reference first (before). Per item and
metric, in the order they first appear: each build's figure (the median over rounds when there
are several), then for every later build the ratio later/first of every round and their median.
The ratios are of the figures as they are: for a time (ms, us) below 1 means the later build is
faster, for a rate (/s) above 1 does. --tsv writes the ratios one per line (item, metric, build,
reference, per-round ratios, median).
"""
import argparse
import csv
import math
import statistics


def fmt(v):
    if v is None or math.isnan(v):
        return '-'
    a = abs(v)
    return f'{v:.0f}' if a >= 1000 else f'{v:.2f}' if a >= 10 else f'{v:.3f}'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('long')
    ap.add_argument('names', nargs='+')
    ap.add_argument('--title', default='')
    ap.add_argument('--note', action='append', default=[])
    ap.add_argument('--tsv')
    args = ap.parse_args()
    names = args.names
    ref = names[0]
    val = {}
    rounds = []
    keys = []
    with open(args.long) as f:
        for r in csv.DictReader(f, delimiter='\t'):
            k = (r['item'], r['metric'])
            if k not in keys:
                keys.append(k)
            if r['round'] not in rounds:
                rounds.append(r['round'])
            v = r['value'].strip()
            try:
                val[(r['round'], k, r['name'])] = float(v) if v not in ('', 'null', '-') else float('nan')
            except ValueError:
                val[(r['round'], k, r['name'])] = float('nan')

    def med(xs):
        xs = [x for x in xs if not math.isnan(x)]
        return statistics.median(xs) if xs else float('nan')

    head = ['item', 'metric'] + names + [f'{n}/{ref} median (per round)' for n in names[1:]]
    table = []
    out = []
    for k in keys:
        row = [k[0], k[1]]
        for n in names:
            row.append(fmt(med([val.get((r, k, n), float('nan')) for r in rounds])))
        for n in names[1:]:
            rs = []
            for r in rounds:
                a, b = val.get((r, k, n), float('nan')), val.get((r, k, ref), float('nan'))
                rs.append(a / b if b and not math.isnan(a) and not math.isnan(b) else float('nan'))
            m = med(rs)
            row.append(f'{fmt(m)} ({" ".join(fmt(x) for x in rs)})' if len(rs) > 1 else fmt(m))
            out.append([k[0], k[1], n, ref, ' '.join(fmt(x) for x in rs), fmt(m)])
        table.append(row)
    width = [max(len(str(x)) for x in col) for col in zip(head, *table)]
    if args.title:
        print(args.title)
    for line in [head] + table:
        print('  '.join(str(x).rjust(w) if i >= 2 else str(x).ljust(w) for i, (x, w) in enumerate(zip(line, width))).rstrip())
    for n in args.note:
        print(n)
    if args.tsv:
        with open(args.tsv, 'w') as f:
            f.write('item\tmetric\tbuild\treference\tratio_per_round\tratio_median\n')
            for o in out:
                f.write('\t'.join(o) + '\n')


if __name__ == '__main__':
    main()
