package web_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/fakediscord"
	"conductor/present"
	"conductor/store"
)

// claimable finds a track the seat to play can claim now, by its engine
// reference: what the page sends when the track is clicked.
func (s *stack) claimable(thread string, user fakediscord.User) (data.TrackID, string) {
	s.t.Helper()
	v, err := s.svc.View(thread, user.ID, "en")
	if err != nil || v.Private == nil {
		s.t.Fatalf("no view of %s: %v", user.Username, err)
	}
	// Rebuild the game from the record to ask the engine what is legal.
	g := s.engineGame(thread)
	for _, a := range g.LegalActions(v.Seat, nil) {
		if a.Kind == engine.ActClaim && v.Board.Tracks[a.Track].Color != data.Gray {
			return a.Track, engine.TrackRef(v.Board, a.Track)
		}
	}
	s.t.Fatalf("%s can claim nothing", user.Username)
	return 0, ""
}

// engineGame replays a channel's stored game.
func (s *stack) engineGame(channel string) *engine.Game {
	s.t.Helper()
	rec, err := s.st.Get(channel)
	if err != nil {
		s.t.Fatal(err)
	}
	b, _ := s.svc.Board(rec.Map)
	moves := make([]engine.NotatedMove, len(rec.Log))
	for i, e := range rec.Log {
		moves[i] = engine.NotatedMove{Seat: e.Seat, Action: e.Action}
	}
	g, err := engine.ReplayNotation(engine.Config{Board: b, Variant: rec.Variant, Players: len(rec.Seats), Seed: rec.Seed, Revision: max(rec.Rules, engine.Revision1)}, moves, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	return g
}

// current is the user to play.
func (s *stack) current(thread string, users ...fakediscord.User) fakediscord.User {
	s.t.Helper()
	v, err := s.svc.View(thread, "", "en")
	if err != nil {
		s.t.Fatal(err)
	}
	for _, u := range users {
		if v.Seats[v.Public.Current].User == u.ID {
			return u
		}
	}
	s.t.Fatal("nobody of these is to play")
	return fakediscord.User{}
}

// TestClickingATrackClaimsItLikeTheCommand: a claim from the page goes
// through the commands: the engine's state changes, the thread gets its
// board, the log records the move under the page's request id; the same
// request again is applied once and answered the same; an old button is
// answered as an old button is in Discord.
func TestClickingATrackClaimsItLikeTheCommand(t *testing.T) {
	s := newStack(t)
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	sessions := map[string]string{}
	for _, u := range []fakediscord.User{alice, bob} {
		ans, code := s.session(u, inst)
		if code != 200 {
			t.Fatalf("%d %s", code, ans.raw)
		}
		sessions[u.ID] = ans.Session
	}
	mover := s.current(thread, alice, bob)
	other := alice
	if mover.ID == alice.ID {
		other = bob
	}
	before := s.state(sessions[mover.ID])
	if !before.CanClaim || before.Deck == nil || before.TicketsButton == nil {
		t.Fatalf("the player to play cannot claim or draw: %+v", before)
	}
	if f := s.state(sessions[other.ID]); f.CanClaim || f.Deck != nil {
		t.Errorf("the other player may act out of turn: %+v", f)
	}
	// A refusal is the command's: not your turn.
	tr, ref := s.claimable(thread, mover)
	ans, _ := s.act(sessions[other.ID], map[string]any{"route": ref})
	if want := present.T("en", "game.not_your_turn", "player", mover.Username); !strings.Contains(ans.text(), want) {
		t.Errorf("a claim out of turn answered %q, want %q", ans.text(), want)
	}
	boards := len(s.srv.Messages(thread))
	logLen := s.logLen(thread)
	body := map[string]any{"route": ref, "nonce": "claim-once-0001"}
	first, raw1 := s.act(sessions[mover.ID], body)
	if v, _ := s.svc.View(thread, "", "en"); v.Public.Owners[tr] < 0 {
		t.Fatalf("the track is not claimed after the click: %s", first.text())
	}
	rec, _ := s.st.Get(thread)
	if n := len(rec.Log); n != logLen+1 || !strings.HasPrefix(rec.Log[n-1].Interaction, "web:") {
		t.Errorf("log %d → %d, last interaction %q", logLen, n, rec.Log[n-1].Interaction)
	}
	var st struct {
		Owners  []int8 `json:"owners"`
		Version uint64 `json:"version"`
	}
	json.Unmarshal(first.State, &st)
	if st.Owners[tr] < 0 || st.Version <= before.Version {
		t.Errorf("the answer's page does not show the claim: %+v", st)
	}
	if _, err := s.srv.WaitMessage(thread, func(m fakediscord.Message) bool {
		return isBoardPost(m) && strings.Contains(m.Body(), present.T("", "turn.next", "player", "<@"+other.ID+">", "color", present.ColorDot(seatOf(rec, other.ID))))
	}); err != nil {
		t.Fatalf("the thread got no board after the page's claim: %v", err)
	}
	if len(s.srv.Messages(thread)) <= boards {
		t.Error("no new post in the thread")
	}

	// The same request again: applied once, answered the same.
	again, raw2 := s.act(sessions[mover.ID], body)
	if !bytes.Equal(raw1, raw2) || s.logLen(thread) != logLen+1 {
		t.Errorf("a repeated request: log %d, answers differ: %s / %s", s.logLen(thread), first.text(), again.text())
	}

	// The old deck button of the mover's last turn: answered as stale.
	stale, _ := s.act(sessions[mover.ID], map[string]any{"custom_id": before.Deck.ID})
	if want := present.T("en", "stale.turn"); stale.text() != want {
		t.Errorf("an old button answered %q, want %q as in Discord", stale.text(), want)
	}
	if s.logLen(thread) != logLen+1 {
		t.Error("the old button played a move")
	}
	s.srv.CheckClean(t)
}

func (s *stack) logLen(channel string) int {
	rec, err := s.st.Get(channel)
	if err != nil {
		s.t.Fatal(err)
	}
	return len(rec.Log)
}

func seatOf(rec *store.GameRecord, user string) int {
	for i, st := range rec.Seats {
		if st.UserID == user {
			return i
		}
	}
	return -1
}

// TestDrawingFromThePage: the face-up cards and the deck are the board's
// own buttons; the second draw offers what the rules allow.
func TestDrawingFromThePage(t *testing.T) {
	s := newStack(t)
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	mover := s.current(thread, alice, bob)
	ans, _ := s.session(mover, inst)
	f := s.state(ans.Session)
	if len(f.FaceUp) != 5 {
		t.Fatalf("%d face-up cards", len(f.FaceUp))
	}
	hand := 0
	for _, c := range f.Hand {
		hand += c.N
	}
	a, _ := s.act(ans.Session, map[string]any{"custom_id": f.Deck.ID})
	var after frame
	json.Unmarshal(a.State, &after)
	if after.Deck == nil || after.TicketsButton != nil || !strings.Contains(a.text(), present.T("en", "you.second")) {
		t.Errorf("after one card: deck %v, tickets %v, %q", after.Deck, after.TicketsButton, a.text())
	}
	for _, c := range after.FaceUp {
		if c.Name == present.CardName("en", engine.Locomotive) && (c.Take == nil || !c.Take.Disabled) {
			t.Error("a face-up locomotive may be taken as a second card")
		}
	}
	b, _ := s.act(ans.Session, map[string]any{"custom_id": after.Deck.ID})
	var done frame
	json.Unmarshal(b.State, &done)
	n := 0
	for _, c := range done.Hand {
		n += c.N
	}
	if n != hand+2 || done.Deck != nil || done.CanClaim {
		t.Errorf("after two cards: hand %d → %d, still drawing %v", hand, n, done.Deck != nil)
	}
}
