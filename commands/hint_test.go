package commands

import (
	"context"
	"strings"
	"testing"

	"conductor/engine"
	"conductor/present"
)

// viewBot records the views it is handed and plays the last legal action
// (a claim when there is one: claims come after draws).
type viewBot struct{ views *[]engine.PlayerView }

func (b viewBot) Choose(_ context.Context, v engine.PlayerView, legal []engine.Action) engine.Action {
	*b.views = append(*b.views, v)
	return legal[len(legal)-1]
}

func hintWorld(t *testing.T) (*world, *[]engine.PlayerView, *[]string) {
	w := newWorld(t)
	views := &[]engine.PlayerView{}
	levels := &[]string{}
	w.svc.cfg.Bots = func(level string, seed uint64) (Bot, error) {
		*levels = append(*levels, level)
		return viewBot{views}, nil
	}
	return w, views, levels
}

// A hint answers only the asker, privately, with a legal move of the
// expert computed from the asker's own view, and says why.
func TestHintIsPrivateLegalAndFromTheAskersView(t *testing.T) {
	w, views, levels := hintWorld(t)
	startedGame(t, w, nil)
	g, _ := w.game("c1")
	seat := g.Current()
	asker := []string{"u1", "u2"}[seat]
	other := []string{"u1", "u2"}[1-seat]
	logLen := len(g.Log())

	a := w.cmd(asker, "ttr", "hint", nil)
	if a.kind != "reply" || !a.msg.Ephemeral || !strings.HasPrefix(a.msg.Content, "💡") {
		t.Fatalf("hint: %s %+v", a.kind, a.msg)
	}
	if len(*views) != 1 || (*levels)[0] != "expert" {
		t.Fatalf("the expert was asked %d times (%v)", len(*views), *levels)
	}
	v := (*views)[0]
	if v.Seat != seat || v.Hand != g.Player(seat).Hand {
		t.Fatalf("the expert got seat %d's view, want the asker's (%d)", v.Seat, seat)
	}
	legal := g.LegalActions(seat, nil)
	want := hintMove("", &v, legal[len(legal)-1])
	if !strings.Contains(a.msg.Content, want) || !strings.Contains(a.msg.Content, " — ") {
		t.Fatalf("hint %q does not name the move %q with a reason", a.msg.Content, want)
	}
	if len(g.Log()) != logLen {
		t.Fatal("asking for a hint played a move")
	}
	// Not on someone else's turn.
	if a := w.cmd(other, "ttr", "hint", nil); !a.msg.Ephemeral || a.msg.Content != present.T("", "hint.not_your_turn") {
		t.Fatalf("hint out of turn: %+v", a.msg)
	}
	if len(*views) != 1 {
		t.Fatal("the expert was asked out of turn")
	}
}

// A table opened with hints:False refuses them.
func TestHintsOffAreRefused(t *testing.T) {
	w, views, _ := hintWorld(t)
	startedGame(t, w, map[string]string{"hints": "false"})
	g, _ := w.game("c1")
	asker := []string{"u1", "u2"}[g.Current()]
	if a := w.cmd(asker, "ttr", "hint", nil); !a.msg.Ephemeral || a.msg.Content != present.T("", "hint.off") {
		t.Fatalf("hint with hints off: %+v", a.msg)
	}
	if len(*views) != 0 {
		t.Fatal("the expert was asked with hints off")
	}
}

// The hints asked are counted in the record (they survive a restart) and
// the final narration says how many each player used.
func TestHintsAreCountedInTheFinalNarration(t *testing.T) {
	w, _, _ := hintWorld(t)
	startedGame(t, w, nil)
	g, _ := w.game("c1")
	asker := []string{"u1", "u2"}[g.Current()]
	w.cmd(asker, "ttr", "hint", nil)
	w.cmd(asker, "ttr", "hint", nil)
	bots := w.svc.cfg.Bots
	w.restart()
	w.svc.cfg.Bots = bots
	w.cmd("u1", "score", "", nil) // loads the table back
	users := []string{"u1", "u2"}
	pick := uint64(5)
	for steps := 0; ; steps++ {
		g, gid := w.game("c1")
		if g == nil {
			break
		}
		if steps > 3000 {
			t.Fatal("the game does not end")
		}
		seat := g.Current()
		legal := g.LegalActions(seat, nil)
		pick = pick*6364136223846793005 + 1442695040888963407
		w.playRequest(g, gid, users[seat], legal[int((pick>>33)%uint64(len(legal)))])
	}
	posts := w.poster.all("c1")
	last := posts[len(posts)-1]
	want := present.T("", "hint.summary", "players", "name-"+asker+" "+present.T("", "hint.count", "count", 2))
	if !strings.Contains(last.Content, want) {
		t.Fatalf("final narration %q lacks %q", last.Content, want)
	}
}
