package commands

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// startedGame opens a 2-player USA table and has both choose tickets.
func startedGame(t testing.TB, w *world, opts map[string]string) (gid string) {
	t.Helper()
	if opts == nil {
		opts = map[string]string{}
	}
	if _, ok := opts["map"]; !ok {
		opts["map"] = "usa"
	}
	w.cmd("u1", "ttr", "new", opts)
	w.cmd("u2", "ttr", "join", nil)
	w.cmd("u1", "ttr", "start", nil)
	g, gid := w.game("c1")
	for seat, u := range []string{"u1", "u2"} {
		if r := w.keepFirstTickets(u, seat); !strings.Contains(r.msg.Content, "You kept") {
			t.Fatalf("%s keeps: %q", u, r.msg.Content)
		}
	}
	if g.Phase() != engine.PhaseTurn {
		t.Fatalf("phase %v after setup", g.Phase())
	}
	return gid
}

func TestNonPlayersAndOtherTurnsGetFriendlyNotes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	if a := w.click("u3", "draw:"+gid+":0:deck"); !a.msg.Ephemeral || !strings.Contains(a.msg.Content, "not playing") {
		t.Fatalf("non-player: %+v", a.msg)
	}
	if a := w.click("u2", "draw:"+gid+":0:deck"); !a.msg.Ephemeral || !strings.Contains(a.msg.Content, "turn") {
		t.Fatalf("not your turn: %+v", a.msg)
	}
	if a := w.cmd("u3", "claim", "", map[string]string{"route": "Nowhere"}); !a.msg.Ephemeral {
		t.Fatalf("non-player claim: %+v", a.msg)
	}
	g, _ := w.game("c1")
	if len(g.Log()) != 2 {
		t.Fatalf("refused requests changed the game: %d moves", len(g.Log()))
	}
}

func TestStaleButtonsAreHarmless(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	w.click("u1", "draw:"+gid+":0:deck")
	w.click("u1", "draw:"+gid+":0:deck") // turn 0 ends
	g, _ := w.game("c1")
	n := len(g.Log())
	// u2 clicks a button from the first board (turn 0) during turn 1.
	a := w.click("u2", "draw:"+gid+":0:1")
	if !a.msg.Ephemeral || !strings.Contains(a.msg.Content, "earlier turn") || len(g.Log()) != n {
		t.Fatalf("stale click: %q, moves %d -> %d", a.msg.Content, n, len(g.Log()))
	}
	// A button of another (finished) game.
	if a := w.click("u2", "draw:oldgame:1:1"); !strings.Contains(a.msg.Content, "game that is over") {
		t.Fatalf("old game: %q", a.msg.Content)
	}
	if a := w.click("u2", "garbage"); !a.msg.Ephemeral {
		t.Fatalf("unknown id: %+v", a.msg)
	}
}

func TestRepeatedInteractionAppliedOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	g, _ := w.game("c1")
	n := len(g.Log())
	req := &Request{Type: ComponentRequest, ID: "same-id", User: "u1", CustomID: "draw:" + gid + ":0:deck"}
	w.do(req)
	again := *req
	w.do(&again)
	if got := len(g.Log()); got != n+1 {
		t.Fatalf("a repeated interaction was applied %d times", got-n)
	}
	// Even after a restart, the store remembers it.
	w.restart()
	again2 := *req
	w.do(&again2)
	g, _ = w.game("c1")
	if got := len(g.Log()); got != n+1 {
		t.Fatalf("after a restart the repeated interaction was applied again: %d", got-n)
	}
}

func TestRestartMidGameLosesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	w.click("u1", "draw:"+gid+":0:deck")
	g, _ := w.game("c1")
	before := g.View(0)
	beforeLog := len(g.Log())
	w.restart()
	g2, _ := w.game("c1") // nothing loaded yet
	if g2 != nil {
		t.Fatal("a fresh service has nothing in memory")
	}
	// The player goes on with the second card of the same turn.
	if a := w.click("u1", "draw:"+gid+":0:deck"); a.msg.Content == "" {
		t.Fatal("no answer after restart")
	}
	g2, gid2 := w.game("c1")
	if gid2 != gid || len(g2.Log()) != beforeLog+1 || g2.Current() != 1 {
		t.Fatalf("after restart: game %s, %d moves, current %d", gid2, len(g2.Log()), g2.Current())
	}
	after := g2.View(0)
	if after.Hand.Total() != before.Hand.Total()+1 || len(after.Tickets) != len(before.Tickets) {
		t.Fatalf("hand or tickets changed across the restart: %v -> %v", before.Hand, after.Hand)
	}
}

