package imaging

import (
	"math"

	"conductor/data"
)

// The land is drawn as soft shapes grown around the network itself: near a
// city or along a track that is not a ferry is land, ferries cross water.
// This follows any layout of the cities without a coastline database.

const landCell = 4.0 // board units per cell of the land fields

// landField is a smooth value per cell in 0..1; above 0.5 is inside.
type landField struct {
	cols, rows int
	v          []float32
}

// landReach is how far land extends around the network of board b, in board units.
func landReach(b *data.Board) (city, track float64) {
	switch b.ID {
	case "usa":
		return 62, 53
	case "marklin":
		return 42, 35
	}
	return 37, 27
}

// A sea is where the real one is: a latitude and longitude, placed on the
// board through the cities around it, and a radius in board units. Water
// enclosed by the network stays water only where a sea says so; other
// pockets are filled in.
type seaPoint struct{ lat, lon, radius float64 }

var seas = map[string][]seaPoint{
	"europe": {
		{56, 3, 56}, {57, 19, 48}, {50, -2.5, 24}, {39, 4, 56}, {40, 12, 40}, {36.5, 17, 48},
		{43, 15.5, 28}, {39, 25, 36}, {43.3, 34, 64}, {46, 36.5, 20},
	},
	"marklin": {{54.5, 6.8, 80}, {55.4, 7.6, 90}, {54.8, 12.2, 75}, {55.5, 13.2, 85}},
}

// Kinds of land-field cells.
const (
	cellOutside = iota // joined to the edge of the map: sea, or foreign land on the Märklin map
	cellLand
	cellWater // a sea inside the map
)

// buildLand returns the land field and the inner-sea field of board b.
func buildLand(b *data.Board) (landF, waterF *landField) {
	cols := int(math.Ceil(float64(b.Width)/landCell)) + 1
	rows := int(math.Ceil(float64(b.Height)/landCell)) + 1
	rc, rt := landReach(b)
	type seg struct{ a, e data.Point }
	var cities []data.Point
	var tracks []seg
	for _, c := range b.Cities {
		if !c.Country {
			cities = append(cities, data.Point{X: c.X, Y: c.Y})
		}
	}
	for i := range b.Tracks {
		t := &b.Tracks[i]
		if t.Locomotives > 0 || b.Cities[t.A].Country || b.Cities[t.B].Country {
			continue
		}
		tracks = append(tracks, seg{trackEnd(b, t, t.A), trackEnd(b, t, t.B)})
	}
	// Distances to the nearest city and track, stamped object by object over
	// the cells each can matter to.
	dc, dt := make([]float64, cols*rows), make([]float64, cols*rows)
	for i := range dc {
		dc[i], dt[i] = math.Inf(1), math.Inf(1)
	}
	stamp := func(d []float64, x0, y0, x1, y1 float64, dist func(x, y float64) float64) {
		c0, c1 := max(0, int(x0/landCell)), min(cols-1, int(x1/landCell)+1)
		r0, r1 := max(0, int(y0/landCell)), min(rows-1, int(y1/landCell)+1)
		for r := r0; r <= r1; r++ {
			for c := c0; c <= c1; c++ {
				if v := dist(float64(c)*landCell, float64(r)*landCell); v < d[r*cols+c] {
					d[r*cols+c] = v
				}
			}
		}
	}
	for _, p := range cities {
		stamp(dc, p.X-rc, p.Y-rc, p.X+rc, p.Y+rc, func(x, y float64) float64 { return math.Hypot(x-p.X, y-p.Y) })
	}
	for _, s := range tracks {
		stamp(dt, math.Min(s.a.X, s.e.X)-rt, math.Min(s.a.Y, s.e.Y)-rt, math.Max(s.a.X, s.e.X)+rt, math.Max(s.a.Y, s.e.Y)+rt,
			func(x, y float64) float64 { return segDist(x, y, s.a, s.e) })
	}
	kind := make([]uint8, cols*rows)
	near := make([]bool, cols*rows) // too close to the network to be carved into sea
	for i := range kind {
		if dc[i] <= rc || dt[i] <= rt {
			kind[i] = cellLand
		}
		near[i] = dc[i] < 19 || dt[i] < 13
	}
	// Carve the seas, then keep as water the enclosed pockets they touch.
	var seeds []int
	for _, sp := range seas[b.ID] {
		p, ok := boardPointOf(b, sp.lat, sp.lon)
		if !ok {
			continue
		}
		for r := range rows {
			for c := range cols {
				i := r*cols + c
				if !near[i] && math.Hypot(float64(c)*landCell-p.X, float64(r)*landCell-p.Y) <= sp.radius {
					kind[i] = cellWater
				}
			}
		}
		c, r := int(p.X/landCell), int(p.Y/landCell)
		if c >= 0 && r >= 0 && c < cols && r < rows {
			seeds = append(seeds, r*cols+c)
		}
	}
	classifyWater(kind, cols, rows, seeds)
	landF, waterF = newField(cols, rows), newField(cols, rows)
	for i, k := range kind {
		switch k {
		case cellLand:
			landF.v[i] = 1
		case cellWater:
			waterF.v[i] = 1
		}
	}
	for range 3 {
		landF.blur(3)
		waterF.blur(3)
	}
	return landF, waterF
}

func newField(cols, rows int) *landField {
	return &landField{cols: cols, rows: rows, v: make([]float32, cols*rows)}
}

