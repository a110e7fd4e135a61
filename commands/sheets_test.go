package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/present"
	"conductor/store"
)

// greedy is a deterministic test bot that ends games: it claims the
// longest route it can, else draws from the deck, else plays the first
// legal action (keeping the fewest tickets allowed).
type greedy struct{}

func (greedy) Choose(_ context.Context, v engine.PlayerView, legal []engine.Action) engine.Action {
	best := -1
	for i, a := range legal {
		if a.Kind == engine.ActClaim && (best < 0 || v.Board.Tracks[a.Track].Length > v.Board.Tracks[legal[best].Track].Length) {
			best = i
		}
	}
	if best >= 0 {
		return legal[best]
	}
	for _, a := range legal {
		if a.Kind == engine.ActDraw && a.Slot == engine.DeckSlot {
			return a
		}
	}
	return legal[0]
}

func greedyBots(string, uint64) (Bot, error) { return greedy{}, nil }

// tiedSeed finds a seed whose two-player USA game, both seats played by
// greedy, ends in a victory shared after every tie-break: the game is then
// played again through the service, its people's turns played by the
// turn timer with the same bot.
func tiedSeed(t *testing.T) uint64 {
	t.Helper()
	b, _ := data.Embedded().Board("usa")
	ties := func(seed uint64) bool {
		g, err := engine.New(engine.Config{Board: b, Variant: b.Variants[0].ID, Players: 2, Seed: seed, Revision: engine.LatestRevision})
		if err != nil {
			t.Fatal(err)
		}
		act := func(seat int) {
			g.Apply(seat, greedy{}.Choose(context.Background(), g.View(seat), g.LegalActions(seat, nil)))
		}
		for n := 0; g.Phase() != engine.PhaseOver && n < 2000; n++ {
			act(g.ToAct())
		}
		fs := g.Final()
		return fs != nil && fs.Places[0] == 1 && fs.Places[1] == 1
	}
	// The first such seed with today's rules, tried first: the search
	// from 1 costs some 250 games.
	if ties(knownTiedSeed) {
		return knownTiedSeed
	}
	for seed := uint64(1); seed < 20000; seed++ {
		if ties(seed) {
			return seed
		}
	}
	t.Fatal("no seed below 20000 ties")
	return 0
}

const knownTiedSeed = 244

// realFinals sketches boards and hands, and draws final score sheets for
// real.
type realFinals struct{ *sketch }

func (realFinals) Final(w io.Writer, fs *imaging.FinalScene) error {
	return sharedRenderer.Final(w, fs)
}

// serve gives the world's service greedy bots and the clock.
func (w *world) serve(clock *testClock) {
	w.configure(func(c *Config) {
		c.Bots, c.BotLevels = greedyBots, []string{"easy", "normal"}
		c.Now = clock.Now
	})
}

// tableOf opens a two-player table in channel ch (seed 0: a random one).
func (w *world) tableOf(ch string, seed uint64, clock *testClock) string {
	w.t.Helper()
	w.do(&Request{Type: CommandRequest, Channel: ch, User: "u1", Name: "ttr", Sub: "new", Options: map[string]string{"map": "usa", "turn_timer": "1"}})
	w.do(&Request{Type: CommandRequest, Channel: ch, User: "u2", Name: "ttr", Sub: "join"})
	if seed != 0 {
		if err := w.store.Update(ch, func(r *store.GameRecord) error { r.Seed = seed; return nil }); err != nil {
			w.t.Fatal(err)
		}
		w.restart()
	}
	w.do(&Request{Type: CommandRequest, Channel: ch, User: "u1", Name: "ttr", Sub: "start"})
	rec, err := w.store.Get(ch)
	if err != nil {
		w.t.Fatal(err)
	}
	return rec.ID
}

// timerPlays lets the turn timer play the people's turns (with the bot
// that plays an absent player's turn) until the game ends or moves reach
// limit; it reports whether the game ended.
func (w *world) timerPlays(ch string, limit int, clock *testClock) bool {
	w.t.Helper()
	for range 5000 {
		rec, err := w.store.Get(ch)
		if errors.Is(err, store.ErrNotFound) {
			return true
		}
		if err != nil {
			w.t.Fatal(err)
		}
		if len(rec.Log) >= limit {
			return false
		}
		clock.advance(2 * time.Minute)
		w.svc.CheckTimers()
		w.botsPlayed() // a bot seat's move runs on its own timer
		w.svc.Quiet()
	}
	w.t.Fatalf("%s: the game does not end", ch)
	return false
}

