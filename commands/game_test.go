package commands

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// game returns the channel's engine game (tests peek to choose moves, the
// way a player reads the board).
func (w *world) game(ch string) (*engine.Game, string) {
	t, _ := w.svc.tables.loaded(ch)
	if t == nil {
		return nil, ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rec == nil {
		return nil, ""
	}
	return t.game, t.rec.ID
}

// playRequest turns an engine action into the request a player would make.
func (w *world) playRequest(g *engine.Game, gid, user string, a engine.Action) answer {
	b := g.Board()
	turn := strconv.Itoa(g.Turn())
	switch a.Kind {
	case engine.ActDraw:
		slot := "deck"
		if a.Slot != engine.DeckSlot {
			slot = strconv.Itoa(a.Slot + 1)
		}
		return w.click(user, "draw:"+gid+":"+turn+":"+slot)
	case engine.ActClaim:
		opts := map[string]string{"route": engine.TrackRef(b, a.Track), "locomotives": strconv.Itoa(a.Locos)}
		if a.Color != data.Gray {
			opts["color"] = a.Color.String()
		}
		if a.Passenger {
			opts["passenger"] = b.Cities[a.City].Name
		}
		return w.cmd(user, "claim", "", opts)
	case engine.ActDrawTickets:
		if g.Variant().DrawMix {
			if g.Phase() == engine.PhaseSetup {
				turn = "-1"
			}
			return w.click(user, "mix:"+gid+":"+turn+":"+strconv.Itoa(a.Long))
		}
		return w.click(user, "tickets:"+gid+":"+turn+":")
	case engine.ActKeep:
		var vals []string
		for i := 0; i < 64; i++ {
			if a.Keep&(1<<uint(i)) != 0 {
				vals = append(vals, strconv.Itoa(i))
			}
		}
		key := turn
		if g.Phase() == engine.PhaseSetup {
			key = strconv.Itoa(setupKey(g, seatOfUser(w, user)))
		}
		if len(vals) == 0 {
			return w.click(user, "keep:"+gid+":"+key+":none")
		}
		return w.click(user, "keep:"+gid+":"+key+":", vals...)
	case engine.ActStation:
		opts := map[string]string{"city": b.Cities[a.City].Name, "locomotives": strconv.Itoa(a.Locos)}
		if a.Color != data.Gray {
			opts["color"] = a.Color.String()
		}
		return w.cmd(user, "station", "", opts)
	case engine.ActTunnelPay:
		return w.click(user, "tunnel:"+gid+":"+turn+":pay"+strconv.Itoa(a.Locos))
	case engine.ActTunnelCancel:
		return w.click(user, "tunnel:"+gid+":"+turn+":cancel")
	case engine.ActMovePassenger:
		ans := w.cmd(user, "passenger", "", map[string]string{"from": b.Cities[a.City].Name})
		id := findButton(ans.msg, "trip:")
		if id == "" {
			return ans
		}
		return w.click(user, id)
	}
	return answer{}
}

func seatOfUser(w *world, user string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(user, "u"))
	return n - 1
}

// openGame opens a table of players humans in c1 and starts it; it
// returns their users.
func openGame(t *testing.T, w *world, mapID, variant string, players int) []string {
	t.Helper()
	users := make([]string, players)
	for i := range users {
		users[i] = fmt.Sprint("u", i+1)
	}
	if a := w.cmd(users[0], "ttr", "new", map[string]string{"map": mapID, "variant": variant}); !a.msg.Ephemeral {
		t.Fatalf("new: a public answer %q, want a private one and the lobby posted", a.msg.Content)
	}
	if _, ok := w.lobby("c1"); !ok {
		t.Fatal("new: no lobby posted")
	}
	for _, u := range users[1:] {
		if a := w.cmd(u, "ttr", "join", nil); a.msg.Ephemeral {
			t.Fatalf("join: %s", a.msg.Content)
		}
	}
	if a := w.cmd(users[0], "ttr", "start", nil); a.msg.Ephemeral || len(a.msg.Components) != 0 {
		t.Fatalf("start: the lobby does not close: %+v", a.msg)
	}
	if b := w.poster.last("c1"); len(b.Files) != 1 {
		t.Fatalf("start: no board posted: %+v", b)
	}
	return users
}

