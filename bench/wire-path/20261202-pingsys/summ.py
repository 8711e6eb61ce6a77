import sys,statistics as st
for f in sys.argv[1:]:
    d={}
    for line in open(f):
        if line.startswith('#'): continue
        p=line.split('\t'); r=int(p[0]); l=p[1]
        d.setdefault(l,{})[r]=(float(p[4].split()[1]),float(p[5].split()[1]))
    for i,name in ((0,'proc'),(1,'thread')):
        b=[d['base'][r][i] for r in sorted(d['base'])]; n=[d['new'][r][i] for r in sorted(d['new'])]
        ratios=[n[k]/b[k] for k in range(len(b))]
        print('%s %-6s base median %.3f new median %.3f  new/base per round median %.3f (min %.3f max %.3f; new lower in %d of %d)'%(f,name,st.median(b),st.median(n),st.median(ratios),min(ratios),max(ratios),sum(x<1 for x in ratios),len(ratios)))
