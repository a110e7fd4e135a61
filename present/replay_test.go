package present

import (
	"bytes"
	"errors"
	"fmt"
	"image/gif"
	"slices"
	"testing"

	"conductor/engine"
	"conductor/imaging"
	"conductor/internal/testkit"
)

// playedFrames plays a seeded game of random legal moves and returns the
// board after each turn, as a replay shows it.
func playedFrames(t *testing.T, turns int) []imaging.Scene {
	t.Helper()
	b := testkit.Board(t, "usa")
	g, err := engine.New(engine.Config{Board: b, Players: 2, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	players := []Player{{Name: "Ada"}, {Name: "Bot", Bot: true}}
	pick := uint64(1)
	var frames []imaging.Scene
	for g.Phase() != engine.PhaseOver && len(frames) < turns {
		seat := g.ToAct()
		legal := g.LegalActions(seat, nil)
		pick = pick*6364136223846793005 + 1442695040888963407
		turn := g.Turn()
		if err := g.Play(seat, legal[int((pick>>33)%uint64(len(legal)))]); err != nil {
			t.Fatal(err)
		}
		if g.Turn() != turn {
			v := g.Public()
			frames = append(frames, *BoardScene("en", &v, players, fmt.Sprint("turn ", turn)))
		}
	}
	return frames
}

func TestReplayFitsTheBudget(t *testing.T) {
	r := imaging.NewRenderer()
	frames := playedFrames(t, 30)
	whole, err := Replay(r, frames, ReplayMaxBytes)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Every != 1 || whole.Frames != len(frames) {
		t.Fatalf("a small game is shortened: %d frames, one in %d", whole.Frames, whole.Every)
	}
	// A budget halfway between the first picture and the whole keeps fewer
	// frames, the first and the last among them, and fits.
	first, err := r.Replay(frames[:1])
	if err != nil {
		t.Fatal(err)
	}
	budget := (len(first) + len(whole.Data)) / 2
	short, err := Replay(r, frames, budget)
	if err != nil {
		t.Fatal(err)
	}
	if len(short.Data) > budget || short.Every < 2 {
		t.Fatalf("%d bytes for a budget of %d, one frame in %d", len(short.Data), budget, short.Every)
	}
	g, err := gif.DecodeAll(bytes.NewReader(short.Data))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != short.Frames || short.Frames != len(sample(frames, short.Every)) {
		t.Fatalf("%d GIF frames, %d reported, one in %d of %d", len(g.Image), short.Frames, short.Every, len(frames))
	}
	if _, err := Replay(r, frames, 100); !errors.Is(err, ErrReplayTooBig) {
		t.Fatalf("a 100-byte budget: %v, want ErrReplayTooBig", err)
	}
}

func TestSampleKeepsFirstAndLast(t *testing.T) {
	frames := make([]imaging.Scene, 10)
	for i := range frames {
		frames[i].Status = fmt.Sprint(i)
	}
	for every, want := range map[int][]string{
		1:  {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
		3:  {"0", "3", "6", "9"},
		4:  {"0", "4", "8", "9"},
		20: {"0", "9"},
	} {
		var got []string
		for _, f := range sample(frames, every) {
			got = append(got, f.Status)
		}
		if !slices.Equal(got, want) {
			t.Errorf("every %d: %v, want %v", every, got, want)
		}
	}
}
