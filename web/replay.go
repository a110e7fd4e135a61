package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"conductor/commands"
	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/present"
)

// The public replay page of a finished game, outside Discord: the board
// turn by turn (the replay GIF's frames, drawn as SVG), the final scores
// and every ticket revealed. Game ids are in every button's custom id, so
// a link is signed with the database's replay key; it answers nothing once
// the game left the archive (/ttr forget). What it serves comes from
// public scenes and the final sheet: never a seed, never a move.

// replayToken is the signed name of a guild's game.
func (s *Server) replayToken(guild, game string) (string, error) {
	key, err := s.opts.Store.ReplayKey()
	if err != nil {
		return "", err
	}
	payload := base64.RawURLEncoding.EncodeToString([]byte(guild + ":" + game))
	return payload + "." + base64.RawURLEncoding.EncodeToString(replayMAC(key, guild, game)), nil
}

func replayMAC(key []byte, guild, game string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("conductor replay\x00" + guild + "\x00" + game))
	return m.Sum(nil)[:16]
}

// replayOf reads a token: the guild and game it signs, ok false when it
// was not made with this database's key.
func (s *Server) replayOf(token string) (guild, game string, ok bool) {
	payload, sig, found := strings.Cut(token, ".")
	if !found || len(token) > 300 {
		return "", "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return "", "", false
	}
	mac, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return "", "", false
	}
	guild, game, found = strings.Cut(string(raw), ":")
	if !found || guild == "" || game == "" {
		return "", "", false
	}
	key, err := s.opts.Store.ReplayKey()
	if err != nil {
		s.log.Error("replay key", "err", err)
		return "", "", false
	}
	if !hmac.Equal(mac, replayMAC(key, guild, game)) {
		return "", "", false
	}
	return guild, game, true
}

// replayPath is a game's replay link for a page, "" without a public
// address.
func (s *Server) replayPath(guild, game string) string {
	if game == "" {
		return ""
	}
	return s.ReplayURL(guild, game)
}

// replayData is the page's game: every frame's public board and the final
// sheet.
type replayData struct {
	Title  string            `json:"title"`
	Board  string            `json:"board"`
	SVG    string            `json:"svg"`
	Art    string            `json:"art"`
	Lang   string            `json:"lang"`
	Texts  map[string]string `json:"texts"`
	Frames []boardFrame      `json:"frames"`
	Final  []finalJSON       `json:"final"`
}

type finalJSON struct {
	Name    string        `json:"name"`
	Color   string        `json:"color"`
	Ink     string        `json:"ink"`
	Total   int           `json:"total"`
	Place   int           `json:"place"`
	Tickets []finalTicket `json:"tickets"`
}

type finalTicket struct {
	Label  string `json:"label"`
	Points int    `json:"points"`
	Done   bool   `json:"done"`
}

