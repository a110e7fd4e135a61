import sys,math
# pool.py d1,se1 d2,se2 ... : inverse-variance pooled
xs=[tuple(map(float,a.split(','))) for a in sys.argv[1:]]
w=[1/s**2 for _,s in xs]; m=sum(wi*d for wi,(d,_) in zip(w,xs))/sum(w)
print(f"pooled {m:+.2f} ± {1/math.sqrt(sum(w)):.2f}")
