#!/usr/bin/env python3
"""Summarises scripts/update-goals-bench.sh raw output: per workload, old and new p50 (round trip)
and server ms per call for every round, and the per-round old/new ratio of each.
Usage: update_goals_summary.py RAW.txt"""
import collections
import statistics
import sys

rows = collections.defaultdict(dict)  # workload -> (round, server) -> (p50, p90, server_ms)
order = []
for line in open(sys.argv[1]):
    if not line.startswith("round "):
        continue
    head, server, work, p50, p90, srv = line.rstrip("\n").split("\t")
    r = int(head.split()[1])
    if work not in order:
        order.append(work)
    rows[work][(r, server)] = (float(p50), float(p90), float(srv))

for work in order:
    d = rows[work]
    rounds = sorted({r for r, _ in d})
    print(work)
    rt, sv = [], []
    for r in rounds:
        o, n = d.get((r, "old")), d.get((r, "new"))
        if not o or not n:
            continue
        rt.append(o[0] / n[0])
        sv.append(o[2] / n[2])
        print("  round %d: p50 old %9.3f new %8.3f ms (old/new %6.2f) | server old %9.3f new %8.3f ms (old/new %6.2f)"
              % (r, o[0], n[0], o[0] / n[0], o[2], n[2], o[2] / n[2]))
    if rt:
        print("  median old/new: round trip %.2f, server %.2f" % (statistics.median(rt), statistics.median(sv)))


def ratio(server, a, b):
    """Per round: workload a's figure over workload b's, on one server (IN list over range)."""
    out = []
    for r in sorted({r for r, s in rows[a] if s == server}):
        x, y = rows[a].get((r, server)), rows[b].get((r, server))
        if x and y:
            out.append((x[0] / y[0], x[2] / y[2]))
    return out


pairs = [("SELECT id, v FROM big WHERE id IN (b+1, ..., b+1000)", "SELECT id, v FROM big WHERE id BETWEEN b+1 AND b+1000"),
         ("UPDATE big SET v = v + 1 WHERE id IN (b+1, ..., b+1000)", "UPDATE big SET v = v + 1 WHERE id BETWEEN b+1 AND b+1000")]
print()
for a, b in pairs:
    if a in rows and b in rows:
        for server in ("old", "new"):
            rs = ratio(server, a, b)
            print("%s IN/range %-6s round trip %s | server %s" % (a.split()[0], server,
                  " ".join("%.2f" % x for x, _ in rs), " ".join("%.2f" % y for _, y in rs)))
