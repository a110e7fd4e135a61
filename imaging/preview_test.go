package imaging

import (
	"image"
	"math"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

// previewScale is Discord's preview of the board picture: 400 pixels
// wide, a quarter of it.
const previewScale = 4

// boxAt is pixel (x, y) of im shrunk by k in each direction: the average
// of a k×k block, as a picture shown small is seen.
func boxAt(im image.Image, k, x, y int) [3]float64 {
	var sum [3]float64
	for dy := range k {
		for dx := range k {
			c := rgbaAt(im, x*k+dx, y*k+dy)
			sum[0] += float64(c.R)
			sum[1] += float64(c.G)
			sum[2] += float64(c.B)
		}
	}
	for i := range sum {
		sum[i] /= float64(k * k)
	}
	return sum
}

// TestClaimedRoutesStandOutInThePreview: at Discord's preview width, a
// claimed route differs from the same route free by much more than a
// shade, even where the owner's colour is the route's own (a red player
// on a red route): the trains are wider, fully coloured and bordered,
// the free tracks lighter and slimmer.
func TestClaimedRoutesStandOutInThePreview(t *testing.T) {
	r := shared()
	b := testkit.Board(t, "usa")
	a := r.art(b)
	_, fim := renderBoard(t, r, emptyScene(b, 5)) // every route free
	for _, c := range []struct {
		colour data.Color
		seat   int
	}{{data.Red, 0}, {data.Blue, 1}, {data.Green, 2}, {data.Yellow, 3}, {data.Black, 4}} {
		tid := -1
		for i, tr := range b.Tracks {
			if tr.Color == c.colour && tr.Length >= 3 && (tid < 0 || tr.Length > b.Tracks[tid].Length) {
				tid = i
			}
		}
		owned := emptyScene(b, 5)
		owned.Owners[tid] = int8(c.seat)
		_, oim := renderBoard(t, r, owned)
		// The preview pixels under the track's spaces.
		var diff float64
		n := 0
		for _, sp := range a.spaces[tid] {
			ctr := a.v.centre(sp)
			x, y := int(ctr.X)/previewScale, int(ctr.Y)/previewScale
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					f, o := boxAt(fim, previewScale, x+dx, y+dy), boxAt(oim, previewScale, x+dx, y+dy)
					diff += math.Abs(f[0]-o[0]) + math.Abs(f[1]-o[1]) + math.Abs(f[2]-o[2])
					n++
				}
			}
		}
		diff /= float64(n)
		t.Logf("%s route, seat %d: the preview's pixels over it change by %.0f (of 765) when it is claimed", c.colour, c.seat, diff)
		// The look before trains were drawn wider (a darker car of the
		// track's size) changed these pixels by 101 to 147.
		if diff < 180 {
			t.Errorf("%s route claimed by seat %d: the preview changes by only %.0f", c.colour, c.seat, diff)
		}
	}
}
