package commands

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

// sketch is a Renderer for tests of flow: it keeps the scenes it is asked
// to draw, and draws each as a picture of one pixel (the replay, a GIF of
// one such frame a scene). What the pictures look like is the imaging
// tests' and golden pictures' business; a test of flow checks what was
// drawn, from the scenes.
type sketch struct {
	mu     sync.Mutex
	boards []imaging.Scene
	finals []imaging.FinalScene
	hands  []imaging.HandScene
	// leaderboards are the tables of ratings drawn.
	leaderboards []imaging.LeaderboardScene
}

var dot = func() []byte {
	var buf bytes.Buffer
	im := image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.White})
	if err := png.Encode(&buf, im); err != nil {
		panic(err)
	}
	return buf.Bytes()
}()

func (s *sketch) Board(w io.Writer, sc *imaging.Scene) error {
	s.mu.Lock()
	s.boards = append(s.boards, *sc)
	s.mu.Unlock()
	_, err := w.Write(dot)
	return err
}

func (s *sketch) Hand(w io.Writer, h *imaging.HandScene) error {
	s.mu.Lock()
	s.hands = append(s.hands, *h)
	s.mu.Unlock()
	_, err := w.Write(dot)
	return err
}

func (s *sketch) Final(w io.Writer, fs *imaging.FinalScene) error {
	s.mu.Lock()
	s.finals = append(s.finals, *fs)
	s.mu.Unlock()
	_, err := w.Write(dot)
	return err
}

func (s *sketch) Leaderboard(w io.Writer, lb *imaging.LeaderboardScene) error {
	s.mu.Lock()
	s.leaderboards = append(s.leaderboards, *lb)
	s.mu.Unlock()
	_, err := w.Write(dot)
	return err
}

func (s *sketch) Replay(frames []imaging.Scene) ([]byte, error) {
	g := &gif.GIF{}
	for range frames {
		g.Image = append(g.Image, image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.White}))
		g.Delay = append(g.Delay, 100)
	}
	var buf bytes.Buffer
	err := gif.EncodeAll(&buf, g)
	return buf.Bytes(), err
}

// drawnHands are the hand scenes drawn so far.
func (s *sketch) drawnHands() []imaging.HandScene {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]imaging.HandScene(nil), s.hands...)
}

// drawnBoards are the board scenes drawn so far.
func (s *sketch) drawnBoards() []imaging.Scene {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]imaging.Scene(nil), s.boards...)
}

// drawnFinals are the final score sheets' scenes drawn so far.
func (s *sketch) drawnFinals() []imaging.FinalScene {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]imaging.FinalScene(nil), s.finals...)
}

// drawnLeaderboards are the tables of ratings drawn so far.
func (s *sketch) drawnLeaderboards() []imaging.LeaderboardScene {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]imaging.LeaderboardScene(nil), s.leaderboards...)
}