func TestConfirmBeforeClaim(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, map[string]string{"confirm": "true"})
	g, _ := w.game("c1")
	// Draw until u1 can claim something.
	var claim *engine.Action
	for round := 0; claim == nil; round++ {
		if round > 30 {
			t.Fatal("u1 never could claim a route")
		}
		for _, a := range g.LegalActions(0, nil) {
			if a.Kind == engine.ActClaim && !g.Board().Tracks[a.Track].Tunnel {
				a := a
				claim = &a
				break
			}
		}
		if claim != nil {
			break
		}
		turn := fmt.Sprint(g.Turn())
		w.click("u1", "draw:"+gid+":"+turn+":deck")
		w.click("u1", "draw:"+gid+":"+turn+":deck")
		turn = fmt.Sprint(g.Turn())
		w.click("u2", "draw:"+gid+":"+turn+":deck")
		w.click("u2", "draw:"+gid+":"+turn+":deck")
	}
	opts := map[string]string{"route": engine.TrackRef(g.Board(), claim.Track), "locomotives": fmt.Sprint(claim.Locos)}
	if claim.Color != 0 {
		opts["color"] = claim.Color.String()
	}
	a := w.cmd("u1", "claim", "", opts)
	yes := findButton(a.msg, "confirm:")
	if yes == "" || !a.msg.Ephemeral || !strings.Contains(a.msg.Content, "Really") {
		t.Fatalf("with confirmations on, a claim asks first: %+v", a.msg)
	}
	n := len(g.Log())
	no := strings.Replace(yes, ":yes", ":no", 1)
	if r := w.click("u1", no); len(g.Log()) != n || !strings.Contains(r.msg.Content, "Cancelled") {
		t.Fatalf("cancel played the move: %q", r.msg.Content)
	}
	a = w.cmd("u1", "claim", "", opts)
	w.click("u1", findButton(a.msg, "confirm:"))
	if len(g.Log()) != n+1 || g.Owner(claim.Track) != 0 {
		t.Fatal("confirm did not play the claim")
	}
}

func TestUndoRefusedOnceSomethingHiddenWasRevealed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	w.click("u1", "draw:"+gid+":0:deck")
	w.click("u1", "draw:"+gid+":0:deck")
	g, _ := w.game("c1")
	n := len(g.Log())
	a := w.cmd("u1", "ttr", "undo", nil)
	if !a.msg.Ephemeral || !strings.Contains(a.msg.Content, "can't be taken back") || len(g.Log()) != n {
		t.Fatalf("drawn cards were seen: no undo: %q", a.msg.Content)
	}
}

// claimFor is a legal claim of a route without a tunnel for seat, if any.
func claimFor(g *engine.Game, seat int) *engine.Action {
	for _, a := range g.LegalActions(seat, nil) {
		if a.Kind == engine.ActClaim && !g.Board().Tracks[a.Track].Tunnel {
			return &a
		}
	}
	return nil
}

func claimOpts(g *engine.Game, a *engine.Action) map[string]string {
	opts := map[string]string{"route": engine.TrackRef(g.Board(), a.Track), "locomotives": fmt.Sprint(a.Locos)}
	if a.Color != 0 {
		opts["color"] = a.Color.String()
	}
	return opts
}

