"""Counts the calls jdb traced between Trace.mark() and Trace.done() (scripts/call-trace.sh) by layer."""
import re
import sys
from collections import Counter

# The layers, top down, as the packages depend on each other (docs/engine.md, "The path of one UPDATE").
LAYER = {'pgwire': 11, 'net': 10, 'command': 9, 'replication': 8, 'persist': 7, 'engine': 6, 'plan': 5,
         'exec': 4, 'info': 3, 'expr': 3, 'pubsub': 3, 'storage': 2, 'protocol': 2,
         'index': 1, 'config': 1, 'client': 1, 'sql': 1, 'result': 1}

def lines(path):
    """The trace's lines, an event that the program's own output split in two joined again (a loaded machine)."""
    held = None
    for line in open(path):
        if held is not None:
            if line.startswith('"thread='):
                line = held.rstrip('\n') + ' ' + line
            else:
                yield held
            held = None
        if line.startswith('Method ') and '"thread=' not in line:
            held = line
            continue
        yield line
    if held is not None:
        yield held


events, on = [], False
for line in lines(sys.argv[1]):
    m = re.search(r'Method (entered|exited).*"thread=main", ([\w.$]+)\.([\w$<>]+)\(', line)
    if not m:
        continue
    kind, cls, meth = m.groups()
    if cls == 'Trace':
        on = (meth == 'mark' and kind == 'exited') or (on and meth != 'done')
        continue
    if on:
        pkg = cls.split('.')[2] if cls.startswith('io.respsql.') else 'jdk'
        events.append((kind == 'entered', pkg))

calls = cross = climbs = reentries = 0
stack, seen, sequence, reentered = [], set(), [], Counter()
for entered, pkg in events:
    if not entered:
        if stack:
            stack.pop()
        continue
    calls += 1
    caller = stack[-1] if stack else None
    if pkg != 'jdk' and caller not in (None, 'jdk') and pkg != caller:
        cross += 1
        climbs += LAYER.get(pkg, 0) > LAYER.get(caller, 0)
    if pkg != 'jdk':
        if pkg in seen and pkg not in stack:
            reentries += 1
            reentered[pkg] += 1
        seen.add(pkg)
        if not sequence or sequence[-1] != pkg:
            sequence.append(pkg)
    stack.append(pkg)
print(f"calls: {calls}; between packages: {cross}; climbing up a layer: {climbs}; "
      f"into a package already left: {reentries} {dict(reentered)}")
print("packages in order:", " -> ".join(sequence))