// classifyWater sorts the cells that are not land: regions joined to the
// map's edge stay outside (carved seas in them stay water), enclosed regions
// holding a sea are water, other enclosed regions become land.
func classifyWater(kind []uint8, cols, rows int, seeds []int) {
	region := make([]int, len(kind))
	for i := range region {
		region[i] = -1
	}
	var stack []int
	var members [][]int
	for start := range kind {
		if kind[start] == cellLand || region[start] >= 0 {
			continue
		}
		id := len(members)
		var cells []int
		stack = append(stack[:0], start)
		region[start] = id
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			cells = append(cells, i)
			c := i % cols
			for _, n := range [4]int{i - 1, i + 1, i - cols, i + cols} {
				if n < 0 || n >= len(kind) || (n == i-1 && c == 0) || (n == i+1 && c == cols-1) {
					continue
				}
				if kind[n] != cellLand && region[n] < 0 {
					region[n] = id
					stack = append(stack, n)
				}
			}
		}
		members = append(members, cells)
	}
	seeded := map[int]bool{}
	for _, s := range seeds {
		if region[s] >= 0 {
			seeded[region[s]] = true
		}
	}
	for id, cells := range members {
		edge, sea := false, seeded[id]
		for _, i := range cells {
			c, r := i%cols, i/cols
			if c == 0 || r == 0 || c == cols-1 || r == rows-1 {
				edge = true
			}
			if kind[i] == cellWater {
				sea = true
			}
		}
		for _, i := range cells {
			switch {
			case edge && kind[i] != cellWater:
				kind[i] = cellOutside
			case !edge && !sea:
				kind[i] = cellLand
			case !edge:
				kind[i] = cellWater
			}
		}
	}
}

// boardPointOf places a latitude and longitude on the board: an affine fit
// of every city's position to its coordinates, corrected by how the nearest
// cities stray from that fit, so the point moves with a re-laid-out map.
func boardPointOf(b *data.Board, lat, lon float64) (data.Point, bool) {
	type known struct{ lat, lon, x, y float64 }
	var ks []known
	for _, c := range b.Cities {
		if !c.Country && (c.Lat != 0 || c.Lon != 0) {
			ks = append(ks, known{c.Lat, c.Lon, c.X, c.Y})
		}
	}
	if len(ks) < 3 {
		return data.Point{}, false
	}
	// Least squares for x and y as a + b·lon + c·lat.
	var m [3][3]float64
	var vx, vy [3]float64
	for _, k := range ks {
		f := [3]float64{1, k.lon, k.lat}
		for i := range 3 {
			for j := range 3 {
				m[i][j] += f[i] * f[j]
			}
			vx[i] += f[i] * k.x
			vy[i] += f[i] * k.y
		}
	}
	cx, okx := solve3(m, vx)
	cy, oky := solve3(m, vy)
	if !okx || !oky {
		return data.Point{}, false
	}
	fit := func(lat, lon float64) (float64, float64) {
		return cx[0] + cx[1]*lon + cx[2]*lat, cy[0] + cy[1]*lon + cy[2]*lat
	}
	x, y := fit(lat, lon)
	var wx, wy, ws float64
	cosLat := math.Cos(lat * math.Pi / 180)
	for _, k := range ks {
		d2 := math.Pow((k.lon-lon)*cosLat, 2) + math.Pow(k.lat-lat, 2)
		w := 1 / (d2*d2 + 1e-6)
		fx, fy := fit(k.lat, k.lon)
		wx += w * (k.x - fx)
		wy += w * (k.y - fy)
		ws += w
	}
	return data.Point{X: x + wx/ws, Y: y + wy/ws}, true
}

// solve3 solves m·x = v by Cramer's rule.
func solve3(m [3][3]float64, v [3]float64) ([3]float64, bool) {
	det := func(a [3][3]float64) float64 {
		return a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) - a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) +
			a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
	}
	d := det(m)
	if math.Abs(d) < 1e-12 {
		return [3]float64{}, false
	}
	var out [3]float64
	for k := range 3 {
		mk := m
		for i := range 3 {
			mk[i][k] = v[i]
		}
		out[k] = det(mk) / d
	}
	return out, true
}

// blur is a separable box blur of radius r cells.
func (f *landField) blur(r int) {
	tmp := make([]float32, len(f.v))
	w := float32(2*r + 1)
	for y := 0; y < f.rows; y++ {
		for x := 0; x < f.cols; x++ {
			var s float32
			for k := -r; k <= r; k++ {
				s += f.v[y*f.cols+min(max(x+k, 0), f.cols-1)]
			}
			tmp[y*f.cols+x] = s / w
		}
	}
	for y := 0; y < f.rows; y++ {
		for x := 0; x < f.cols; x++ {
			var s float32
			for k := -r; k <= r; k++ {
				s += tmp[min(max(y+k, 0), f.rows-1)*f.cols+x]
			}
			f.v[y*f.cols+x] = s / w
		}
	}
}

// at samples the field bilinearly at a board position.
func (f *landField) at(x, y float64) float64 {
	gx, gy := x/landCell, y/landCell
	c0, r0 := int(math.Floor(gx)), int(math.Floor(gy))
	fx, fy := gx-float64(c0), gy-float64(r0)
	c1, r1 := min(max(c0+1, 0), f.cols-1), min(max(r0+1, 0), f.rows-1)
	c0, r0 = min(max(c0, 0), f.cols-1), min(max(r0, 0), f.rows-1)
	top, bot := f.v[r0*f.cols:], f.v[r1*f.cols:]
	t := float64(top[c0])*(1-fx) + float64(top[c1])*fx
	b := float64(bot[c0])*(1-fx) + float64(bot[c1])*fx
	return t*(1-fy) + b*fy
}

// segDist is the distance from (x, y) to the segment a–b.
func segDist(x, y float64, a, b data.Point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, ((x-a.X)*dx+(y-a.Y)*dy)/l2))
	}
	return math.Hypot(x-a.X-t*dx, y-a.Y-t*dy)
}
