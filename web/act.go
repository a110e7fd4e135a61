package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"conductor/commands"
	"conductor/present"
)

// A page's move is a commands.PageMove, played by commands.Service.Move: a
// click on a track claims it by the engine's track reference, a click on a
// city builds a station there or moves the reader's passenger from it, and
// every button and menu (draws, tickets, payments, tunnels) is pressed by
// the custom id the server put in the page's frame. Its id, "web:<session>:
// <nonce>", is the interaction id the log records: a repeated request is
// applied once, and its answer is given again.

// actRequest is one move of a page. Nonce names it: the page sends the
// same nonce when it repeats a request.
type actRequest struct {
	Nonce string `json:"nonce"`
	// A track: its engine reference ("Paris|Frankfurt#1"), and a city to
	// put a passenger in (Märklin), if any.
	Route     string `json:"route,omitempty"`
	Passenger string `json:"passenger,omitempty"`
	// A city: build a station there, or move one's passenger from it.
	Station string `json:"station,omitempty"`
	From    string `json:"from,omitempty"`
	// A button or a menu of the frame or of an answer.
	CustomID string   `json:"custom_id,omitempty"`
	Values   []string `json:"values,omitempty"`
}

// actAnswer is what the move answered (the same ephemeral message a
// slash command gets) and the reader's page after it.
type actAnswer struct {
	Replies []messageJSON `json:"replies"`
	State   any           `json:"state,omitempty"`
}

