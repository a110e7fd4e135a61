package web_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"conductor/commands"
	"conductor/data"
	"conductor/imaging"
	"conductor/internal/testkit/recorded"
	"conductor/present"
	"conductor/store"
)

// archive stores a recorded finished game as a guild's, the way a game
// that ended in a channel is archived, and returns its id.
func (s *stack) archive(guild, name string) (*store.GameRecord, *recorded.Game) {
	s.t.Helper()
	g := recorded.Load(s.t, name)
	now := time.Now()
	ch := fmt.Sprint("archived-", s.seq.Add(1))
	rec := &store.GameRecord{Channel: ch, Guild: guild, Map: g.Board, Variant: g.Variant, Seed: g.Seed, Rules: g.Rules,
		Status: store.StatusPlaying, Created: now, Options: map[string]string{"locale": "fr"}}
	res := store.ArchiveResult{Finished: now}
	for i := range g.Players {
		rec.Seats = append(rec.Seats, store.Seat{UserID: fmt.Sprint(100 + i), Name: fmt.Sprint("Joueur ", i+1)})
		res.Players = append(res.Players, store.PlayerResult{Name: fmt.Sprint("Joueur ", i+1), Score: g.Scores[i]["total"]})
	}
	for k, m := range g.Moves {
		rec.Log = append(rec.Log, store.LogEntry{Seat: m.Seat, Action: m.Action, At: now, Interaction: fmt.Sprint(ch, "-", k)})
	}
	if err := s.st.Put(rec); err != nil {
		s.t.Fatal(err)
	}
	if _, err := s.st.Archive(ch, res); err != nil {
		s.t.Fatal(err)
	}
	return rec, g
}

