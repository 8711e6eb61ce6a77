#!/usr/bin/env python3
"""Per workload of update-goals-*.txt: median over rounds of p50 round trip and of the server's ms
per call (commandstats) for old and new, and new/old (below 1: new is faster).
Usage: summarize.py FILE..."""
import statistics
import sys
from collections import defaultdict

for path in sys.argv[1:]:
    rows = defaultdict(lambda: defaultdict(list))
    order = []
    for line in open(path):
        if not line.startswith("round "):
            continue
        _, server, work, p50, p90, srv = line.rstrip("\n").split("\t")
        if work not in order:
            order.append(work)
        rows[work][server].append((float(p50), float(srv)))
    print("## " + path)
    print("| workload | old p50 ms | new p50 ms | old server ms | new server ms | new/old (server) |")
    print("|---|---|---|---|---|---|")
    for w in order:
        o = rows[w]["old"]
        n = rows[w]["new"]
        op = statistics.median(x[0] for x in o)
        np_ = statistics.median(x[0] for x in n)
        os_ = statistics.median(x[1] for x in o)
        ns = statistics.median(x[1] for x in n)
        print("| %s | %.3f | %.3f | %.3f | %.3f | %.2f |" % (w, op, np_, os_, ns, ns / os_ if os_ else float("nan")))
    print()
