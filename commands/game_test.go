package commands

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
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

// playWholeGame runs a game of humans through the commands layer, choosing
// random legal moves, and returns how many requests it took.
func playWholeGame(t *testing.T, w *world, mapID, variant string, players int, seed uint64) int {
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
	pick := uint64(seed)
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
		}
	}
	return requests
}

func TestWholeGamesThroughCommands(t *testing.T) {
	cases := []struct {
		mapID, variant string
		players        int
	}{
		{"usa", "", 2}, {"europe", "classic", 3}, {"marklin", "", 3},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%s-%s-%d", c.mapID, c.variant, c.players), func(t *testing.T) {
			w := newWorld(t)
			playWholeGame(t, w, c.mapID, c.variant, c.players, uint64(i+1))
			posts := w.poster.all("c1")
			last := posts[len(posts)-1]
			if len(last.Files) != 1 || last.Files[0].Name != "final.png" || !strings.Contains(last.Content, "🎉") {
				t.Fatalf("the game ends with the final score sheet, got %q", last.Content)
			}
			decodePNG(t, last.Files[0])
			st, err := w.store.Stats("g1", "")
			if err != nil || st.Games != 1 {
				t.Fatalf("the finished game is archived: %+v %v", st, err)
			}
		})
	}
}
