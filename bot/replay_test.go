package bot_test

import (
	"bytes"
	"image/gif"
	"testing"

	"conductor/internal/fakediscord"
	"conductor/present"
)

// TestReplayButton: at the end of a game played through Discord, a player
// clicks Replay under the final score sheet and gets the game as an
// animated GIF, privately, within Discord's attachment limit.
func TestReplayButton(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	tb.playToTheEnd()
	final, ok := e.latest(tb.ch.ID, func(m fakediscord.Message) bool {
		_, ok := m.Attachment("final.png")
		return ok && m.Public()
	})
	if !ok {
		t.Fatal("no final score sheet")
	}
	id := button(final, "replay:", "")
	if id == "" {
		t.Fatal("the final score sheet has no Replay button")
	}
	a := e.click(tb.players[1].ID, final.ID, id)
	if !a.msg.Ephemeral() {
		t.Fatalf("the replay was answered publicly: %q", a.msg.Body())
	}
	att, ok := a.msg.Attachment("replay.gif")
	if !ok || att.ContentType != "image/gif" {
		t.Fatalf("no replay.gif in %+v", a.msg)
	}
	if len(att.Data) > present.ReplayMaxBytes {
		t.Errorf("the replay is %d bytes, over %d", len(att.Data), present.ReplayMaxBytes)
	}
	g, err := gif.DecodeAll(bytes.NewReader(att.Data))
	if err != nil || len(g.Image) < 10 {
		t.Fatalf("replay.gif: %v", err)
	}
	e.srv.CheckClean(t)
}