// playToEnd plays the game of c1 to its end through the commands layer,
// choosing random legal moves (seed chooses them), and returns how many
// requests it took.
func playToEnd(t *testing.T, w *world, users []string, seed uint64) int {
	t.Helper()
	pick := seed
	requests := 0
	for {
		g, gid := w.game("c1")
		if g == nil {
			break
		}
		requests++
		if requests > 3000 {
			t.Fatal("the game does not end")
		}
		seat := g.ToAct()
		legal := g.LegalActions(seat, nil)
		pick = pick*6364136223846793005 + 1442695040888963407
		a := legal[int((pick>>33)%uint64(len(legal)))]
		before := len(g.Log())
		ans := w.playRequest(g, gid, users[seat], a)
		if g2, _ := w.game("c1"); g2 != nil && len(g2.Log()) == before {
			t.Fatalf("%s by %s was not played: %+v", engine.FormatAction(g.Board(), a), users[seat], ans.msg.Content)
		}
		for _, f := range ans.msg.Files {
			decodePNG(t, f)
			if f.Description == "" {
				t.Fatalf("a picture without alt text: %s", f.Name)
			}
		}
	}
	return requests
}

// playWholeGame opens a table of players humans and plays it to its end.
func playWholeGame(t *testing.T, w *world, mapID, variant string, players int, seed uint64) int {
	t.Helper()
	return playToEnd(t, w, openGame(t, w, mapID, variant, players), seed)
}

// endsWithItsSheet checks how a whole game ended: the final score sheet
// with its picture last, the game archived, and every board with its
// picture, the live page's button when the page is on (and the sheet's
// link to the replay page), none when it is off.
func endsWithItsSheet(t *testing.T, w *world, page bool) {
	t.Helper()
	posts := w.poster.all("c1")
	last := posts[len(posts)-1]
	if len(last.Files) != 1 || last.Files[0].Name != "final.png" || !strings.Contains(last.Content, "🎉") {
		t.Fatalf("the game ends with the final score sheet, got %q", last.Content)
	}
	decodePNG(t, last.Files[0])
	// Every picture says in words what it shows.
	for _, m := range posts {
		for _, f := range m.Files {
			if f.Description == "" || utf8.RuneCountInString(f.Description) > present.MaxAlt {
				t.Fatalf("%s: alt text of %d characters: %q", f.Name, utf8.RuneCountInString(f.Description), f.Description)
			}
		}
	}
	st, err := w.store.Stats("g1", "")
	if err != nil || st.Games != 1 {
		t.Fatalf("the finished game is archived: %+v %v", st, err)
	}
	entries, _ := w.store.Archived("g1")
	seats := len(entries[0].Players)
	boards, pictures, changed := 0, 0, -1
	for _, m := range posts {
		if findButton(m, "draw:") == "" && m.Status == "" {
			continue // not a board (a board's draws may all be empty)
		}
		boards++
		// A picture once a round at most, at the round after the map
		// changed; the boards between in words with the table's status.
		pictured := len(m.Files) == 1 && m.Files[0].Name == "board.png"
		switch {
		case pictured:
			pictures, changed = pictures+1, -1
		case len(m.Files) != 0:
			t.Fatalf("a board with files %+v", m.Files)
		case m.Status == "":
			t.Fatalf("a board without its picture nor its status: %q", m.Content)
		case changed >= 0:
			if changed++; changed > seats {
				t.Fatalf("%d boards since the map changed and no picture at %d seats: %q", changed, seats, m.Content)
			}
		}
		if !pictured && changed < 0 && mapChangeTold(m.Content) {
			changed = 0
		}
		if m.Status != "" && !strings.Contains(m.Status, "▶ ") {
			t.Fatalf("a board's status says nobody's turn: %q", m.Status)
		}
		if (findButton(m, "activity:") != "") != page {
			t.Fatalf("with the live page on: %v, a board's buttons %+v", page, m.Components)
		}
	}
	for _, m := range posts {
		if !page && strings.Contains(m.Content, "/r/") {
			t.Fatalf("with the live page off, a post links a replay page: %q", m.Content)
		}
	}
	if boards == 0 {
		t.Fatal("no boards posted")
	}
	if pictures > boards/seats+2 {
		t.Fatalf("%d board pictures for %d boards at %d seats: want one a round", pictures, boards, seats)
	}
	link := "(<https://conductor.test/r/g1-" + entries[0].GameID + ">)"
	if hasLink := strings.Contains(last.Content, link) && strings.Contains(last.Content, present.T("", "web.replay_link")); hasLink != page {
		t.Fatalf("with the live page on: %v, the final sheet %q", page, last.Content)
	}
}

