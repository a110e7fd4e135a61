package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"conductor/commands"
	"conductor/internal/fakediscord"
	"conductor/present"
)

// isBoardPost: a board of the thread, with its picture (once a round) or
// in words with the table's status under them (quoted, or a text display
// of its own on a Components V2 board).
func isBoardPost(m fakediscord.Message) bool {
	if _, pic := m.Attachment("board.png"); pic {
		return true
	}
	if m.IsComponentsV2() { // the status is a text display of its own
		for _, t := range m.TextDisplays() {
			if strings.Contains(t, "▶ ") {
				return true
			}
		}
		return false
	}
	i := strings.LastIndex(m.Content, "\n> ")
	return i >= 0 && strings.Contains(m.Content[i:], "▶ ")
}

// boardMessage is the live board of a game's thread: its picture and its
// buttons.
func (s *stack) boardMessage(thread string) fakediscord.Message {
	s.t.Helper()
	m, err := s.srv.WaitMessage(thread, func(m fakediscord.Message) bool {
		return isBoardPost(m) && len(m.Buttons()) > 0
	})
	if err != nil {
		s.t.Fatal(err)
	}
	return m
}

// launch presses the board's "Open the board" button as a user: the bot
// answers with LAUNCH_ACTIVITY, and Discord names the instance opened.
func (s *stack) launch(user fakediscord.User, thread string) string {
	s.t.Helper()
	board := s.boardMessage(thread)
	id := ""
	board.Walk(func(c fakediscord.Component) {
		if strings.HasPrefix(c.CustomID, "activity:") {
			id = c.CustomID
		}
	})
	if id == "" {
		s.t.Fatalf("the board has no button to open the live page: %+v", board.Buttons())
	}
	h, err := s.srv.ClickButton(user.ID, board.ID, id)
	if err != nil {
		s.t.Fatal(err)
	}
	cb, err := h.WaitCallback()
	if err != nil {
		s.t.Fatal(err)
	}
	if cb.Type != fakediscord.CallbackLaunchActivity || cb.ActivityInstance == "" {
		s.t.Fatalf("the board's button answered with callback %d (%s), not LAUNCH_ACTIVITY", cb.Type, cb.Data)
	}
	return cb.ActivityInstance
}

// TestSessionFromTheBoardButton: the board's button opens the Activity
// (callback 12 with the instance Discord opened); a player who launched
// it, a seated player and a spectator in the instance get sessions on
// that game; someone neither seated nor in the instance is refused.
func TestSessionFromTheBoardButton(t *testing.T) {
	s := newStack(t)
	alice, bob, carol, dave := s.srv.CreateUser("alice"), s.srv.CreateUser("bob"), s.srv.CreateUser("carol"), s.srv.CreateUser("dave")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	// The launch's callback (type 12), not whichever callback came last
	// (other interactions of the game may still be answering); the fake
	// records a request once it has answered it, so it is looked for a
	// while.
	var launch *fakediscord.RecordedRequest
	for wait := time.Now().Add(5 * time.Second); launch == nil && time.Now().Before(wait); time.Sleep(10 * time.Millisecond) {
		for _, r := range s.srv.RequestsTo("POST", "/interactions/{interaction_id}/{interaction_token}/callback") {
			var body struct{ Type int }
			if json.Unmarshal(r.Body, &body) == nil && body.Type == fakediscord.CallbackLaunchActivity {
				launch = &r
			}
		}
	}
	if launch == nil || launch.Query.Get("with_response") != "true" {
		t.Error("LAUNCH_ACTIVITY was not asked with with_response=true")
	}
	for _, u := range []fakediscord.User{alice, bob} {
		ans, code := s.session(u, inst)
		if code != http.StatusOK || ans.Game == nil || ans.Game.Channel != thread || ans.Session == "" {
			t.Fatalf("%s: %d %s", u.Username, code, ans.raw)
		}
		if ans.AccessToken == "" || ans.Texts["hand"] == "" {
			t.Errorf("%s: no access token for the SDK, or no words: %s", u.Username, ans.raw)
		}
		if f := s.state(ans.Session); f.Seat < 0 || f.Game == "" {
			t.Errorf("%s sees seat %d of %q", u.Username, f.Seat, f.Game)
		}
	}
	ans, code := s.session(carol, inst)
	if code != http.StatusForbidden || ans.Error != "not_in_instance" || ans.Session != "" {
		t.Fatalf("carol, neither seated nor in the activity: %d %s", code, ans.raw)
	}
	if err := s.srv.JoinActivity(carol.ID, inst); err != nil {
		t.Fatal(err)
	}
	ans, code = s.session(carol, inst)
	if code != http.StatusOK || ans.Game == nil || ans.Game.Channel != thread {
		t.Fatalf("carol in the activity: %d %s", code, ans.raw)
	}
	if f := s.state(ans.Session); f.Seat != -1 || f.Hand != nil || f.Tickets != nil || f.Prompt != nil || f.CanClaim {
		t.Errorf("a spectator's frame carries a seat's things: %+v", f)
	}
	// Dave's client language is French: refusals are in it.
	s.srv.SetUserLocale(dave.ID, "fr")
	ans, code = s.session(dave, inst)
	if code != http.StatusForbidden || ans.Message != present.T("fr", "web.not_in_instance") {
		t.Errorf("dave: %d %s", code, ans.raw)
	}
	// No access token is kept: the answer gave it once, and it is in no
	// response of the API and no log line.
	s.srv.CheckClean(t)
}

