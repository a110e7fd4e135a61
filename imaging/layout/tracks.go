package layout

import (
	"math"
	"slices"
	"sort"

	"conductor/data"
)

// How tracks leave a dot. Tracks leaving at a narrow angle would overlap
// near the dot, so, as on the printed boards, they bend apart: each group of
// parallel tracks leaves in a direction turned at most MaxBend from the
// straight line, and the spaces start far enough out (at most MaxEndGap past
// the dot's edge) for every group to fit in its own sector.

// fan is how the tracks leave one dot.
type fan struct {
	start float64         // from the dot's centre to where spaces begin
	dir   map[int]float64 // direction each group leaves in, by group
	ok    bool            // every group fits without overlapping its neighbours
}

// fanEnd is one group's end at a dot.
type fanEnd struct {
	group    int
	straight float64 // direction of the straight line to the other end
	half     float64 // half the group's width, clearance included
}

// groupHalfWidth is half the width of a group of n parallel tracks, plus half
// the clearance kept between tracks and a margin for spaces on a bend, whose
// corners stray a little from the curve.
func groupHalfWidth(n int) float64 {
	return float64(n-1)/2*TrackPitch + SpaceWidth/2 + spaceClearance/2 + 1.5
}

// fanAt works out how the tracks leave dot d: the shortest start distance at
// which every group can be turned into a sector of its own, each turned as
// little as it can.
func fanAt(b *data.Board, d Dot) fan {
	var ends []fanEnd
	seen := map[int]bool{}
	for _, t := range b.Adj[d.Node] {
		tr := &b.Tracks[t]
		if seen[tr.Group] || endArea(b, tr, d.Node) != d.Area {
			continue
		}
		seen[tr.Group] = true
		o := dot(b, tr.Other(d.Node), endArea(b, tr, tr.Other(d.Node)))
		ends = append(ends, fanEnd{group: tr.Group, straight: math.Atan2(o.Y-d.Y, o.X-d.X), half: groupHalfWidth(len(b.Groups[tr.Group]))})
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i].straight < ends[j].straight })
	base := d.R + EndGap
	var dirs []float64
	var ok bool
	start := base
	for ; start <= base+MaxEndGap; start++ {
		if dirs, ok = spread(ends, start); ok {
			break
		}
	}
	if !ok {
		start = base + MaxEndGap
	}
	f := fan{start: start, dir: make(map[int]float64, len(ends)), ok: ok}
	for i, e := range ends {
		f.dir[e.group] = dirs[i]
	}
	return f
}

// spread turns the ends (sorted by direction) apart until neighbours no
// longer share a sector at distance start. A group's spaces beyond that
// distance stay within atan(half/start) of its direction, so sectors that do
// not overlap mean spaces that do not overlap. The turns are the least in the
// sense of least squares: the circle is cut where there is most room, and
// the directions less the sectors they need before them are made
// non-decreasing by pooling adjacent violators. It reports whether the
// sectors fit with no turn beyond MaxBend.
func spread(ends []fanEnd, start float64) ([]float64, bool) {
	n := len(ends)
	dirs := make([]float64, n)
	for i, e := range ends {
		dirs[i] = e.straight
	}
	if n < 2 {
		return dirs, true
	}
	need := make([]float64, n) // between end i and end i+1 (circularly)
	total, cut, room := 0.0, 0, math.Inf(-1)
	for i := range ends {
		j := (i + 1) % n
		need[i] = math.Atan(ends[i].half/start) + math.Atan(ends[j].half/start)
		total += need[i]
		gap := ends[j].straight - ends[i].straight
		if j == 0 {
			gap += 2 * math.Pi
		}
		if gap-need[i] > room {
			cut, room = i, gap-need[i]
		}
	}
	if total > 2*math.Pi {
		return dirs, false
	}
	// walk the ends from just after the cut, unwrapped so angles increase
	a, c := make([]float64, n), make([]float64, n)
	for k := range n {
		i := (cut + 1 + k) % n
		a[k] = ends[i].straight
		if k > 0 {
			for a[k] < a[k-1] {
				a[k] += 2 * math.Pi
			}
			c[k] = c[k-1] + need[(cut+k)%n]
		}
	}
	type block struct {
		sum   float64
		count int
	}
	var blocks []block
	for k := range n {
		blocks = append(blocks, block{a[k] - c[k], 1})
		for len(blocks) > 1 {
			p, q := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if p.sum/float64(p.count) <= q.sum/float64(q.count) {
				break
			}
			blocks = append(blocks[:len(blocks)-2], block{p.sum + q.sum, p.count + q.count})
		}
	}
	// the least-squares turns, kept within MaxBend: clamped between the
	// lowest and the highest directions each end can take (a chain clamped
	// between two chains that keep the sectors apart keeps them apart too)
	lo, hi := make([]float64, n), make([]float64, n)
	for k := range n {
		lo[k] = a[k] - MaxBend
		if k > 0 {
			lo[k] = max(lo[k], lo[k-1]+need[(cut+k)%n])
		}
	}
	for k := n - 1; k >= 0; k-- {
		hi[k] = a[k] + MaxBend
		if k < n-1 {
			hi[k] = min(hi[k], hi[k+1]-need[(cut+k+1)%n])
		}
	}
	ok := true
	k := 0
	for _, bl := range blocks {
		for range bl.count {
			if lo[k] > hi[k]+1e-9 {
				ok = false
			}
			phi := max(lo[k], min(hi[k], bl.sum/float64(bl.count)+c[k]))
			dirs[(cut+1+k)%n] = phi
			k++
		}
	}
	first, last := dirs[(cut+1)%n], dirs[cut]
	for last < first {
		last += 2 * math.Pi
	}
	if first+2*math.Pi-last < need[cut]-1e-9 {
		ok = false
	}
	return dirs, ok
}

