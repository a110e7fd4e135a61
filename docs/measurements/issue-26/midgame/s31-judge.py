import sys, math, collections
rows=[l.split() for l in open(sys.argv[1])]
seats=int(sys.argv[2])
def solve(A,b):
    n=len(A); M=[A[i][:]+[b[i]] for i in range(n)]
    for c in range(n):
        p=max(range(c,n),key=lambda r:abs(M[r][c])); M[c],M[p]=M[p],M[c]
        for r in range(n):
            if r!=c:
                f=M[r][c]/M[c][c]
                for k in range(c,n+1): M[r][k]-=f*M[c][k]
    return [M[i][n]/M[i][i] for i in range(n)]
def ols(X,y):
    k=len(X[0]); A=[[sum(x[i]*x[j] for x in X) for j in range(k)] for i in range(k)]; b=[sum(x[i]*yy for x,yy in zip(X,y)) for i in range(k)]
    return solve(A,b)
by=collections.defaultdict(list)
for r in rows:
    th,g,s=int(r[0]),int(r[1]),int(r[2]); now,tk,rt,sp,tr=map(float,r[3:8]); fin,w=float(r[8]),int(r[9])
    by[th].append((g,s,now,tk,rt,sp,tr,fin,w))
def ll_of(pts,scale):
    l=0
    for d,w in pts:
        q=1/(1+math.exp(-(d/scale)+math.log(seats-1)))
        q=min(max(q,1e-6),1-1e-6); l+=w*math.log(q)+(1-w)*math.log(1-q)
    return l/len(pts)
def evaluate(data,f):
    games=collections.defaultdict(dict)
    for x in data: games[x[0]][x[1]]=(f(x),x[8])
    pts=[]
    for g,d in games.items():
        if len(d)<seats: continue
        for s,(e,w) in d.items():
            pts.append((e-max(d[q][0] for q in d if q!=s),w))
    best=max([4,6,8,10,12,15,20,25,30,40],key=lambda sc:ll_of(pts,sc))
    return best,ll_of(pts,best)
for th in sorted(by,reverse=True):
    d=by[th]
    X=[[1,x[2],x[3],x[4],x[5],x[6]] for x in d]; y=[x[7] for x in d]
    c=ols(X,y)
    res=[yy-sum(ci*xi for ci,xi in zip(c,x)) for x,yy in zip(X,y)]
    sd=math.sqrt(sum(r*r for r in res)/len(res))
    cur=lambda x: x[2]+x[3]+x[4]+1.6*x[5]
    fit=lambda x: sum(ci*xi for ci,xi in zip(c,[1,x[2],x[3],x[4],x[5],x[6]]))
    simple=lambda x: x[2]+x[3]+x[4]+2.0*(x[6])
    nowtr=lambda x: x[2]+1.8*x[6]
    sdc=math.sqrt(sum((x[7]-cur(x))**2 for x in d)/len(d)-(sum(x[7]-cur(x) for x in d)/len(d))**2)
    print(f"th {th}: n {len(d)} fit 1,now,tickets,routes,spare,trains = "+" ".join(f"{v:.2f}" for v in c)+f" resid sd {sd:.1f} (current sd {sdc:.1f})")
    for name,f in [("current",cur),("fit",fit),("now+tk+rt+2*trains",simple),("now+1.8*trains",nowtr)]:
        sc,l=evaluate(d,f); print(f"    {name:22s} scale {sc} ll {l:.4f}")
    pr=(1/seats)*math.log(1/seats)+(1-1/seats)*math.log(1-1/seats); print(f"    prior ll {pr:.4f}")
