#!/usr/bin/env python3
"""Pools the JMH rounds of the given run directories: per benchmark, the median old and new
ns/op over all rounds, each round's old/new ratio (above 1: new is faster), and their median.
Prints a markdown table.  Usage: bench/index-memory/pool.py DIR..."""
import glob, json, re, statistics, sys

res = {}
for d in sys.argv[1:]:
    for f in sorted(glob.glob(f"{d}/jmh-r*-*.json")):
        m = re.search(r"jmh-r(\d+)-(old|new)\.json$", f)
        for b in json.load(open(f)):
            name = b["benchmark"].split(".")[-1]
            res.setdefault(name, {}).setdefault((d, int(m.group(1))), {})[m.group(2)] = b["primaryMetric"]["score"]
print("| benchmark | old ns/op (median) | new ns/op (median) | old/new per round | median ratio | rounds |")
print("|---|---|---|---|---|---|")
for name in sorted(res):
    by = {k: v for k, v in res[name].items() if "old" in v and "new" in v}
    keys = sorted(by)
    ratios = [by[k]["old"] / by[k]["new"] for k in keys]
    old = statistics.median(by[k]["old"] for k in keys)
    new = statistics.median(by[k]["new"] for k in keys)
    print(f"| {name} | {old:,.1f} | {new:,.1f} | {' '.join(f'{r:.2f}' for r in ratios)} | {statistics.median(ratios):.2f} | {len(keys)} |")
