package web

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

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

// builtReplay is a game's replay as served: the page's data and the
// scenes for the turn SVGs.
type builtReplay struct {
	data   []byte
	lang   string
	title  string
	board  *data.Board
	scenes []imaging.Scene
	words  imaging.BoardWords
}

// replayCache keeps the last replays built, by guild and game.
type replayCache struct {
	mu    sync.Mutex
	m     map[string]*builtReplay
	order []string
}

const replaysKept = 8

func (c *replayCache) get(key string) (*builtReplay, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[key]
	return r, ok
}

func (c *replayCache) put(key string, r *builtReplay) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*builtReplay{}
	}
	if _, ok := c.m[key]; !ok {
		c.order = append(c.order, key)
	}
	c.m[key] = r
	for len(c.order) > replaysKept {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
}

// forget drops a guild's replays.
func (c *replayCache) forget(guild string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keep := c.order[:0]
	for _, k := range c.order {
		if strings.HasPrefix(k, guild+"\x00") {
			delete(c.m, k)
		} else {
			keep = append(keep, k)
		}
	}
	c.order = keep
}

// replay finds or builds the replay a token names. The archive is asked
// every time: a forgotten game has no page, cached or not.
func (s *Server) replay(token string) (*builtReplay, error) {
	guild, game, ok := s.replayOf(token)
	if !ok {
		return nil, commands.ErrNoReplay
	}
	g, err := s.svc.ReplayOf(guild, game)
	if err != nil {
		return nil, err
	}
	key := guild + "\x00" + game
	if r, ok := s.replays.get(key); ok {
		return r, nil
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
	r := &builtReplay{data: doc, lang: lang, title: rd.Title, board: b, scenes: g.Frames, words: boardWords(b, g.Variant, lang)}
	s.replays.put(key, r)
	return r, nil
}

// ticketLabel names a ticket by its ends, as the final sheet does.
func ticketLabel(b *data.Board, t engine.TicketResult) string {
	return b.Cities[t.A].Name + " – " + b.Cities[t.B].Name + " (" + strconv.Itoa(t.Points) + ")"
}

// replayError answers a token that names no replay: 404 whatever the
// reason (a forged token, a forgotten game), so nothing is learnt.
func (s *Server) replayError(w http.ResponseWriter, r *http.Request, err error) {
	if !errors.Is(err, commands.ErrNoReplay) {
		s.log.Error("replay page", "err", err)
	}
	noFraming(w)
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, present.T(acceptLang(r), "replay.gone"), http.StatusNotFound)
}

func (s *Server) serveReplayPage(w http.ResponseWriter, r *http.Request) {
	rp, err := s.replay(r.PathValue("token"))
	if err != nil {
		s.replayError(w, r, err)
		return
	}
	w.Header().Set("X-Frame-Options", "DENY")
	s.writePage(w, pageData{Lang: rp.lang, Title: rp.title, Script: "replay.js", Texts: pageTexts(rp.lang),
		Token: r.PathValue("token"), Root: "../"}, replayCSP)
}

func (s *Server) serveReplayData(w http.ResponseWriter, r *http.Request) {
	rp, err := s.replay(r.PathValue("token"))
	if err != nil {
		s.replayError(w, r, err)
		return
	}
	noFraming(w)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(rp.data)
}

// serveReplayTurn serves one frame as a whole SVG: /r/{token}/turn/{n}.svg.
func (s *Server) serveReplayTurn(w http.ResponseWriter, r *http.Request) {
	rp, err := s.replay(r.PathValue("token"))
	if err != nil {
		s.replayError(w, r, err)
		return
	}
	n, err := strconv.Atoi(strings.TrimSuffix(r.PathValue("file"), ".svg"))
	if err != nil || !strings.HasSuffix(r.PathValue("file"), ".svg") || n < 0 || n >= len(rp.scenes) {
		http.NotFound(w, r)
		return
	}
	var buf bytes.Buffer
	if err := s.opts.Renderer.BoardSVG(&buf, &rp.scenes[n], rp.words, "../../../art/"+artName(rp.board, rp.lang)); err != nil {
		s.replayError(w, r, err)
		return
	}
	noFraming(w)
	w.Header().Set("Content-Type", "image/svg+xml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}