// trackPath is the centre line of a group: a cubic curve from the dot of its
// lower node to the dot of its higher one (straight when neither end turns),
// sampled for arc length.
type trackPath struct {
	p        [4]data.Point
	startLo  float64 // where spaces begin, from the lower node's centre
	startHi  float64
	arcs     []float64 // arc length at each sample
	pointsAt []data.Point
}

const pathSamples = 48

func groupPath(b *data.Board, g int, fanOf func(Dot) fan) trackPath {
	tr := &b.Tracks[b.Groups[g][0]]
	lo, hi := min(tr.A, tr.B), max(tr.A, tr.B)
	dl, dh := dot(b, lo, endArea(b, tr, lo)), dot(b, hi, endArea(b, tr, hi))
	fl, fh := fanOf(dl), fanOf(dh)
	d := math.Hypot(dh.X-dl.X, dh.Y-dl.Y)
	al, ah := fl.dir[g], fh.dir[g]
	p := trackPath{startLo: fl.start, startHi: fh.start}
	p.p = [4]data.Point{
		{X: dl.X, Y: dl.Y},
		{X: dl.X + d/3*math.Cos(al), Y: dl.Y + d/3*math.Sin(al)},
		{X: dh.X + d/3*math.Cos(ah), Y: dh.Y + d/3*math.Sin(ah)},
		{X: dh.X, Y: dh.Y},
	}
	p.arcs = make([]float64, pathSamples+1)
	p.pointsAt = make([]data.Point, pathSamples+1)
	for i := range p.pointsAt {
		p.pointsAt[i] = p.at(float64(i) / pathSamples)
		if i > 0 {
			a, c := p.pointsAt[i-1], p.pointsAt[i]
			p.arcs[i] = p.arcs[i-1] + math.Hypot(c.X-a.X, c.Y-a.Y)
		}
	}
	return p
}

func (p *trackPath) at(u float64) data.Point {
	v := 1 - u
	a, b, c, d := v*v*v, 3*v*v*u, 3*v*u*u, u*u*u
	return data.Point{X: a*p.p[0].X + b*p.p[1].X + c*p.p[2].X + d*p.p[3].X, Y: a*p.p[0].Y + b*p.p[1].Y + c*p.p[2].Y + d*p.p[3].Y}
}

func (p *trackPath) tangent(u float64) float64 {
	v := 1 - u
	dx := 3*v*v*(p.p[1].X-p.p[0].X) + 6*v*u*(p.p[2].X-p.p[1].X) + 3*u*u*(p.p[3].X-p.p[2].X)
	dy := 3*v*v*(p.p[1].Y-p.p[0].Y) + 6*v*u*(p.p[2].Y-p.p[1].Y) + 3*u*u*(p.p[3].Y-p.p[2].Y)
	return math.Atan2(dy, dx)
}

func (p *trackPath) length() float64 { return p.arcs[pathSamples] }

