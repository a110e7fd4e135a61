#!/usr/bin/env python3
# tpair.py NEW.log OLD.log: TestTuningMatch logs ("game win score"), paired by game.
import gzip,math,sys
def load(f):
    o=gzip.open(f,'rt') if f.endswith('.gz') else open(f)
    d={}
    for l in o:
        p=l.split()
        if len(p)==3 and p[0].isdigit(): d[int(p[0])]=(float(p[1]),int(p[2]))
    return d
a=load(sys.argv[1]); b=load(sys.argv[2])
ks=sorted(set(a)&set(b))
def ms(x):
    n=len(x);m=sum(x)/n;v=sum((y-m)**2 for y in x)/(n-1);return m,math.sqrt(v/n)
w,ws=ms([a[k][0] for k in ks]); d,ds=ms([a[k][0]-b[k][0] for k in ks]); s,ss=ms([a[k][1]-b[k][1] for k in ks])
print(f"n={len(ks)} new {100*w:.1f}% paired {100*d:+.1f} ± {100*ds:.1f} score {s:+.2f} ± {ss:.2f} changed {sum(a[k][0]!=b[k][0] for k in ks)}")
