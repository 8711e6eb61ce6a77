# Sums JFR's jdk.ObjectAllocationSample weights (from `jfr print --events jdk.ObjectAllocationSample rec.jfr`)
# per thread and, for the background-query workers, per (class, top three frames).
import collections, gzip, re, sys
txt = gzip.open(sys.argv[1], 'rt').read()
agg = collections.Counter(); thr = collections.Counter()
for e in txt.split('jdk.ObjectAllocationSample {')[1:]:
    w = re.search(r'weight = ([\d.]+) (\w+)', e)
    if not w:
        continue
    v = float(w.group(1)) * {'bytes': 1, 'kB': 1e3, 'MB': 1e6, 'GB': 1e9}.get(w.group(2), 1)
    t = re.search(r'eventThread = "([^"]+)"', e).group(1)
    cls = re.search(r'objectClass = (\S+)', e).group(1)
    st = re.findall(r'^\s+([\w.$<>]+\(.*?\))\s+line:', e, re.M)
    top = ' <- '.join(s.split('(')[0].split('.')[-2] + '.' + s.split('(')[0].split('.')[-1] for s in st[:3])
    thr[t] += v
    if t.startswith('respsql-query'):
        agg[(cls, top)] += v
for k, v in thr.most_common(8):
    print('%8.1f MB' % (v / 1e6), k)
print()
for k, v in agg.most_common(25):
    print('%8.1f MB' % (v / 1e6), k)