func TestUndoTakesBackAClaimAndTheMovesSince(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, map[string]string{"turn_timer": "0"})
	g, _ := w.game("c1")
	// Draw until u1 can claim and u2 could claim right after.
	for round := 0; ; round++ {
		if round > 40 {
			t.Fatal("never two claims in a row")
		}
		if c := claimFor(g, 0); c != nil {
			probe := g.Clone()
			if probe.Play(0, *c) == nil && claimFor(probe, 1) != nil {
				break
			}
		}
		for _, u := range []string{"u1", "u2"} {
			turn := fmt.Sprint(g.Turn())
			w.click(u, "draw:"+gid+":"+turn+":deck")
			w.click(u, "draw:"+gid+":"+turn+":deck")
		}
	}
	n, hand := len(g.Log()), g.Player(0).Hand
	c1 := claimFor(g, 0)
	w.cmd("u1", "claim", "", claimOpts(g, c1))
	// Alone, the asker takes back their own claim at once.
	if a := w.cmd("u1", "ttr", "undo", nil); !strings.Contains(a.msg.Content, "taken back") {
		t.Fatalf("undo of a claim nobody answered: %q", a.msg.Content)
	}
	g, _ = w.game("c1")
	if len(g.Log()) != n || g.Owner(c1.Track) != -1 || g.Player(0).Hand != hand || g.Current() != 0 {
		t.Fatalf("after undo: %d moves (want %d), owner %d, current %d", len(g.Log()), n, g.Owner(c1.Track), g.Current())
	}
	// Claim again; u2 claims too; u1's undo now needs u2.
	w.cmd("u1", "claim", "", claimOpts(g, c1))
	c2 := claimFor(g, 1)
	w.cmd("u2", "claim", "", claimOpts(g, c2))
	if a := w.cmd("u2", "ttr", "undo", nil); !strings.Contains(a.msg.Content, "taken back") {
		t.Fatalf("u2 takes back their own claim alone: %q", a.msg.Content)
	}
	g, _ = w.game("c1")
	w.cmd("u2", "claim", "", claimOpts(g, c2))
	a := w.cmd("u1", "ttr", "undo", nil)
	yes := findButton(a.msg, "undo:")
	if yes == "" || a.msg.Ephemeral {
		t.Fatalf("undo over another player's move asks them: %+v", a.msg)
	}
	if r := w.click("u1", yes); !strings.Contains(r.msg.Content, "others decide") {
		t.Fatalf("the asker does not vote: %q", r.msg.Content)
	}
	w.click("u2", yes)
	g, _ = w.game("c1")
	if len(g.Log()) != n || g.Owner(c1.Track) != -1 || g.Owner(c2.Track) != -1 || g.Current() != 0 {
		t.Fatalf("undo of two claims: %d moves (want %d), current %d", len(g.Log()), n, g.Current())
	}
}

func TestTurnTimerRemindsThenPlays(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, map[string]string{"turn_timer": "9"})
	g, _ := w.game("c1")
	posts := len(w.poster.all("c1"))
	remindedAt := func(after time.Duration, want int) {
		t.Helper()
		w.now = w.now.Add(after)
		w.svc.CheckTimers()
		w.svc.CheckTimers() // a second check sends nothing more
		w.svc.Quiet()
		all := w.poster.all("c1")
		if len(all) != posts+want {
			t.Fatalf("%d reminders, want %d", len(all)-posts, want)
		}
		if last := all[len(all)-1]; !strings.Contains(last.Content, "your turn") || len(last.Mentions) != 1 {
			t.Fatalf("a reminder mentions the player: %+v", last)
		}
	}
	remindedAt(4*time.Minute, 1) // a third of 9 minutes
	remindedAt(3*time.Minute, 2) // two thirds
	n := len(g.Log())
	w.now = w.now.Add(3 * time.Minute)
	w.svc.CheckTimers()
	w.svc.Quiet()
	if g.Current() != 1 || len(g.Log()) <= n {
		t.Fatalf("after the limit the turn is played: current %d, moves %d", g.Current(), len(g.Log()))
	}
	if last := w.poster.last("c1"); !strings.Contains(last.Content, "took too long") {
		t.Fatalf("the board says why: %q", last.Content)
	}
}

func TestHandIsPrivateAndDMFallsBack(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, nil)
	a := w.cmd("u1", "hand", "", nil)
	if !a.msg.Ephemeral || len(a.msg.Files) != 1 || a.msg.Files[0].Name != "hand.png" {
		t.Fatalf("hand: %+v", a.msg)
	}
	decodePNG(t, a.msg.Files[0])
	if a := w.cmd("u1", "hand", "", map[string]string{"dm": "true"}); !strings.Contains(a.msg.Content, "DMs") || len(w.poster.dms["u1"]) != 1 {
		t.Fatalf("dm: %+v", a.msg)
	}
	w.poster.dmClosed["u2"] = true
	a = w.cmd("u2", "hand", "", map[string]string{"dm": "true"})
	if !a.msg.Ephemeral || !strings.Contains(a.msg.Content, "Privacy Settings") || len(a.msg.Embeds) == 0 {
		t.Fatalf("closed DMs fall back to an ephemeral hand with how-to: %+v", a.msg)
	}
}