func (s *stack) get(url string) (int, []byte) {
	s.t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// TestReplayPage: a finished game's signed link serves the page, its
// frames (the replay GIF's, turn by turn) and each turn's SVG, which is
// the board of that frame's scene; no answer holds the seed or a move of
// the log. A tampered link and a forgotten game answer 404.
func TestReplayPage(t *testing.T) {
	s := newStack(t)
	rec, g := s.archive(s.guild.ID, "europe-classic-bots")
	link := s.web.ReplayURL(s.guild.ID, rec.ID)
	if !strings.HasPrefix(link, s.http.URL+"/r/") {
		t.Fatalf("link %q", link)
	}
	code, html := s.get(link)
	if code != http.StatusOK || !strings.Contains(string(html), `lang="fr"`) || !strings.Contains(string(html), "replay.js") {
		t.Fatalf("page: %d %s", code, html)
	}
	code, data := s.get(link + "/data.json")
	if code != http.StatusOK {
		t.Fatalf("data: %d %s", code, data)
	}
	replay, err := s.svc.ReplayOf(s.guild.ID, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"status":`); n != len(replay.Frames) {
		t.Errorf("%d frames served, the replay has %d", n, len(replay.Frames))
	}
	for _, want := range []string{present.T("fr", "status.over"), "Joueur 1", `"done":true`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the data lacks %q", want)
		}
	}
	// Turn n's SVG is frame n's scene drawn as SVG.
	for _, n := range []int{0, len(replay.Frames) / 2, len(replay.Frames) - 1} {
		code, svg := s.get(link + "/turn/" + strconv.Itoa(n) + ".svg")
		var want bytes.Buffer
		words := imaging.BoardWords{Title: present.EditionName("fr", replay.Board, replay.Variant)}
		for i := range replay.Board.Tracks {
			words.Tracks = append(words.Tracks, present.RouteLabel("fr", replay.Board, dataTrack(i)))
		}
		if err := sharedRenderer.BoardSVG(&want, &replay.Frames[n], words, "../../../art/"+artName(replay.Board, "fr")); err != nil {
			t.Fatal(err)
		}
		if code != http.StatusOK || !bytes.Equal(svg, want.Bytes()) {
			t.Errorf("turn %d: %d, the SVG is not the frame's scene (%d vs %d bytes)", n, code, len(svg), want.Len())
		}
	}
	if code, _ := s.get(link + "/turn/" + strconv.Itoa(len(replay.Frames)) + ".svg"); code != http.StatusNotFound {
		t.Errorf("a turn past the end: %d", code)
	}
	// Nothing served carries the seed or the log.
	var all [][]byte
	for _, path := range []string{"", "/data.json", "/turn/0.svg", "/turn/5.svg"} {
		_, body := s.get(link + path)
		all = append(all, body)
	}
	secrets := []string{strconv.FormatUint(g.Seed, 10), strconv.FormatUint(g.Seed, 16)}
	for _, m := range g.Moves[:40] {
		secrets = append(secrets, m.Action)
	}
	for _, body := range all {
		for _, sec := range secrets {
			if len(sec) > 4 && bytes.Contains(body, []byte(sec)) {
				t.Errorf("a replay answer holds %q", sec)
			}
		}
	}

	// Tampered links: another game, another server, a flipped bit.
	tok := strings.TrimPrefix(link, s.http.URL+"/r/")
	payload, sig, _ := strings.Cut(tok, ".")
	other, _ := s.archive(s.guild.ID, "usa-base-bots")
	forged := []string{
		base64.RawURLEncoding.EncodeToString([]byte(s.guild.ID+":"+other.ID)) + "." + sig,
		base64.RawURLEncoding.EncodeToString([]byte("999:"+rec.ID)) + "." + sig,
		payload + "." + flipBit(sig),
		payload,
		"",
	}
	for _, f := range forged {
		for _, path := range []string{"", "/data.json", "/turn/0.svg"} {
			if code, body := s.get(s.http.URL + "/r/" + f + path); code != http.StatusNotFound {
				t.Errorf("forged %q%s: %d %.80s", f, path, code, body)
			}
		}
	}
	// The other game's own link works.
	if code, _ := s.get(s.web.ReplayURL(s.guild.ID, other.ID) + "/data.json"); code != http.StatusOK {
		t.Errorf("the other game's link: %d", code)
	}

	// /ttr forget: the links answer nothing, cached or not.
	admin := s.srv.CreateUser("admin")
	c := s.handle(admin, "anywhere", commands.Request{Type: commands.CommandRequest, Name: "ttr", Sub: "forget", CanManageServer: true, Options: map[string]string{"confirm": "true"}})
	if !strings.Contains(textOf(c), "2") {
		t.Logf("forget: %s", textOf(c))
	}
	for _, path := range []string{"", "/data.json", "/turn/0.svg"} {
		if code, _ := s.get(link + path); code != http.StatusNotFound {
			t.Errorf("after /ttr forget, %s: %d", path, code)
		}
	}
}

func flipBit(s string) string {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) == 0 {
		return s + "A"
	}
	b[0] ^= 1
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestAGameEndedEarlyHasNoReplayLink: a game the host ended with the
// score as it stood has no replay (its log ends before the game does), so
// its final sheet links none and its page answers nothing. (A game played
// to its end is linked: commands' TestBoardOffersTheLivePageWhenItIsOn.)
func TestAGameEndedEarlyHasNoReplayLink(t *testing.T) {
	s := newStack(t)
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	c := s.handle(alice, thread, commands.Request{Type: commands.CommandRequest, Name: "ttr", Sub: "end", CanManage: true})
	score := ""
	for _, row := range c.Messages()[0].Components {
		for _, b := range row {
			if strings.HasSuffix(b.ID, ":score") {
				score = b.ID
			}
		}
	}
	if score == "" {
		t.Fatalf("/ttr end offers no ending with a score: %+v", c.Messages()[0].Components)
	}
	s.handle(alice, thread, commands.Request{Type: commands.ComponentRequest, CustomID: score, CanManage: true})
	s.svc.Quiet()
	entries, err := s.st.Archived(s.guild.ID)
	if err != nil || len(entries) != 1 {
		t.Fatalf("archive: %v %v", entries, err)
	}
	link := s.web.ReplayURL(s.guild.ID, entries[0].GameID)
	for _, m := range s.srv.Messages(thread) {
		if strings.Contains(m.Body(), "/r/") {
			t.Errorf("a post links a replay: %q", m.Body())
		}
	}
	if code, _ := s.get(link); code != http.StatusNotFound {
		t.Errorf("the replay page of a game ended early: %d", code)
	}
}

func dataTrack(i int) data.TrackID { return data.TrackID(i) }

// TestReplayRequestsAreLimitedPerAddress: one address asking a replay
// again and again is refused (429) past its limit a minute, while another
// address is still served; a replay kept costs no replaying of the game.
func TestReplayRequestsAreLimitedPerAddress(t *testing.T) {
	s := newStack(t)
	rec, _ := s.archive(s.guild.ID, "europe-classic-bots")
	path := strings.TrimPrefix(s.web.ReplayURL(s.guild.ID, rec.ID), s.http.URL)
	h := s.web.Handler()
	ask := func(addr, p string) int {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", p, nil)
		r.RemoteAddr = addr + ":5555"
		h.ServeHTTP(w, r)
		return w.Code
	}
	codes := map[int]int{}
	for i := range 1000 {
		p := path + "/data.json"
		if i%2 == 1 {
			p = path + "/turn/" + strconv.Itoa(i%50) + ".svg"
		}
		codes[ask("203.0.113.9", p)]++
	}
	if codes[http.StatusTooManyRequests] == 0 || codes[http.StatusOK] == 0 || codes[http.StatusOK] > 300 {
		t.Errorf("1,000 replay requests from one address: %v (want some served, then 429)", codes)
	}
	t.Logf("1,000 replay requests from one address in a minute: %v", codes)
	if code := ask("198.51.100.20", path); code != http.StatusOK {
		t.Errorf("another address, meanwhile: %d", code)
	}
	// An IPv6 subscriber's addresses are one address (its /64).
	v6 := 0
	for i := range 400 {
		if ask(fmt.Sprintf("[2001:db8:1:2::%x]", i+1), path) == http.StatusTooManyRequests {
			v6++
		}
	}
	if v6 == 0 {
		t.Error("400 requests from as many addresses of one IPv6 /64 were never limited")
	}
}
