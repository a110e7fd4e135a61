// Package sketch is a picture renderer for tests of flow (commands.Renderer):
// it keeps the scenes it is asked to draw and draws each as a picture of one
// pixel. What the pictures look like is the imaging tests' and golden
// pictures' business; a test of flow checks that a picture was posted, and
// what was drawn from the scenes, without paying for the pixels (drawing a
// board is most of a flow test's CPU, and several times that under the race
// detector).
package sketch

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"sync"

	"conductor/imaging"
)

// Renderer draws one-pixel pictures and records the scenes. The zero value
// is ready; it is safe for concurrent use.
type Renderer struct {
	mu     sync.Mutex
	boards []imaging.Scene
	finals []imaging.FinalScene
	hands  []imaging.HandScene
	// leaderboards are the tables of ratings drawn.
	leaderboards []imaging.LeaderboardScene
}

// dot is a valid PNG of one white pixel.
var dot = func() []byte {
	var buf bytes.Buffer
	im := image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.White})
	if err := png.Encode(&buf, im); err != nil {
		panic(err)
	}
	return buf.Bytes()
}()

// record keeps a scene drawn, under the lock, and writes a one-pixel PNG.
func record[T any](s *Renderer, drawn *[]T, sc T, w io.Writer) error {
	s.mu.Lock()
	*drawn = append(*drawn, sc)
	s.mu.Unlock()
	_, err := w.Write(dot)
	return err
}

// Board records the scene and writes a one-pixel PNG.
func (s *Renderer) Board(w io.Writer, sc *imaging.Scene) error {
	return record(s, &s.boards, *sc, w)
}

// Hand records the scene and writes a one-pixel PNG.
func (s *Renderer) Hand(w io.Writer, h *imaging.HandScene) error {
	return record(s, &s.hands, *h, w)
}

// Final records the scene and writes a one-pixel PNG.
func (s *Renderer) Final(w io.Writer, fs *imaging.FinalScene) error {
	return record(s, &s.finals, *fs, w)
}

// Leaderboard records the scene and writes a one-pixel PNG.
func (s *Renderer) Leaderboard(w io.Writer, lb *imaging.LeaderboardScene) error {
	return record(s, &s.leaderboards, *lb, w)
}

// Replay is a GIF with a one-pixel frame per scene.
func (s *Renderer) Replay(frames []imaging.Scene) ([]byte, error) {
	g := &gif.GIF{}
	for range frames {
		g.Image = append(g.Image, image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.White}))
		g.Delay = append(g.Delay, 100)
	}
	var buf bytes.Buffer
	err := gif.EncodeAll(&buf, g)
	return buf.Bytes(), err
}

// Boards are the board scenes drawn so far.
func (s *Renderer) Boards() []imaging.Scene {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]imaging.Scene(nil), s.boards...)
}

// Hands are the hand scenes drawn so far.
func (s *Renderer) Hands() []imaging.HandScene {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]imaging.HandScene(nil), s.hands...)
}

// Finals are the final score sheets drawn so far.
func (s *Renderer) Finals() []imaging.FinalScene {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]imaging.FinalScene(nil), s.finals...)
}

// Leaderboards are the tables of ratings drawn so far.
func (s *Renderer) Leaderboards() []imaging.LeaderboardScene {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]imaging.LeaderboardScene(nil), s.leaderboards...)
}