func TestLobbyErrorsSayWhatWorks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	if a := w.cmd("u1", "ttr", "new", map[string]string{"map": "mars"}); !strings.Contains(a.msg.Content, "usa, europe, marklin") {
		t.Fatalf("bad map: %q", a.msg.Content)
	}
	if a := w.cmd("u1", "ttr", "new", map[string]string{"map": "europe", "variant": "huge"}); !strings.Contains(a.msg.Content, "classic, 1912, mega, bigcities") {
		t.Fatalf("bad variant: %q", a.msg.Content)
	}
	w.cmd("u1", "ttr", "new", map[string]string{"map": "europe"})
	if a := w.cmd("u1", "ttr", "start", nil); !strings.Contains(a.msg.Content, "two players") {
		t.Fatalf("start alone: %q", a.msg.Content)
	}
	if a := w.cmd("u2", "ttr", "new", nil); !strings.Contains(a.msg.Content, "already") {
		t.Fatalf("second table: %q", a.msg.Content)
	}
	w.cmd("u2", "ttr", "join", nil)
	if a := w.cmd("u2", "ttr", "end", nil); !strings.Contains(a.msg.Content, "Only the host") {
		t.Fatalf("end by a guest: %q", a.msg.Content)
	}
	if a := w.cmd("u2", "ttr", "start", nil); !strings.Contains(a.msg.Content, "host") {
		t.Fatalf("start by a guest: %q", a.msg.Content)
	}
	if a := w.do(&Request{Type: CommandRequest, User: "u3", Name: "ttr", Sub: "end", CanManage: true}); a.msg.Ephemeral {
		t.Fatalf("a moderator may end: %q", a.msg.Content)
	}
}

func TestLocalisedReplies(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.do(&Request{Type: CommandRequest, User: "u1", Name: "draw", Locale: "fr"})
	if a.msg.Content == present.T("en", "game.none") || a.msg.Content != present.T("fr", "game.none") {
		t.Fatalf("French reply: %q", a.msg.Content)
	}
	a = w.do(&Request{Type: CommandRequest, User: "u1", Name: "draw", Locale: "de"})
	if a.msg.Content != present.T("de", "game.none") {
		t.Fatalf("German reply: %q", a.msg.Content)
	}
}

// The bonus-tickets option is refused with a clear note while the board's
// deck holds no bonus tickets, and no table is opened.
func TestBonusTicketsOptionRefusedWithoutBonusTickets(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.cmd("u1", "ttr", "new", map[string]string{"map": "europe", "bonus_tickets": "true"})
	if !a.msg.Ephemeral || !strings.Contains(a.msg.Content, "no bonus tickets") && !strings.Contains(a.msg.Content, "has none") {
		t.Fatalf("want a refusal naming the missing bonus tickets: %+v", a.msg)
	}
	w.cmd("u1", "ttr", "new", map[string]string{"map": "europe"})
	if _, ok := w.lobby("c1"); !ok {
		t.Fatal("the table does not open without the option")
	}
}

// A game records the rules revision it starts under, and a stored game from
// before revisions existed is replayed under the first one, so its log
// leads to the same position after an upgrade.
func TestGamesKeepTheirRulesRevision(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, nil)
	rec, err := w.store.Get("c1")
	if err != nil || rec.Rules != engine.LatestRevision {
		t.Fatalf("stored revision %d (%v), want %d", rec.Rules, err, engine.LatestRevision)
	}
	if g, _ := w.game("c1"); g.Config().Revision != engine.LatestRevision {
		t.Fatalf("playing under revision %d", g.Config().Revision)
	}
	if err := w.store.Update("c1", func(r *store.GameRecord) error { r.Rules = 0; return nil }); err != nil {
		t.Fatal(err)
	}
	w.restart()
	w.cmd("u1", "board", "", nil) // loads the table
	if g, _ := w.game("c1"); g == nil || g.Config().Revision != engine.Revision1 {
		t.Fatalf("an old record replays under revision 1: %+v", g)
	}
}

