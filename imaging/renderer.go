// Package imaging draws Conductor's pictures: the public board, a player's
// private hand, the final score sheet and an animated replay. It draws only
// what its input types carry; those hold public information only, except
// HandScene, which is meant for its one player.
//
// Keep one Renderer for the life of the program and share it:
//
//	r := imaging.NewRenderer()
//	err := r.Board(w, &imaging.Scene{Board: b, Owners: owners, ...}) // PNG
//	err = r.Hand(dm, &imaging.HandScene{...})                         // PNG, private
//	gif, err := r.Replay(scenes)
//
// Speed: a board's unchanging picture (land, tracks as printed, cities,
// names) is drawn once and kept, with a palette of at most 255 colours built
// from it. A picture starts from a pooled copy of that layer, draws only
// what changes (claimed tracks, stations, the panel...), turns just the
// touched tiles into palette indexes and writes a palette PNG.
package imaging

import (
	"bufio"
	"errors"
	"hash/fnv"
	"image"
	"io"
	"math"
	"sync"

	"conductor/data"
)

// Renderer draws pictures. It caches each board's static art, so keep one
// for the life of the program; it is safe for concurrent use.
type Renderer struct {
	mu   sync.Mutex
	arts map[artKey]*boardArt
}

// artKey identifies a board's drawing: its id and a hash of everything drawn
// from it, so a board loaded twice shares its art, and an edited one does not.
type artKey struct {
	id   string
	hash uint64
}

// NewRenderer returns a renderer with empty caches.
func NewRenderer() *Renderer {
	return &Renderer{arts: map[artKey]*boardArt{}}
}

var errNoBoard = errors.New("imaging: scene has no board")

func (r *Renderer) art(b *data.Board) *boardArt {
	key := artKey{b.ID, boardHash(b)}
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.arts[key]
	if !ok {
		a = newBoardArt(b)
		r.arts[key] = a
	}
	return a
}

func boardHash(b *data.Board) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(v float64) {
		u := math.Float64bits(v)
		for i := range buf {
			buf[i] = byte(u >> (8 * i))
		}
		h.Write(buf[:])
	}
	put(float64(b.Width))
	put(float64(b.Height))
	io.WriteString(h, b.Name)
	for _, c := range b.Cities {
		io.WriteString(h, c.Name)
		io.WriteString(h, c.Goods)
		io.WriteString(h, c.Label)
		put(c.X)
		put(c.Y)
		put(c.LabelDX)
		put(c.LabelDY)
	}
	for _, co := range b.Countries {
		for _, ar := range co.Areas {
			put(ar.X)
			put(ar.Y)
		}
	}
	for _, t := range b.Tracks {
		put(float64(t.A))
		put(float64(t.B))
		put(float64(t.Length))
		put(float64(t.Color))
		put(float64(t.Locomotives))
		put(float64(t.Area))
		if t.Tunnel {
			put(1)
		}
	}
	put(float64(b.Rules.Stations))
	put(float64(b.Rules.Passengers))
	return h.Sum64()
}

// lazyLayer is a layer built on first use.
type lazyLayer struct {
	once sync.Once
	l    *layer
}

// boardLayer returns the board picture's layer with letters printed on its
// tracks, building it on first use: one for each language that uses the
// board, since the letters are part of the unchanging picture.
func (a *boardArt) boardLayer(letters Letters) *layer {
	a.boardMu.Lock()
	if a.boardLs == nil {
		a.boardLs = map[Letters]*lazyLayer{}
	}
	ll := a.boardLs[letters]
	if ll == nil {
		ll = &lazyLayer{}
		a.boardLs[letters] = ll
	}
	a.boardMu.Unlock()
	ll.once.Do(func() {
		static := func(c *canvas) { a.drawStatic(c, &letters) }
		probe := func(c *canvas) {
			s := probeScene(a.b)
			s.Letters = letters
			a.drawScene(c, s)
		}
		ll.l = newLayer(a.w, a.h, static, probe)
	})
	return ll.l
}

// Board draws the public board picture of s as a PNG.
func (r *Renderer) Board(w io.Writer, s *Scene) error {
	if s == nil || s.Board == nil {
		return errNoBoard
	}
	a := r.art(s.Board)
	l := a.boardLayer(s.Letters)
	f := l.get()
	defer l.put(f)
	a.drawScene(f.c, s)
	return r.encode(w, l.finish(f))
}

func (r *Renderer) encode(w io.Writer, im *image.Paletted) error {
	if _, buffered := w.(io.ByteWriter); buffered {
		return encodePNG(w, im)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := encodePNG(bw, im); err != nil {
		return err
	}
	return bw.Flush()
}
