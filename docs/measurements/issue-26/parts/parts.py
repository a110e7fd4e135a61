#!/usr/bin/env python3
# parts.py EXPERT.jsonl[.gz][,..] HARD.jsonl[.gz][,..] [OLD.jsonl[.gz],..]
# Entry 0 of the lead's games (conductor selfplay --log) against entry 0
# of an all-hard run's on the same deals (seed, game): where the lead's
# points come from, paired game by game. OLD: a log of the same deals
# written before, to check that they replay identically.
import gzip,json,math,sys
def load(ps):
    d={}
    for p in ps.split(','):
        for l in (gzip.open(p,'rt') if p.endswith('.gz') else open(p)):
            r=json.loads(l); d[(r['seed'],r['game'])]=r
    return d
e=load(sys.argv[1]); h=load(sys.argv[2])
if len(sys.argv)>3:
    o=load(sys.argv[3]); same=sum(1 for k in e if k in o and o[k]['score']==e[k]['score'])
    print('games replayed identically: %d of %d'%(same,len(e)))
ks=sorted(set(e)&set(h))
def ms(x):
    m=sum(x)/len(x); v=sum((y-m)**2 for y in x)/(len(x)-1); return m,math.sqrt(v/len(x))
print('| part | expert | hard in its seat | paired difference |')
print('|---|---|---|---|')
for name,f in [('win share',lambda r:100*r['win'][0]),('score',lambda r:r['score'][0]),('routes',lambda r:r['parts'][0]['routes']),('tickets',lambda r:r['parts'][0]['tickets']),('bonus',lambda r:r['parts'][0]['bonus']),('stations kept',lambda r:r['parts'][0]['other']),('trains left',lambda r:r['parts'][0]['trains_left']),('tickets done',lambda r:r['completed'][0]),('tickets failed',lambda r:r['failed'][0])]:
    d=[f(e[k])-f(h[k]) for k in ks]
    m,se=ms(d)
    print(f"| {name} | {sum(f(e[k]) for k in ks)/len(ks):.2f} | {sum(f(h[k]) for k in ks)/len(ks):.2f} | {m:+.2f} ± {se:.2f} |")
print(len(ks),'games')
