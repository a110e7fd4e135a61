package ai

import (
	"math/rand/v2"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

func TestAnalyseCountsMissingCards(t *testing.T) {
	b := testkit.Board(t, "usa")
	green := testkit.Track(t, b, "Portland", "San Francisco", data.Green) // 5 green
	gray := testkit.AnyTrack(t, b, "Calgary", "Seattle")                  // 4 gray
	var h engine.Hand
	h[engine.ColorCard(data.Green)] = 3
	h[engine.ColorCard(data.Red)] = 2
	h[engine.Locomotive] = 1
	n := analyse(b, &h, []data.TrackID{green, gray})
	if got := n.missing[engine.ColorCard(data.Green)]; got != 2 {
		t.Errorf("green missing %d, want 2", got)
	}
	// The gray track takes red, the colour with most to spare: 2 of 4.
	if n.gray(gray) != data.Red {
		t.Errorf("gray track assigned %s, want red", n.gray(gray))
	}
	// 2 green + 2 red missing, less the locomotive.
	if n.short != 3 {
		t.Errorf("short %d, want 3", n.short)
	}
	if after := n.take(engine.ColorCard(data.Green)); after.short != 2 || after.missing[engine.ColorCard(data.Green)] != 1 {
		t.Errorf("one more green: short %d, green missing %d", after.short, after.missing[engine.ColorCard(data.Green)])
	}
}

func TestAnalyseAsksFerriesForLocomotives(t *testing.T) {
	b := testkit.Board(t, "europe")
	var ferry data.TrackID = -1
	for i, tr := range b.Tracks {
		if tr.Locomotives == 2 {
			ferry = data.TrackID(i)
			break
		}
	}
	if ferry < 0 {
		t.Fatal("no ferry with two locomotives on europe")
	}
	var h engine.Hand
	h[engine.ColorCard(data.Blue)] = 10
	n := analyse(b, &h, []data.TrackID{ferry})
	if n.locoNeed != 2 || n.short != 2 {
		t.Errorf("a ferry of two locomotives with none in hand: locoNeed %d short %d, want 2 and 2", n.locoNeed, n.short)
	}
}

func TestDrawSimOneColourTakesLongerThanMany(t *testing.T) {
	v := scene(t, "usa", 2)
	b := v.Board
	s := read(&v)
	// Six cards of one colour against six cards spread over three colours.
	one := []data.TrackID{testkit.Track(t, b, "Helena", "Seattle", data.Yellow)}
	three := []data.TrackID{
		testkit.AnyTrack(t, b, "Portland", "Seattle"),
		testkit.Track(t, b, "Los Angeles", "San Francisco", data.Pink),
		testkit.AnyTrack(t, b, "Calgary", "Vancouver"),
	}
	if tracksLen(b, one) != 6 || tracksLen(b, three) < 5 {
		t.Fatalf("lengths %d and %d", tracksLen(b, one), tracksLen(b, three))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	t1 := newDrawSim(s, one).turns(s.hand, s.v.FaceUp, rng)
	t3 := newDrawSim(s, three).turns(s.hand, s.v.FaceUp, rng)
	if t1 <= t3 {
		t.Errorf("six yellow cards take %.1f turns, spread needs %.1f: one colour should take longer", t1, t3)
	}
	var full engine.Hand
	full[engine.ColorCard(data.Yellow)] = 6
	if got := newDrawSim(s, one).turns(full, s.v.FaceUp, rng); got != 0 {
		t.Errorf("a hand that pays already needs %.1f turns", got)
	}
}

func tracksLen(b *data.Board, ts []data.TrackID) int {
	n := 0
	for _, t := range ts {
		n += b.Tracks[t].Length
	}
	return n
}

func TestBestPaymentKeepsCardsThePlanNeeds(t *testing.T) {
	v := scene(t, "usa", 2)
	b := v.Board
	v.Hand[engine.ColorCard(data.Red)] = 4
	v.Hand[engine.ColorCard(data.Blue)] = 4
	s := read(&v)
	gray := testkit.AnyTrack(t, b, "Calgary", "Seattle") // 4, any colour
	rest := []data.TrackID{testkit.Track(t, b, "Portland", "Salt Lake City", data.Blue)}
	opts := []engine.Action{
		{Kind: engine.ActClaim, Track: gray, Color: data.Blue},
		{Kind: engine.ActClaim, Track: gray, Color: data.Red},
	}
	if got := bestPayment(s, opts, 4, rest); got.Color != data.Red {
		t.Errorf("paid %s; blue is needed for Portland – Salt Lake City, red is not", got.Color)
	}
}