// After a restart, the next board narrates only its own turn, not the
// whole game replayed from the log.
func TestBoardAfterARestartNarratesOnlyItsTurn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	w.click("u1", "draw:"+gid+":0:deck")
	w.click("u1", "draw:"+gid+":0:deck")
	first := w.poster.last("c1").Content
	w.restart()
	w.click("u2", "draw:"+gid+":1:deck")
	w.click("u2", "draw:"+gid+":1:deck")
	second := w.poster.last("c1").Content
	if !strings.Contains(second, "name-u2") || strings.Contains(second, "name-u1** drew") || strings.Contains(second, "kept") || second == first {
		t.Fatalf("the board after a restart: %q (the one before: %q)", second, first)
	}
}

// /ttr notify: a player who asks gets a DM when a board asks them to play
// (and at the start, to choose tickets); one who stops gets none; a closed
// DM is no error for the table.
func TestTurnDMsForPlayersWhoAsk(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa"})
	w.cmd("u2", "ttr", "join", nil)
	if a := w.cmd("u3", "ttr", "notify", nil); !strings.Contains(a.msg.Content, "/ttr join") {
		t.Fatalf("a stranger asks for turn DMs: %q", a.msg.Content)
	}
	if a := w.cmd("u2", "ttr", "notify", nil); !a.msg.Ephemeral || !strings.Contains(a.msg.Content, "🔔") {
		t.Fatalf("notify on: %+v", a.msg)
	}
	w.cmd("u1", "ttr", "start", nil)
	if dms := w.poster.dms["u2"]; len(dms) != 1 || !strings.Contains(dms[0].Content, "<#c1>") {
		t.Fatalf("u2's DMs at the start: %+v", dms)
	}
	if len(w.poster.dms["u1"]) != 0 {
		t.Fatal("u1 did not ask for DMs")
	}
	_, gid := w.game("c1")
	for seat, u := range []string{"u1", "u2"} {
		w.keepFirstTickets(u, seat)
	}
	// Seat 0 (u1) plays first: u2 is told when u1's turn ends.
	before := len(w.poster.dms["u2"])
	w.click("u1", "draw:"+gid+":0:deck")
	w.click("u1", "draw:"+gid+":0:deck")
	if dms := w.poster.dms["u2"]; len(dms) != before+1 || !strings.Contains(dms[len(dms)-1].Content, "turn") {
		t.Fatalf("u2 was not told of their turn: %+v", dms)
	}
	w.cmd("u2", "ttr", "notify", map[string]string{"on": "false"})
	w.poster.dmClosed["u1"] = true
	w.cmd("u1", "ttr", "notify", nil)
	w.click("u2", "draw:"+gid+":1:deck")
	w.click("u2", "draw:"+gid+":1:deck")
	w.click("u1", "draw:"+gid+":2:deck")
	w.click("u1", "draw:"+gid+":2:deck")
	if dms := w.poster.dms["u2"]; len(dms) != before+1 {
		t.Fatalf("u2 stopped the DMs but got %d more", len(dms)-before-1)
	}
	if g, _ := w.game("c1"); g.Turn() != 3 {
		t.Fatalf("a closed DM held the table: turn %d", g.Turn())
	}
}

// findSelect is the custom id of a message's select menu.
func findSelect(m Message) string {
	for _, row := range m.Components {
		for _, c := range row {
			if c.Kind == Select {
				return c.ID
			}
		}
	}
	return ""
}

// TestHandWhileOthersChooseTickets: a player who has kept tickets can look
// at the hand while the others still choose.
func TestHandWhileOthersChooseTickets(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa"})
	w.cmd("u2", "ttr", "join", nil)
	w.cmd("u1", "ttr", "start", nil)
	_, gid := w.game("c1")
	a := w.click("u1", "setup:"+gid+":0:")
	id := findButton(a.msg, "keep:")
	if r := w.click("u1", id, "0", "1"); !strings.Contains(r.msg.Content, "You kept") {
		t.Fatalf("u1 keeps: %q", r.msg.Content)
	}
	a = w.cmd("u1", "hand", "", nil)
	if !a.msg.Ephemeral || len(a.msg.Embeds) == 0 || len(a.msg.Files) == 0 {
		t.Fatalf("hand while u2 chooses: %q, %d embeds", a.msg.Content, len(a.msg.Embeds))
	}
}