// replay finds the replay a token names: from the cache first (a token
// found there was checked when it was put), else checked and built once
// however many ask at the same time. A game forgotten (/ttr forget) leaves
// the cache at once (Forgotten), and a build that raced the forgetting is
// not kept nor served.
func (s *Server) replay(token string, mayBuild func() bool) (*builtReplay, error) {
	if r, ok := s.replays.get(token); ok {
		return r, nil
	}
	guild, game, ok := s.replayOf(token)
	if !ok {
		return nil, commands.ErrNoReplay
	}
	if !mayBuild() {
		return nil, errLimited
	}
	v, err, _ := s.replays.builds.Do(token, func() (any, error) {
		if r, ok := s.replays.get(token); ok {
			return r, nil
		}
		gen := s.replays.generation(guild)
		r, err := s.buildReplay(token, guild, game)
		if err != nil {
			return nil, err
		}
		if !s.replays.put(token, guild, r, gen) {
			return nil, commands.ErrNoReplay
		}
		return r, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*builtReplay), nil
}

// buildReplay replays a game from the archive into its page's data.
func (s *Server) buildReplay(token, guild, game string) (*builtReplay, error) {
	g, err := s.svc.ReplayOf(guild, game)
	if err != nil {
		return nil, err
	}
	lang := present.Lang(g.Locale)
	b := g.Board
	title := present.EditionName(lang, b, g.Variant)
	rd := replayData{Title: present.T(lang, "web.replay_title", "board", title), Board: b.ID, Lang: lang,
		SVG: "../" + svgURL(b, g.Variant, lang), Art: "../art/" + artName(b, lang), Texts: pageTexts(lang)}
	for i := range g.Frames {
		rd.Frames = append(rd.Frames, sceneFrame(&g.Frames[i]))
	}
	for i, ps := range g.Final.Players {
		fj := finalJSON{Name: g.Seats[i], Color: imaging.SeatColor(i), Ink: imaging.SeatInk(i), Total: ps.Total, Place: g.Final.Places[i]}
		for _, t := range ps.Tickets {
			fj.Tickets = append(fj.Tickets, finalTicket{Label: ticketLabel(b, t), Points: t.Points, Done: t.Completed})
		}
		rd.Final = append(rd.Final, fj)
	}
	doc, err := json.Marshal(rd)
	if err != nil {
		return nil, err
	}
	data, err := gzipped(doc)
	if err != nil {
		return nil, err
	}
	page, err := renderPage(pageData{Lang: lang, Title: rd.Title, Script: "replay.js", Texts: rd.Texts, Token: token, Root: "../"})
	if err != nil {
		return nil, err
	}
	return &builtReplay{page: page, data: data, lang: lang, title: rd.Title, board: b, scenes: g.Frames,
		words: boardWords(b, g.Variant, lang), sceneBytes: len(doc), turns: map[int]gzBody{}}, nil
}

// ticketLabel names a ticket by its ends, as the final sheet does.
func ticketLabel(b *data.Board, t engine.TicketResult) string {
	return b.Cities[t.A].Name + " – " + b.Cities[t.B].Name + " (" + strconv.Itoa(t.Points) + ")"
}

// Limits of the replay pages, by client address (see address.go) a
// minute: requests of any kind, and those that build (a replay not kept,
// a turn's picture not drawn yet), which also have a limit for everyone
// together.
const (
	replayPerAddress       = 240
	replayBuildsPerAddress = 30
	replayBuilds           = 600
)

// replayRequest is a replay request's replay, within the limits; it
// answers the request itself when there is none to serve.
func (s *Server) replayRequest(w http.ResponseWriter, r *http.Request) (*builtReplay, func() bool, bool) {
	addr := s.clientAddr(r)
	now := s.opts.Now()
	mayBuild := func() bool {
		return s.limits.allow("replay-build:"+addr, replayBuildsPerAddress, now) && s.limits.allow("replay-build", replayBuilds, now)
	}
	if !s.limits.allow("replay:"+addr, replayPerAddress, now) {
		s.replayError(w, r, errLimited)
		return nil, nil, false
	}
	rp, err := s.replay(r.PathValue("token"), mayBuild)
	if err != nil {
		s.replayError(w, r, err)
		return nil, nil, false
	}
	return rp, mayBuild, true
}

// replayError answers a token that names no replay: 404 whatever the
// reason (a forged token, a forgotten game), so nothing is learnt; and a
// request past the limits: 429.
func (s *Server) replayError(w http.ResponseWriter, r *http.Request, err error) {
	noFraming(w)
	w.Header().Set("Cache-Control", "no-store")
	if errors.Is(err, errLimited) {
		w.Header().Set("Retry-After", "60")
		http.Error(w, present.T(acceptLang(r), "web.too_many"), http.StatusTooManyRequests)
		return
	}
	if !errors.Is(err, commands.ErrNoReplay) {
		s.log.Error("replay page", "err", err)
	}
	http.Error(w, present.T(acceptLang(r), "replay.gone"), http.StatusNotFound)
}

func (s *Server) serveReplayPage(w http.ResponseWriter, r *http.Request) {
	rp, _, ok := s.replayRequest(w, r)
	if !ok {
		return
	}
	w.Header().Set("X-Frame-Options", "DENY")
	writePageBytes(w, rp.page, replayCSP)
}

func (s *Server) serveReplayData(w http.ResponseWriter, r *http.Request) {
	rp, _, ok := s.replayRequest(w, r)
	if !ok {
		return
	}
	noFraming(w)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	rp.data.serve(w, r)
}

// serveReplayTurn serves one frame as a whole SVG: /r/{token}/turn/{n}.svg.
func (s *Server) serveReplayTurn(w http.ResponseWriter, r *http.Request) {
	rp, mayBuild, ok := s.replayRequest(w, r)
	if !ok {
		return
	}
	n, err := strconv.Atoi(strings.TrimSuffix(r.PathValue("file"), ".svg"))
	if err != nil || !strings.HasSuffix(r.PathValue("file"), ".svg") || n < 0 || n >= len(rp.scenes) {
		noFraming(w)
		http.NotFound(w, r)
		return
	}
	svg, err := s.replayTurn(r.PathValue("token"), rp, n, mayBuild)
	if err != nil {
		s.replayError(w, r, err)
		return
	}
	noFraming(w)
	w.Header().Set("Content-Type", "image/svg+xml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	svg.serve(w, r)
}
