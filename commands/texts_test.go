package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"conductor/data"
	"conductor/engine"
)

// Märklin's automatic payment spends ordinary locomotives before
// Locomotive +4 cards, which pay only long routes.
func TestWildCardsSpendOrdinaryLocomotivesFirst(t *testing.T) {
	t.Parallel()
	var h engine.Hand
	h[engine.Locomotive], h[engine.Locomotive4] = 2, 3
	for _, c := range []struct {
		missing       int
		loco4         bool
		locos, locos4 int
	}{
		{1, true, 1, 0}, {2, true, 2, 0}, {4, true, 2, 2}, {5, true, 2, 3}, {6, true, 3, 3}, {4, false, 4, 0}, {0, true, 0, 0},
	} {
		if l, l4 := wildCards(h, c.missing, c.loco4); l != c.locos || l4 != c.locos4 {
			t.Errorf("%d missing (+4 allowed %v): %d locomotives, %d +4; want %d, %d", c.missing, c.loco4, l, l4, c.locos, c.locos4)
		}
	}
}

// A watcher's /board is private and has no controls; a player's repost
// is public and pings nobody.
func TestSpectatorSeesTheBoardPrivately(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, nil)
	a := w.cmd("u3", "board", "", nil)
	if !a.msg.Ephemeral || len(a.msg.Components) != 0 || len(a.msg.Files) != 1 || len(a.msg.Mentions) != 0 {
		t.Fatalf("a watcher's /board: ephemeral %v, %d rows, %d files, mentions %v", a.msg.Ephemeral, len(a.msg.Components), len(a.msg.Files), a.msg.Mentions)
	}
	before := len(w.poster.all("c1"))
	p := w.cmd("u1", "board", "", nil)
	if p.msg.Ephemeral || len(p.msg.Mentions) != 0 || len(p.msg.Components) == 0 {
		t.Fatalf("a player's /board: ephemeral %v, mentions %v, %d rows", p.msg.Ephemeral, p.msg.Mentions, len(p.msg.Components))
	}
	if len(w.poster.all("c1")) != before {
		t.Fatal("/board posted more than its answer")
	}
}

// The lobby reads its board once ("USA", not "USA — USA"), its timer in
// days or hours; the copy a command answers with has no buttons: they
// stay on the lobby itself, and none dies with the game's start.
func TestLobbyTexts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa"})
	lobby, ok := w.lobby("c1")
	if !ok {
		t.Fatal("no lobby was posted")
	}
	d := lobby.Embeds[0].Description
	if !strings.HasPrefix(d, "**Ticket to Ride — USA** · 1/5 players") || strings.Contains(d, "USA — USA") || !strings.Contains(d, "1 day per turn") {
		t.Errorf("lobby description %q", d)
	}
	if len(lobby.Components) == 0 {
		t.Fatal("the lobby has no buttons")
	}
	copyMsg := w.cmd("u2", "ttr", "join", nil)
	if len(copyMsg.msg.Components) != 0 || !strings.Contains(copyMsg.msg.Embeds[0].Fields[0].Value, "<@u2>") {
		t.Errorf("the copy /ttr join answers with: %+v", copyMsg.msg)
	}
	w.cmd("u1", "ttr", "end", nil)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "europe", "variant": "1912", "turn_timer": "90"})
	rec, _ := w.store.Get("c1")
	if d := lobbyMessage(w.svc.cfg.Catalog, rec, "fr").Embeds[0].Description; !strings.Contains(d, "Europe 1912") || !strings.Contains(d, "1 heure 30 minutes par tour") {
		t.Errorf("a variant's lobby in French: %q", d)
	}
}

// The map option shows each edition's name in the reader's language.
func TestMapChoicesAreNamed(t *testing.T) {
	t.Parallel()
	for _, d := range Definitions(data.Embedded().IDs()) {
		if d.Name != "ttr" {
			continue
		}
		for _, sub := range d.Options {
			for _, o := range sub.Options {
				if o.Name != "map" {
					continue
				}
				for _, c := range o.Choices {
					if c.Name == c.Value || c.Names["fr"] == "" || !strings.Contains(c.Names["fr"], "Aventuriers") {
						t.Errorf("map choice %+v", c)
					}
				}
				return
			}
		}
	}
	t.Fatal("no map option")
}

// A bot is never told it is its turn: the board says it is playing, and
// pings nobody.
func TestBotsAreNotSpokenTo(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// The bot moves once u1's board is out: otherwise the two boards may
	// be queued together and go out as one (coalesce.go), saying whose
	// turn follows the bot's.
	shown := func() bool {
		for _, m := range w.poster.all("c1") {
			if strings.Contains(m.Content, "playing…") {
				return true
			}
		}
		return false
	}
	w.bots(func(string, uint64) (Bot, error) { return waitingBot{ready: shown}, nil }, "easy", "normal")
	w.configure(func(c *Config) { c.BotDelay = 0 })
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "easy"})
	w.cmd("u1", "ttr", "start", nil)
	_, gid := w.game("c1")
	w.keepFirstTickets("u1", 0)
	w.click("u1", "draw:"+gid+":0:deck")
	w.click("u1", "draw:"+gid+":0:deck")
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Turn() >= 2 }) }, "the bot plays")
	w.svc.Quiet()
	told := false
	for _, m := range w.poster.all("c1") {
		if strings.Contains(m.Content, "🤖 Tom (easy) — playing…") {
			told = true
			if len(m.Mentions) != 0 {
				t.Errorf("the bot's board pings %v", m.Mentions)
			}
		}
		for _, line := range strings.Split(m.Content, "\n") {
			if strings.Contains(line, "Tom") && strings.Contains(line, "your turn") {
				t.Errorf("a bot is spoken to: %q", line)
			}
		}
	}
	if !told {
		t.Error("no board says the bot is playing")
	}
}

// waitingBot plays the first legal action once ready says so (or after a
// few seconds, for a test to fail).
type waitingBot struct{ ready func() bool }

func (b waitingBot) Choose(ctx context.Context, v engine.PlayerView, legal []engine.Action) engine.Action {
	for i := 0; v.Phase != engine.PhaseSetup && i < 1000 && !b.ready() && ctx.Err() == nil; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	return legal[0]
}