// param returns the curve parameter at arc length s.
func (p *trackPath) param(s float64) float64 {
	i := sort.SearchFloat64s(p.arcs, s)
	switch {
	case i <= 0:
		return 0
	case i > pathSamples:
		return 1
	}
	a0, a1 := p.arcs[i-1], p.arcs[i]
	f := 0.0
	if a1 > a0 {
		f = (s - a0) / (a1 - a0)
	}
	return (float64(i-1) + f) / pathSamples
}

// TrackSpaces returns where each space of a track is drawn, from its A end to
// its B end, at the given scale: along the group's centre line, parallel
// tracks side by side TrackPitch apart, spaces of equal length SpaceGap
// apart. The layout tests check that no space is shorter than MinSpaceLength.
func TrackSpaces(b *data.Board, t data.TrackID, scale float64) []Rect {
	return trackSpaces(b, t, scale, func(d Dot) fan { return fanAt(b, d) })
}

func trackSpaces(b *data.Board, t data.TrackID, scale float64, fanOf func(Dot) fan) []Rect {
	tr := &b.Tracks[t]
	k := 0
	for i, id := range b.Groups[tr.Group] {
		if id == t {
			k = i
		}
	}
	out := groupSpaces(b, tr.Group, fanOf)[k]
	for i := range out {
		out[i] = out[i].Scale(scale)
	}
	if tr.A > tr.B {
		slices.Reverse(out)
	}
	return out
}

// groupSpaces lays out the spaces of every track of a group, from its lower
// node to its higher one. The spaces begin where the fan of each end says,
// measured straight from the dot's centre (on a bend the way along the curve
// is longer), so that no space comes nearer a dot than its fan's start.
func groupSpaces(b *data.Board, g int, fanOf func(Dot) fan) [][]Rect {
	tr := &b.Tracks[b.Groups[g][0]]
	lo, hi := min(tr.A, tr.B), max(tr.A, tr.B)
	dl, dh := dot(b, lo, endArea(b, tr, lo)), dot(b, hi, endArea(b, tr, hi))
	p := groupPath(b, g, fanOf)
	n := len(b.Groups[g])
	clearLo := Circle{dl.X, dl.Y, p.startLo - 0.25}
	clearHi := Circle{dh.X, dh.Y, p.startHi - 0.25}
	from, to := p.arcOutside(clearLo, false), p.length()-p.arcOutside(clearHi, true)
	out := make([][]Rect, n)
	for range 60 {
		touches := false
		for k := range out {
			out[k] = p.lay(from, to, tr.Length, (float64(k)-float64(n-1)/2)*TrackPitch)
			first, last := out[k][0], out[k][len(out[k])-1]
			if first.OverlapsCircle(clearLo) {
				from, touches = from+0.5, true
			}
			if last.OverlapsCircle(clearHi) {
				to, touches = to-0.5, true
			}
		}
		if !touches {
			break
		}
	}
	return out
}

// arcOutside is the way along the path, from its start (or from its end,
// backwards) to where it leaves the disc c.
func (p *trackPath) arcOutside(c Circle, backwards bool) float64 {
	for i := 1; i <= pathSamples; i++ {
		j, prev := i, i-1
		if backwards {
			j, prev = pathSamples-i, pathSamples-i+1
		}
		q := p.pointsAt[j]
		if math.Hypot(q.X-c.X, q.Y-c.Y) < c.R {
			continue
		}
		// between the samples prev (inside) and j (outside)
		q0 := p.pointsAt[prev]
		r0, r1 := math.Hypot(q0.X-c.X, q0.Y-c.Y), math.Hypot(q.X-c.X, q.Y-c.Y)
		f := (c.R - r0) / (r1 - r0)
		a0, a1 := p.arcs[prev], p.arcs[j]
		at := a0 + f*(a1-a0)
		if backwards {
			return p.length() - at
		}
		return at
	}
	return p.length() / 2
}

// lay places cars equal spaces between arc lengths from and to, offset to
// the right of the way from lower to higher node.
func (p *trackPath) lay(from, to float64, cars int, offset float64) []Rect {
	n := float64(cars)
	s := max((to-from-(n-1)*SpaceGap)/n, 0)
	out := make([]Rect, cars)
	for i := range out {
		mid := from + float64(i)*(s+SpaceGap) + s/2
		u := p.param(mid)
		c, a := p.at(u), p.tangent(u)
		out[i] = Rect{X: c.X - math.Sin(a)*offset, Y: c.Y + math.Cos(a)*offset, W: s, H: SpaceWidth, Angle: a}
	}
	return out
}
