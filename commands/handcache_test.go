package commands

import "testing"

// The hand's picture is drawn once per position: asking again gives the
// same picture without drawing it, a move (a card drawn) draws it anew,
// and each seat has its own.
func TestHandPictureIsDrawnOncePerPosition(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	drawn := w.pictures().Hands
	png := func(user string) []byte {
		t.Helper()
		a := w.cmd(user, "hand", "", nil)
		if len(a.msg.Files) != 1 {
			t.Fatalf("%s's hand has %d pictures", user, len(a.msg.Files))
		}
		return a.msg.Files[0].Data
	}
	first := png("u1")
	if again := png("u1"); &again[0] != &first[0] || len(drawn()) != 1 {
		t.Fatalf("the same hand was drawn %d times", len(drawn()))
	}
	png("u2")
	if hands := drawn(); len(hands) != 2 || hands[1].Text.Title == hands[0].Text.Title {
		t.Fatalf("u2 was shown u1's hand: %d drawn", len(hands))
	}
	before := drawn()[0].Cards
	w.click("u1", "draw:"+gid+":0:deck")
	png("u1")
	if hands := drawn(); len(hands) != 3 || hands[2].Cards.Total() != before.Total()+1 {
		t.Fatal("the hand after a card was drawn is the picture from before")
	}
}
