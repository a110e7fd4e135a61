package imaging

import (
	"os"
	"path/filepath"
	"testing"

	"conductor/internal/testkit"
)

// TestWriteDocImages writes the example pictures under docs/images when
// CONDUCTOR_WRITE_IMAGES is set: go test -run WriteDocImages ./imaging
func TestWriteDocImages(t *testing.T) {
	if os.Getenv("CONDUCTOR_WRITE_IMAGES") == "" {
		t.Skip("set CONDUCTOR_WRITE_IMAGES=1 to write docs/images/*.png")
	}
	dir := filepath.Join("..", "docs", "images")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := shared()
	write := func(name string, draw func(f *os.File) error) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := draw(f); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		write(id+"-empty.png", func(f *os.File) error { return r.Board(f, emptyScene(b, 4)) })
		late := playedScene(b, 4, 52, 1)
		write(id+"-late.png", func(f *os.File) error { return r.Board(f, late) })
		write(id+"-hand.png", func(f *os.File) error { return r.Hand(f, handOf(late, 1)) })
		write(id+"-final.png", func(f *os.File) error { return r.Final(f, finalOf(late)) })
	}
	var frames []Scene
	for k := 0; k <= 24; k++ {
		frames = append(frames, *playedScene(testkit.Board(t, "europe"), 4, k, 1))
	}
	write("europe-replay.gif", func(f *os.File) error {
		g, err := r.Replay(frames)
		if err == nil {
			_, err = f.Write(g)
		}
		return err
	})
}