// mapChangeTold: a board's narration tells a claim, a station or a
// passenger (ev.claim, ev.station, ev.passenger_*).
func mapChangeTold(content string) bool {
	for _, l := range strings.Split(content, "\n") {
		for _, mark := range []string{"🚂 **", "🚉 **", "🧍 **", "🧳 **"} {
			if strings.HasPrefix(l, mark) {
				return true
			}
		}
	}
	return false
}

// Whole games of each edition, each played once through the commands
// layer (random legal moves of people), each checked for all a whole game
// shows: how it ends (the final sheet, the archive, every board's picture
// and buttons), and, on USA, the hints counted to the end and the replay;
// on Europe, no secret in public.
func TestWholeGames(t *testing.T) {
	t.Parallel()
	t.Run("usa-2, live page on, hints", func(t *testing.T) {
		t.Parallel()
		w, _ := newActivityWorld(t)
		hintsFrom(w)
		users := openGame(t, w, "usa", "", 2)
		// The hints asked are counted in the record (they survive a
		// restart) and the final narration says how many each used.
		w.cmd("u1", "ttr", "hint", nil)
		w.cmd("u1", "ttr", "hint", nil)
		w.restart()
		w.cmd("u1", "score", "", nil) // loads the table back
		playToEnd(t, w, users, 1)
		endsWithItsSheet(t, w, true)
		posts := w.poster.all("c1")
		want := present.T("", "hint.summary", "players", "name-u1 "+present.T("", "hint.count", "count", 2))
		if last := posts[len(posts)-1]; !strings.Contains(last.Content, want) {
			t.Errorf("final narration %q lacks %q", last.Content, want)
		}
		replayRefusesAGameThatNoLongerAddsUp(t, w)
		replayOfAFinishedGame(t, w) // forgets the server's games
	})
	t.Run("europe-classic-3, no secrets", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		playWholeGame(t, w, "europe", "classic", 3, 2)
		endsWithItsSheet(t, w, false)
		publicMessagesCarryNoSecrets(t, w)
	})
	t.Run("marklin-3", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		playWholeGame(t, w, "marklin", "", 3, 3)
		endsWithItsSheet(t, w, false)
	})
}

// publicMessagesCarryNoSecrets checks a whole game of c1 for secrets in
// public: no public post, and no board's picture, carries a ticket of any
// player or a card drawn blind.
func publicMessagesCarryNoSecrets(t *testing.T, w *world) {
	t.Helper()
	arch, err := w.store.Archived("g1")
	if err != nil || len(arch) != 1 {
		t.Fatal(err)
	}
	rec, err := w.store.ArchivedGame(arch[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	// Rebuild the game to learn every ticket anyone held or was offered.
	cfg, err := gameConfig(w.svc.cfg.Catalog, rec)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	secrets := map[string]bool{}
	for _, e := range rec.Log {
		a, _ := engine.ParseAction(g.Board(), e.Action)
		ev, err := g.Apply(e.Seat, a)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range ev {
			if x.Private {
				for _, id := range x.Tickets {
					secrets[present.TicketLabel(g.Board(), id)] = true
				}
			}
		}
	}
	if len(secrets) < 9 {
		t.Fatalf("expected the tickets offered, got %d", len(secrets))
	}
	posts := w.poster.all("c1")
	final := len(posts) - 1 - len(rec.Seats) - 1 // the staged reveal may show tickets
	for i, m := range posts[:final] {
		text := m.Content
		for _, e := range m.Embeds {
			text += e.Title + e.Description
			for _, f := range e.Fields {
				text += f.Name + f.Value
			}
		}
		for s := range secrets {
			if strings.Contains(text, s) {
				t.Fatalf("public post %d shows the ticket %q", i, s)
			}
		}
		for _, f := range m.Files {
			if f.Name == "hand.png" {
				t.Fatalf("public post %d carries a hand picture", i)
			}
		}
		if strings.Contains(text, "You drew") {
			t.Fatalf("public post %d tells a blind draw", i)
		}
	}
	// The boards' pictures were drawn from their scenes: none names a
	// ticket (the final sheet reveals them, by design).
	boards := w.pictures().Boards()
	if len(boards) < len(rec.Log)/8 {
		t.Fatalf("%d boards drawn for %d moves", len(boards), len(rec.Log))
	}
	for i, sc := range boards {
		sc.Board = nil
		raw, err := json.Marshal(sc)
		if err != nil {
			t.Fatal(err)
		}
		for s := range secrets {
			if strings.Contains(string(raw), s) {
				t.Fatalf("board picture %d shows the ticket %q", i, s)
			}
		}
	}
}