var nonceRE = regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`)

// repliesKept is how many answers a session keeps for repeated requests.
const repliesKept = 32

func (s *Server) serveAct(w http.ResponseWriter, r *http.Request) {
	sess := s.bearer(r)
	if sess == nil {
		s.refuse(w, http.StatusUnauthorized, "session_ended", acceptLang(r))
		return
	}
	var in actRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8192)).Decode(&in); err != nil || !nonceRE.MatchString(in.Nonce) {
		s.refuse(w, http.StatusBadRequest, "bad_request", sess.lang)
		return
	}
	channel, game := sess.bound()
	if channel == "" {
		s.refuse(w, http.StatusConflict, "no_game", sess.lang)
		return
	}
	move := commands.PageMove{ID: "web:" + sess.id + ":" + in.Nonce, Guild: sess.guild, Channel: channel,
		User: sess.user, UserName: sess.name, Locale: sess.lang}
	switch {
	case in.Route != "":
		move.Track, move.Passenger = in.Route, in.Passenger
	case in.Station != "":
		move.Station = in.Station
	case in.From != "":
		move.From = in.From
	case in.CustomID != "":
		move.Press, move.Values = in.CustomID, in.Values
	default:
		s.refuse(w, http.StatusBadRequest, "bad_request", sess.lang)
		return
	}
	for _, v := range []string{in.Route, in.Passenger, in.Station, in.From, in.CustomID} {
		if len(v) > 200 {
			s.refuse(w, http.StatusBadRequest, "bad_request", sess.lang)
			return
		}
	}
	// One move of a session at a time: a repeat waits for the first and
	// gets its answer.
	sess.acts.Lock()
	defer sess.acts.Unlock()
	if prev, ok := sess.replies[in.Nonce]; ok {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(prev)
		return
	}
	// The move is for the session's game: once another began in the
	// channel, the page's game is over.
	names, current := s.seatNames(channel)
	if current != game {
		writeJSON(w, http.StatusOK, actAnswer{Replies: []messageJSON{},
			State: overFrame{Type: "over", Text: s.textOver(sess.lang), Replay: s.replayPath(sess.guild, game)}})
		return
	}
	// The move is answered once decided: the channel's posts go out
	// meanwhile, and the page is redrawn from the view the move changed.
	// A panic in it is the guard's (guard.go): this is the request's
	// goroutine.
	ans := actAnswer{Replies: []messageJSON{}}
	if s.svc.Owns(sess.guild) {
		for _, m := range s.move(context.WithoutCancel(r.Context()), move) {
			ans.Replies = append(ans.Replies, messageOf(m, names))
		}
	} else {
		// Another process owns the table: the move goes there (fleet.go).
		replies, err := s.forward(r.Context(), move)
		switch {
		case errors.Is(err, errNoAnswer):
			s.log.Warn("a page's move not answered by its table's process", "channel", channel)
			s.refuse(w, http.StatusGatewayTimeout, "move_timeout", sess.lang)
			return
		case err != nil:
			s.log.Error("forwarding a page's move", "channel", channel, "err", err)
			s.refuse(w, http.StatusInternalServerError, "internal", sess.lang)
			return
		}
		ans.Replies = append(ans.Replies, replies...)
	}
	if f, err := s.frameFor(channel, sess.user, sess.lang); err == nil && f.Game == game {
		ans.State = f
	} else if err == nil || errors.Is(err, commands.ErrNoGame) {
		ans.State = overFrame{Type: "over", Text: s.textOver(sess.lang), Replay: s.replayPath(sess.guild, game)}
	}
	data, err := json.Marshal(ans)
	if err != nil {
		s.log.Error("encoding a move's answer", "err", err)
		s.refuse(w, http.StatusInternalServerError, "internal", sess.lang)
		return
	}
	if sess.replies == nil {
		sess.replies = map[string][]byte{}
	}
	sess.replies[in.Nonce] = data
	sess.order = append(sess.order, in.Nonce)
	if len(sess.order) > repliesKept {
		delete(sess.replies, sess.order[0])
		sess.order = sess.order[1:]
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// seatNames maps a game's seated users to their names, for mentions, and
// says which game the channel holds ("" for none).
func (s *Server) seatNames(channel string) (map[string]string, string) {
	names := map[string]string{}
	v, err := s.svc.View(channel, "", "en")
	if err != nil {
		return names, ""
	}
	for _, st := range v.Seats {
		if st.User != "" {
			names[st.User] = st.Name
		}
	}
	return names, v.Game
}

// pollFor bounds a long poll of /api/state.
const pollFor = 25 * time.Second

// serveState is the reader's page as it stands: the first paint, and the
// fallback of a page whose WebSocket keeps failing (with ?after=VERSION it
// waits, up to pollFor, for a newer one).
func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	sess := s.bearer(r)
	if sess == nil {
		s.refuse(w, http.StatusUnauthorized, "session_ended", acceptLang(r))
		return
	}
	channel, game := sess.bound()
	if channel == "" {
		s.refuse(w, http.StatusConflict, "no_game", sess.lang)
		return
	}
	over := overFrame{Type: "over", Text: s.textOver(sess.lang), Replay: s.replayPath(sess.guild, game)}
	switch _, _, err := s.checkReader(r.Context(), sess); {
	case errors.Is(err, errGameOver):
		writeJSON(w, http.StatusOK, over)
		return
	case errors.Is(err, errNotInInstance):
		s.dropSession(sess)
		s.hub.endSession(sess, closeNoHello, "not in the activity")
		s.refuse(w, http.StatusUnauthorized, "session_ended", sess.lang)
		return
	case err != nil:
		s.log.Error("checking a page's reader", "err", err)
		s.refuse(w, http.StatusInternalServerError, "internal", sess.lang)
		return
	}
	after, _ := strconv.ParseUint(r.URL.Query().Get("after"), 10, 64)
	if o := r.URL.Query().Get("origin"); o != "" && o != s.proc {
		after = 0 // another process's version: this one's frame at once
	}
	if after != 0 {
		s.holdOpen(w, pollFor)
	}
	deadline := time.NewTimer(pollFor)
	defer deadline.Stop()
	for {
		wait := s.hub.waitChange(channel)
		f, err := s.frameFor(channel, sess.user, sess.lang)
		if errors.Is(err, commands.ErrNoGame) || (err == nil && f.Game != game) {
			writeJSON(w, http.StatusOK, over)
			return
		}
		if err != nil {
			s.log.Error("building a page's frame", "err", err)
			s.refuse(w, http.StatusInternalServerError, "internal", sess.lang)
			return
		}
		if f.Version > after || after == 0 {
			writeJSON(w, http.StatusOK, f)
			return
		}
		select {
		case <-wait:
		case <-deadline.C:
			writeJSON(w, http.StatusOK, f)
			return
		case <-r.Context().Done():
			return
		case <-s.closed:
			return
		}
	}
}

// textOver is what a page says when its game ended.
func (s *Server) textOver(lang string) string { return present.T(lang, "web.over") }
