package commands

import (
	"bytes"
	"testing"
)

// The hand's picture is drawn once per position: asking again gives the
// same picture without drawing it, a move (a card drawn) draws it anew,
// and each seat has its own.
func TestHandPictureIsDrawnOncePerPosition(t *testing.T) {
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	png := func(user string) []byte {
		t.Helper()
		a := w.cmd(user, "hand", "", nil)
		if len(a.msg.Files) != 1 {
			t.Fatalf("%s's hand has %d pictures", user, len(a.msg.Files))
		}
		return a.msg.Files[0].Data
	}
	first := png("u1")
	if again := png("u1"); &again[0] != &first[0] {
		t.Fatal("the same hand was drawn twice")
	}
	if other := png("u2"); bytes.Equal(other, first) {
		t.Fatal("u2 was shown u1's hand")
	}
	w.click("u1", "draw:"+gid+":0:deck")
	if after := png("u1"); bytes.Equal(after, first) {
		t.Fatal("the hand after a card was drawn is the picture from before")
	}
}
