package web_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/fakediscord"
)

// claimableNow is the set of tracks the engine lets user claim now, by
// its legal claims (nil when none).
func (s *stack) claimableNow(thread string, user fakediscord.User) map[int]bool {
	s.t.Helper()
	v, err := s.svc.View(thread, user.ID, "en")
	if err != nil {
		s.t.Fatal(err)
	}
	g := s.engineGame(thread)
	out := map[int]bool{}
	for _, a := range g.LegalActions(v.Seat, nil) {
		if a.Kind == engine.ActClaim {
			out[int(a.Track)] = true
		}
	}
	return out
}

// ticketCities are the cities of user's tickets, by the engine.
func (s *stack) ticketCities(thread string, user fakediscord.User) map[int]bool {
	s.t.Helper()
	v, err := s.svc.View(thread, user.ID, "en")
	if err != nil || v.Private == nil {
		s.t.Fatalf("no private view of %s: %v", user.Username, err)
	}
	out := map[int]bool{}
	for _, ts := range v.Private.Tickets {
		tk := v.Board.Tickets[ts.Ticket]
		out[int(tk.A)], out[int(tk.B)] = true, true
	}
	return out
}

// TestClaimableAndTicketCitiesAreTheReadersOwn: the tracks a reader may
// claim (they derive from the hand) are in the frame of the seat to play
// only, equal to what the engine allows it, and never in a frame of the
// other seat or of a spectator, over the socket, the state or a move's
// answer; each seat's frame carries the cities of its own tickets, which
// the page rings, and a spectator's none.
func TestClaimableAndTicketCitiesAreTheReadersOwn(t *testing.T) {
	s := newStack(t)
	alice, bob, carol := s.srv.CreateUser("alice"), s.srv.CreateUser("bob"), s.srv.CreateUser("carol")
	_, thread := s.gameWith(map[string]string{"map": "usa"}, alice, bob)
	inst := s.launch(alice, thread)
	s.srv.JoinActivity(carol.ID, inst)
	users := []fakediscord.User{alice, bob, carol}
	sessions := map[string]string{}
	for _, u := range users {
		ans, code := s.session(u, inst)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", u.Username, code, ans.raw)
		}
		sessions[u.ID] = ans.Session
	}
	pages := map[string]*page{}
	for _, u := range users {
		pages[u.ID] = s.open(u.Username, sessions[u.ID])
	}
	rec, _ := s.st.Get(thread)
	seats := map[string]int{alice.ID: seatOf(rec, alice.ID), bob.ID: seatOf(rec, bob.ID), carol.ID: -1}
	// answers holds every frame a reader got outside the socket.
	answers := map[string][][]byte{}
	claims, lit := 0, 0
	for turn := range 8 {
		mover := s.current(thread, alice, bob)
		other := bob
		if mover.ID == bob.ID {
			other = alice
		}
		// The mover's frame names exactly what the engine allows.
		f := s.state(sessions[mover.ID])
		want := s.claimableNow(thread, mover)
		got := map[int]bool{}
		for _, id := range f.Claimable {
			got[id] = true
		}
		if len(got) != len(f.Claimable) || !maps.Equal(got, want) {
			t.Errorf("turn %d: %s's frame names %v as claimable, the engine allows %v", turn, mover.Username, f.Claimable, want)
		}
		lit += len(f.Claimable)
		for _, u := range []string{other.ID, carol.ID} {
			_, raw := s.call(sessions[u], "GET", "/api/state", nil)
			answers[u] = append(answers[u], raw)
		}
		if turn%2 == 0 && len(want) > 0 {
			b, _ := s.svc.Board(rec.Map)
			ref := engine.TrackRef(b, data.TrackID(slices.Min(slices.Collect(maps.Keys(want)))))
			_, raw := s.act(sessions[mover.ID], map[string]any{"route": ref})
			answers[mover.ID] = append(answers[mover.ID], raw)
			claims++
		} else {
			for range 2 {
				f := s.state(sessions[mover.ID])
				if f.Deck == nil {
					break
				}
				_, raw := s.act(sessions[mover.ID], map[string]any{"custom_id": f.Deck.ID})
				answers[mover.ID] = append(answers[mover.ID], raw)
			}
		}
		s.svc.Quiet()
		v := s.version(thread)
		for _, p := range pages {
			p.waitVersion(v)
		}
	}
	if claims < 2 || lit == 0 {
		t.Fatalf("%d claims, %d tracks lit in 8 turns: the test saw too little", claims, lit)
	}
	own := map[string]map[int]bool{alice.ID: s.ticketCities(thread, alice), bob.ID: s.ticketCities(thread, bob)}
	checked := 0
	for _, u := range users {
		frames := append(pages[u.ID].all(), answers[u.ID]...)
		for _, raw := range frames {
			var f frame
			json.Unmarshal(raw, &f)
			if f.Type == "" {
				// A move's answer holds its frame under "state".
				var a actAnswer
				json.Unmarshal(raw, &a)
				json.Unmarshal(a.State, &f)
			}
			if f.Type != "state" {
				continue
			}
			checked++
			toPlay := f.Seat >= 0 && f.Seat == f.Current && f.CanClaim
			if bytes.Contains(raw, []byte(`"claimable"`)) && !toPlay {
				t.Errorf("%s (seat %d, seat %d to play) got the claimable tracks: %.300s", u.Username, seats[u.ID], f.Current, raw)
			}
			if seats[u.ID] < 0 {
				if f.Tickets != nil || bytes.Contains(raw, []byte(`"tickets"`)) {
					t.Errorf("the spectator got tickets: %.300s", raw)
				}
				continue
			}
			for _, tk := range f.Tickets {
				if len(tk.Cities) != 2 {
					t.Errorf("%s's ticket %q has cities %v", u.Username, tk.Label, tk.Cities)
				}
				for _, c := range tk.Cities {
					if !own[u.ID][c] {
						t.Errorf("%s's frame rings city %d, not one of their tickets' %v", u.Username, c, slices.Sorted(maps.Keys(own[u.ID])))
					}
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d frames checked", checked)
	}
	// The last frames ring each seat's cities, all of them.
	for _, u := range []fakediscord.User{alice, bob} {
		f := s.state(sessions[u.ID])
		got := map[int]bool{}
		for _, tk := range f.Tickets {
			for _, c := range tk.Cities {
				got[c] = true
			}
		}
		if !maps.Equal(got, own[u.ID]) {
			t.Errorf("%s's frame rings %v, their tickets' cities are %v", u.Username, got, own[u.ID])
		}
	}
}