// TestSessionRefusals: a code Discord refuses, an unknown instance, an
// instance of another server than the one claimed or launched from.
func TestSessionRefusals(t *testing.T) {
	s := newStack(t)
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)

	// A code used twice (or made up) is refused by Discord: 401.
	code := s.srv.OAuthCode(alice.ID)
	post := func(body map[string]string) (int, map[string]string) {
		raw, _ := json.Marshal(body)
		resp, err := http.Post(s.http.URL+"/api/session", "application/json", strings.NewReader(string(raw)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]string
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if st, _ := post(map[string]string{"code": code, "instance_id": inst}); st != http.StatusOK {
		t.Fatalf("first use of a code: %d", st)
	}
	if st, out := post(map[string]string{"code": code, "instance_id": inst}); st != http.StatusUnauthorized || out["error"] != "auth_failed" {
		t.Errorf("a code used twice: %d %v", st, out)
	}
	if st, _ := post(map[string]string{"code": "madeUpCode0123456789abcdefXYZ", "instance_id": inst}); st != http.StatusUnauthorized {
		t.Errorf("a made-up code: %d", st)
	}
	// Malformed: refused before Discord is asked anything.
	exchanges := len(s.srv.RequestsTo("POST", "/oauth2/token"))
	for _, body := range []map[string]string{
		{"code": "made up", "instance_id": inst},
		{"code": strings.Repeat("a", 500), "instance_id": inst},
		{"code": code, "instance_id": "not-an-instance"},
		{"code": code, "instance_id": inst, "guild_id": "../../x"},
	} {
		if st, _ := post(body); st != http.StatusBadRequest {
			t.Errorf("a malformed request %v: %d", body, st)
		}
	}
	if n := len(s.srv.RequestsTo("POST", "/oauth2/token")); n != exchanges {
		t.Errorf("malformed requests cost %d exchanges with Discord", n-exchanges)
	}

	// An instance Discord does not know: 404.
	if ans, st := s.session(alice, "i-123-gc-1-2"); st != http.StatusNotFound || ans.Error != "unknown_instance" {
		t.Errorf("unknown instance: %d %s", st, ans.raw)
	}

	// The page claims another server than the instance's: 403.
	other := s.srv.CreateGuild("Other Club")
	if st, out := post(map[string]string{"code": s.srv.OAuthCode(alice.ID), "instance_id": inst, "guild_id": other.ID}); st != http.StatusForbidden || out["error"] != "other_guild" {
		t.Errorf("a claim of another server: %d %v", st, out)
	}
	// An instance in another server than the game it was launched for.
	elsewhere := s.srv.CreateTextChannel(other.ID, "elsewhere")
	foreign := s.srv.CreateActivityInstance(other.ID, elsewhere.ID, alice.ID)
	s.web.Launched(commands.Launch{Instance: foreign, Guild: s.guild.ID, Channel: thread, User: alice.ID})
	if ans, st := s.session(alice, foreign); st != http.StatusForbidden || ans.Error != "other_guild" {
		t.Errorf("an instance of another server: %d %s", st, ans.raw)
	}
	// An instance of another server's channel without a game: a table to
	// set up there, for a reader in it; nothing for one who is not.
	lone := s.srv.CreateActivityInstance(other.ID, elsewhere.ID, alice.ID)
	if ans, st := s.session(alice, lone); st != http.StatusOK || ans.Game != nil || ans.Setup == nil {
		t.Errorf("a channel without games: %d %s", st, ans.raw)
	}
	if ans, st := s.session(bob, lone); st != http.StatusNotFound || ans.Error != "no_game" {
		t.Errorf("a channel without games, for a reader not in its activity: %d %s", st, ans.raw)
	}

	// Without a session, nothing is served.
	for _, path := range []string{"/api/state"} {
		if st, _ := s.call("", "GET", path, nil); st != http.StatusUnauthorized {
			t.Errorf("GET %s without a session: %d", path, st)
		}
		if st, _ := s.call("forged", "GET", path, nil); st != http.StatusUnauthorized {
			t.Errorf("GET %s with a forged session: %d", path, st)
		}
	}
	if st, _ := s.call("", "POST", "/api/act", map[string]string{"nonce": "abcdefgh", "route": "Paris|Wien"}); st != http.StatusUnauthorized {
		t.Errorf("POST /api/act without a session: %d", st)
	}
}

// TestEntryPointOffersTheChannelsGames: the Entry Point command pressed in
// a channel whose threads hold two games opens the Activity there; the
// page lists both games, and a pick binds the session to one of them and
// to nothing else.
func TestEntryPointOffersTheChannelsGames(t *testing.T) {
	s := newStack(t, stackOptions{entryPoint: fakediscord.HandlerDiscordLaunch})
	alice, bob, carol := s.srv.CreateUser("alice"), s.srv.CreateUser("bob"), s.srv.CreateUser("carol")
	parent, thread1 := s.game(alice, bob)
	// A second game in another thread of the same channel.
	s.handle(carol, parent, commands.Request{Type: commands.CommandRequest, Name: "ttr", Sub: "new", Options: map[string]string{"map": "usa"}})
	threads := s.srv.Threads(parent)
	if len(threads) != 2 {
		t.Fatalf("%d threads", len(threads))
	}
	thread2 := threads[1].ID

	// Discord made the Entry Point when Activities were turned on; the
	// bot's registration kept it, with the bot as its handler.
	ep, ok := s.srv.EntryPoint()
	if !ok || ep.Handler != fakediscord.HandlerApp {
		t.Fatalf("the Entry Point after registration: %+v (%v)", ep, ok)
	}

	h, _, err := s.srv.RunEntryPoint(carol.ID, parent)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := h.WaitCallback()
	if err != nil || cb.Type != fakediscord.CallbackLaunchActivity {
		t.Fatalf("the Entry Point was answered with %d (%v)", cb.Type, err)
	}
	ans, code := s.session(carol, cb.ActivityInstance)
	if code != http.StatusOK || ans.Game != nil || len(ans.Games) != 2 {
		t.Fatalf("the picker: %d %s", code, ans.raw)
	}
	got := map[string]bool{}
	for _, g := range ans.Games {
		got[g.Channel] = true
		if !strings.Contains(g.Label, "—") {
			t.Errorf("label %q names no players", g.Label)
		}
	}
	if !got[thread1] || !got[thread2] {
		t.Fatalf("the picker offers %v, want %s and %s", ans.Games, thread1, thread2)
	}
	// Before a pick there is no game; a channel outside the list is refused.
	if st, _ := s.call(ans.Session, "GET", "/api/state", nil); st != http.StatusConflict {
		t.Errorf("state before a pick: %d", st)
	}
	elsewhere := s.srv.CreateTextChannel(s.guild.ID, "elsewhere")
	if st, raw := s.call(ans.Session, "POST", "/api/pick", map[string]string{"channel": elsewhere.ID}); st != http.StatusForbidden {
		t.Errorf("a pick outside the channel's games: %d %s", st, raw)
	}
	if st, raw := s.call(ans.Session, "POST", "/api/pick", map[string]string{"channel": thread1}); st != http.StatusOK {
		t.Fatalf("pick: %d %s", st, raw)
	}
	if f := s.state(ans.Session); f.Seat != -1 || f.Owners == nil {
		t.Errorf("carol watches the first game: %+v", f)
	}

}

// TestEntryPointInAnEmptyChannelSetsUpATable: the Entry Point pressed in
// a channel without a game opens the Activity on a form in the reader's
// language (the editions, their variants, the bots' levels); its answer
// opens a lobby there, in a thread of its own, with the asker seated and
// the bots asked, binds the page to it, and the page shows the lobby with
// its Join, Leave and Start. A second reader of the activity sees the
// table listed, opens it and joins it with the lobby's button; a
// malformed form, and a second table opened by a page already bound, are
// refused or answered with the first.
func TestEntryPointInAnEmptyChannelSetsUpATable(t *testing.T) {
	s := newStack(t, stackOptions{entryPoint: fakediscord.HandlerDiscordLaunch})
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	s.srv.SetUserLocale(alice.ID, "fr")
	empty := s.srv.CreateTextChannel(s.guild.ID, "empty")
	h, _, err := s.srv.RunEntryPoint(alice.ID, empty.ID)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := h.WaitCallback()
	if err != nil || cb.Type != fakediscord.CallbackLaunchActivity {
		t.Fatalf("the Entry Point in an empty channel answered %d %s (%v)", cb.Type, cb.Data, err)
	}
	inst := cb.ActivityInstance
	s.srv.JoinActivity(bob.ID, inst)
	ans, code := s.session(alice, inst)
	if code != http.StatusOK || ans.Game != nil || ans.Setup == nil {
		t.Fatalf("the page in an empty channel: %d %s", code, ans.raw)
	}
	var europe *struct {
		ID, Name string
		Variants []struct{ Value, Label string }
	}
	for i, b := range ans.Setup.Boards {
		if b.ID == "europe" {
			europe = &ans.Setup.Boards[i]
		}
	}
	if europe == nil || europe.Name != "Les Aventuriers du Rail — Europe" || len(europe.Variants) < 2 {
		t.Fatalf("the form's editions, in French: %+v", ans.Setup.Boards)
	}
	if st, raw := s.call(ans.Session, "GET", "/api/state", nil); st != http.StatusConflict {
		t.Errorf("the state before a table: %d %s", st, raw)
	}
	for _, bad := range []map[string]any{
		{"nonce": "n1234567", "map": "<script>"},
		{"nonce": "n1234567", "map": "usa", "bots": []string{"a", "b", "c", "d", "e"}},
		{"map": "usa"},
	} {
		if st, raw := s.call(ans.Session, "POST", "/api/new", bad); st != http.StatusBadRequest {
			t.Errorf("the form %v: %d %s", bad, st, raw)
		}
	}
	if st, raw := s.call(ans.Session, "POST", "/api/new", map[string]any{"nonce": "n1234567", "map": "atlantis"}); st != http.StatusConflict ||
		!strings.Contains(string(raw), "atlantis") {
		t.Errorf("an unknown edition: %d %s", st, raw)
	}
	st, raw := s.call(ans.Session, "POST", "/api/new", map[string]any{"nonce": "n2345678", "map": "europe", "variant": europe.Variants[1].Value})
	if st != http.StatusOK {
		t.Fatalf("opening the table: %d %s", st, raw)
	}
	var ref struct{ ID, Channel string }
	json.Unmarshal(raw, &ref)
	if threads := s.srv.Threads(empty.ID); len(threads) != 1 || threads[0].ID != ref.Channel {
		t.Errorf("the table plays in %s, the channel's threads are %v", ref.Channel, threads)
	}
	v, err := s.svc.View(ref.Channel, alice.ID, "fr")
	if err != nil || !v.Lobby || v.Seat != 0 || v.Board.ID != "europe" || v.Variant != europe.Variants[1].Value || v.TableLocale != "fr" {
		t.Fatalf("the table opened: %+v (%v)", v, err)
	}
	f := s.state(ans.Session)
	var lobby struct {
		Lobby     bool                           `json:"lobby"`
		LobbyRows [][]struct{ ID, Label string } `json:"lobbyRows"`
	}
	_, raw = s.call(ans.Session, "GET", "/api/state", nil)
	json.Unmarshal(raw, &lobby)
	if f.Seat != 0 || !lobby.Lobby || len(lobby.LobbyRows) != 1 || len(lobby.LobbyRows[0]) != 3 {
		t.Fatalf("the page after opening: seat %d, %s", f.Seat, raw)
	}
	// A second table from the same page: it is bound to the first.
	if st, raw := s.call(ans.Session, "POST", "/api/new", map[string]any{"nonce": "n3456789", "map": "usa"}); st != http.StatusOK || !strings.Contains(string(raw), ref.ID) {
		t.Errorf("a second opening: %d %s", st, raw)
	}
	// Bob's page lists it, opens it, and joins with the lobby's button.
	bans, code := s.session(bob, inst)
	if code != http.StatusOK || bans.Game == nil || bans.Game.Channel != ref.Channel {
		// Opened after the table: the one game of the channel.
		t.Fatalf("bob's page: %d %s", code, bans.raw)
	}
	_, raw = s.call(bans.Session, "GET", "/api/games", nil)
	if !strings.Contains(string(raw), ref.Channel) {
		t.Errorf("the channel's tables: %s", raw)
	}
	join := ""
	for _, c := range lobby.LobbyRows[0] {
		if strings.Contains(c.ID, "join") {
			join = c.ID
		}
	}
	a, _ := s.act(bans.Session, map[string]any{"custom_id": join})
	if v, _ := s.svc.View(ref.Channel, bob.ID, "en"); v.Seat != 1 {
		t.Errorf("bob's Join: seat %d (%s)", v.Seat, a.text())
	}
}