// sheetOf is an archived game's score sheet.
func sheetOf(t *testing.T, st *store.Store, id string) *store.ArchiveEntry {
	t.Helper()
	e, err := st.ArchivedByID("g1", id)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// finalPicture decodes a channel's final score sheet picture.
func finalPicture(t *testing.T, posts []Message) (winnerRows int) {
	t.Helper()
	for _, m := range posts {
		for _, f := range m.Files {
			if f.Name != "final.png" {
				continue
			}
			im, err := png.Decode(bytes.NewReader(f.Data))
			if err != nil {
				t.Fatal(err)
			}
			// The ranking beside the map: a winner's row is highlighted.
			highlight := color.RGBA{255, 236, 170, 255}
			for row := range 5 {
				if c := color.RGBAModel.Convert(im.At(1280+9, 72+row*74+3)).(color.RGBA); c == highlight {
					winnerRows++
				}
			}
			return winnerRows
		}
	}
	t.Fatal("no final sheet picture")
	return 0
}

// texts joins what a channel's posts say.
func texts(posts []Message) string {
	var sb strings.Builder
	for _, m := range posts {
		sb.WriteString(m.Content + "\n")
		for _, e := range m.Embeds {
			sb.WriteString(e.Title + "\n" + e.Description + "\n")
		}
	}
	return sb.String()
}

// TestStatsAndResultsFromTheSheets plays three games (one ended early,
// one whose victory is shared after every tie-break, one with a seat a
// bot took over) and checks /ttr stats, the result posts and the final
// pictures against the archived score sheets.
func TestStatsAndResultsFromTheSheets(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	// The final pictures are looked at: they are drawn for real, the
	// boards sketched.
	w.renderer = realFinals{&sketch{}}
	w.svc.Close()
	w.svc = w.service()
	clock := &testClock{now: w.now}
	w.serve(clock)

	// A shared victory, after every tie-break.
	tie := w.tableOf("tie", tiedSeed(t), clock)
	if !w.timerPlays("tie", 1<<30, clock) {
		t.Fatal("the tied game did not end")
	}
	tieSheet := sheetOf(t, w.store, tie)
	if p := tieSheet.Players; len(p) != 2 || !p[0].Won || !p[1].Won || p[0].Rank != 1 || p[1].Rank != 1 || p[0].Score != p[1].Score {
		t.Fatalf("the tied game's sheet: %+v", p)
	}
	posts := w.poster.all("tie")
	all := texts(posts)
	if !strings.Contains(all, present.T("en", "final.shared", "players", "<@u1> and <@u2>", "points", tieSheet.Players[0].Score)) {
		t.Errorf("the result does not announce the shared victory:\n%s", all)
	}
	if strings.Contains(all, "The winner is") {
		t.Errorf("a shared victory is announced as one player's:\n%s", all)
	}
	// The sheet says why the place is shared: every tie-break is equal.
	if want := present.T("en", "final.tie_shared", "a", "**name-u1**", "b", "**name-u2**", "points", tieSheet.Players[0].Score); !strings.Contains(all, want) {
		t.Errorf("the result does not say the tie-breaks left the score shared (%q):\n%s", want, all)
	}
	for seat, name := range []string{"name-u1", "name-u2"} {
		if line := fmt.Sprintf("1. %s %s — %d", present.ColorDot(seat), name, tieSheet.Players[seat].Score); !strings.Contains(all, line) {
			t.Errorf("the ranking lacks %q:\n%s", line, all)
		}
	}
	if rows := finalPicture(t, posts); rows != 2 {
		t.Errorf("the final picture highlights %d winners, want the 2 who share the victory", rows)
	}

	// A seat taken over by a bot: u2 leaves after the first turn.
	over := w.tableOf("over", 0, clock)
	w.timerPlays("over", 4, clock)
	if a := w.do(&Request{Type: CommandRequest, Channel: "over", User: "u2", Name: "ttr", Sub: "leave"}); !strings.Contains(a.msg.Content, "left the game") {
		t.Fatalf("leaving: %q", a.msg.Content)
	}
	if !w.timerPlays("over", 1<<30, clock) {
		t.Fatal("the game with a seat taken over did not end")
	}
	overSheet := sheetOf(t, w.store, over)
	if p := overSheet.Players[1]; !p.TakenOver || p.UserID != "u2" || p.Bot != takeoverLevel {
		t.Fatalf("the taken-over seat's sheet: %+v", p)
	}
	posts = w.poster.all("over")
	all = texts(posts)
	botFor := "🤖 " + present.T("en", "seat.bot_for", "level", "normal", "player", "name-u2")
	if !strings.Contains(all, botFor+" — ") {
		t.Errorf("the final sheet does not name the seat %q:\n%s", botFor, all)
	}
	// The bots' moves run on their own timers, so the move at which u2
	// leaves, and the winners, depend on timing: the picture must show
	// the sheet's.
	overWinners := overSheet.Winners()
	if rows := finalPicture(t, posts); rows != overWinners || overWinners == 0 {
		t.Errorf("the final picture highlights %d winners, want the sheet's %d", rows, overWinners)
	}
	// u2 keeps the game: the rematch is theirs to ask for.
	var rematch string
	for _, m := range posts {
		if id := findButton(m, "rematch:"); id != "" {
			rematch = id
		}
	}
	if a := w.do(&Request{Type: ComponentRequest, Channel: "over", User: "u2", CustomID: rematch}); strings.Contains(a.msg.Content, "Only the players") {
		t.Errorf("the player who left may not ask for the rematch: %q", a.msg.Content)
	}
	if rec, err := w.store.Get("over"); err != nil || len(rec.Seats) != 2 || rec.Seats[1].Bot != "" || rec.Seats[1].UserID != "u2" {
		t.Errorf("the rematch does not seat the player who left as a person: %+v, %v", rec, err)
	} else {
		w.do(&Request{Type: CommandRequest, Channel: "over", User: "u1", Name: "ttr", Sub: "end"})
	}

	// Ended early: scored as it stood, said so, counted apart.
	early := w.tableOf("early", 0, clock)
	w.timerPlays("early", 12, clock)
	ask := w.do(&Request{Type: CommandRequest, Channel: "early", User: "u1", Name: "ttr", Sub: "end"})
	score := findButton(ask.msg, "end:")
	if !strings.HasSuffix(score, ":score") {
		t.Fatalf("/ttr end's first button is not Score and archive: %q", score)
	}
	w.do(&Request{Type: ComponentRequest, Channel: "early", User: "u1", CustomID: score})
	earlySheet := sheetOf(t, w.store, early)
	if !earlySheet.Early {
		t.Fatalf("the game ended early is not archived so: %+v", earlySheet)
	}
	if all := texts(w.poster.all("early")); !strings.Contains(all, present.T("en", "final.ended_early")) {
		t.Errorf("the reveal does not say the game was ended early:\n%s", all)
	}

	// /ttr stats: every number from the sheets.
	a := w.do(&Request{Type: CommandRequest, Channel: "tie", User: "u1", Name: "ttr", Sub: "stats", Options: map[string]string{"player": "u2"}})
	if len(a.msg.Embeds) == 0 {
		t.Fatalf("/ttr stats: %+v", a.msg)
	}
	e := a.msg.Embeds[0]
	stats := e.Description
	for _, f := range e.Fields {
		stats += "\n" + f.Name + "\n" + f.Value
	}
	complete := []*store.ArchiveEntry{tieSheet, overSheet}
	best := tieSheet.Players[0]
	for _, s := range complete {
		for _, p := range s.Players {
			if p.Score > best.Score {
				best = p
			}
		}
	}
	moves := tieSheet.Moves + overSheet.Moves + earlySheet.Moves
	for _, want := range []string{
		present.T("en", "stats.summary", "games", 2, "players", 2, "moves", moves),
		present.T("en", "stats.early", "games", 1),
		present.T("en", "stats.best", "best", best.Score, "by", resultName("en", &best)),
	} {
		if !strings.Contains(stats, want) {
			t.Errorf("/ttr stats lacks %q:\n%s", want, stats)
		}
	}
	// Each member's wins and average from the sheets they finished.
	for _, user := range []string{"u1", "u2"} {
		games, wins, shared, total, left, earlyGames := 0, 0, 0, 0, 0, 0
		for _, s := range append(complete, earlySheet) {
			winners := s.Winners()
			for _, p := range s.Players {
				switch {
				case p.UserID != user:
				case p.TakenOver:
					left++
				case s.Early:
					earlyGames++
				default:
					games++
					total += p.Score
					if p.Won {
						wins++
						if winners > 1 {
							shared++
						}
					}
				}
			}
		}
		want := present.T("en", "stats.member", "player", "name-"+user, "wins", wins, "games", games, "avg", present.Decimal("en", float64(total)/float64(games), 1))
		want = want[strings.Index(want, "name-"):]
		// The line goes on with what stands apart, in this order. The
		// game left to a bot may end tied too (its moves run on timers),
		// so u1's shared wins are counted from the sheets, not assumed.
		want += " · " + present.T("en", "stats.part.shared", "n", shared) + " · " + present.T("en", "stats.part.early", "n", earlyGames)
		if left > 0 {
			want += " · " + present.T("en", "stats.part.left", "n", left)
		}
		if !strings.Contains(stats, want) {
			t.Errorf("/ttr stats lacks %s's line %q:\n%s", user, want, stats)
		}
		if shared < 1 || earlyGames != 1 || (user == "u2") != (left == 1) {
			t.Errorf("%s: %d shared wins, %d games ended early, %d left: the fixture is not what it claims", user, shared, earlyGames, left)
		}
	}
}
