import sys, re, collections
txt = open(sys.argv[1]).read()
evs = txt.split('jdk.ExecutionSample')
top = collections.Counter(); incl = collections.Counter(); n = 0
for e in evs:
    if 'respsql-loop' not in e: continue
    frames = re.findall(r'^\s+([\w.$<>]+\.[\w$<>]+)\(', e, re.M)
    if not frames: continue
    n += 1
    top[frames[0]] += 1
    for f in set(frames): incl[f] += 1
print('samples', n)
print('--- top frames')
for f, c in top.most_common(40): print(f'{c:5d} {100*c/n:5.1f}% {f}')
print('--- inclusive')
for f, c in incl.most_common(60): print(f'{c:5d} {100*c/n:5.1f}% {f}')
