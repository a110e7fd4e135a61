# margins.py LOG[,LOG...]: how far the expert lost by, and where the winner's points came from in those games.
import json,gzip,sys,collections
def games(fs):
    for f in fs.split(','):
        op = gzip.open if f.endswith('.gz') else open
        for l in op(f,'rt'):
            yield json.loads(l)
b=collections.Counter(); n=0; parts=collections.defaultdict(float); wparts=collections.defaultdict(float); nl=0
for g in games(sys.argv[1]):
    e=g['levels'].index('expert') if 'expert' in g['levels'] else 0
    sc=g['score']; other=max(s for i,s in enumerate(sc) if i!=e)
    m=sc[e]-other; n+=1
    if g['win'][e]: b['win']+=1; continue
    nl+=1
    for k,lim in [(2,'<=2'),(5,'3-5'),(10,'6-10'),(20,'11-20'),(999,'>20')]:
        if -m<=k: b[lim]+=1; break
    w=max(range(len(sc)),key=lambda i:sc[i])
    for k in ('routes','tickets','bonus'):
        parts[k]+=g['parts'][e][k]; wparts[k]+=g['parts'][w][k]
    parts['tl']+=g['parts'][e]['trains_left']; wparts['tl']+=g['parts'][w]['trains_left']
    parts['done']+=g['completed'][e]; wparts['done']+=g['completed'][w]
    parts['fail']+=g['failed'][e]; wparts['fail']+=g['failed'][w]
print(n, dict(b))
print('losses: expert', {k:round(v/nl,2) for k,v in parts.items()})
print('losses: winner', {k:round(v/nl,2) for k,v in wparts.items()})
