#!/usr/bin/env python3
# jpair.py NEW OLD (comma-separated selfplay logs, .jsonl): the expert entry's win and score, paired game by game by each game's seed (arena.gameSeed) and seat.
import sys, json, math
M=2**64
def gs(seed,i):
    z=(seed+(i+1)*0x9e3779b97f4a7c15)%M
    z=((z^(z>>30))*0xbf58476d1ce4e5b9)%M
    z=((z^(z>>27))*0x94d049bb133111eb)%M
    return z^(z>>31)
def load(fs):
    d={}
    for f in fs.split(','):
        for l in open(f):
            r=json.loads(l); k=r["levels"].index("expert")
            d[(gs(r["seed"],r["game"]),r["game"]%len(r["levels"]))]=(r["win"][k],r["score"][k],r["completed"][k],r["failed"][k])
    return d
a,b=load(sys.argv[1]),load(sys.argv[2])
ks=[k for k in a if k in b]
def ms(x):
    n=len(x); m=sum(x)/n; v=sum((y-m)**2 for y in x)/(n-1); return m, math.sqrt(v/n)
wa,sa=ms([a[k][0] for k in ks]); wb,sb=ms([b[k][0] for k in ks])
d,se=ms([a[k][0]-b[k][0] for k in ks]); ds,dse=ms([a[k][1]-b[k][1] for k in ks])
print(f"paired n={len(ks)} (new {len(a)}, old {len(b)}): new {100*wa:.1f}±{100*sa:.1f} old {100*wb:.1f}±{100*sb:.1f} diff {100*d:+.1f}±{100*se:.1f} score {ds:+.1f}±{dse:.1f}")
