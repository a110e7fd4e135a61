package web

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"

	"conductor/commands"
	"conductor/present"
)

// A table set up from the page: the Entry Point pressed in a channel
// without a game opens the page on a form (edition, variant, bots) whose
// answer opens a lobby there as /ttr new and /ttr addbot would
// (commands.Service.OpenTable); the session is then bound to it, and the
// page shows the lobby, where the others join from their own pages.

// setupJSON is the form, in the reader's language.
type setupJSON struct {
	Boards []setupBoard `json:"boards"`
	Levels []optionJSON `json:"levels"`
	Seats  int          `json:"seats"` // a table's seats at most, the asker's included
}

type setupBoard struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	Variants []optionJSON `json:"variants"`
}

// maxSeats is a table's seats at most (the commands' lobby).
const maxSeats = 5

// setupFor is the form in lang.
func (s *Server) setupFor(lang string) *setupJSON {
	c := s.svc.TableChoices()
	out := &setupJSON{Seats: maxSeats, Levels: []optionJSON{}}
	for _, b := range c.Boards {
		sb := setupBoard{ID: b.ID, Name: present.EditionName(lang, b, "")}
		for _, v := range b.Variants {
			sb.Variants = append(sb.Variants, optionJSON{Value: v.ID, Label: present.VariantName(lang, b, v.ID)})
		}
		out.Boards = append(out.Boards, sb)
	}
	for _, l := range c.BotLevels {
		out.Levels = append(out.Levels, optionJSON{Value: l, Label: present.T(lang, "bot.level."+l)})
	}
	return out
}

// newRequest is the form's answer.
type newRequest struct {
	Nonce   string   `json:"nonce"`
	Map     string   `json:"map"`
	Variant string   `json:"variant"`
	Bots    []string `json:"bots"`
}

var wordRE = regexp.MustCompile(`^[a-z0-9_-]{0,40}$`)

// tablesPerUser is how many tables a user may open from the page a
// minute (the commands' own limits on lobbies apply too).
const tablesPerUser = 6

// serveNew opens the table the form asks for, in the channel the
// session's activity runs in, and binds the session to it.
func (s *Server) serveNew(w http.ResponseWriter, r *http.Request) {
	sess := s.bearer(r)
	if sess == nil {
		s.refuse(w, http.StatusUnauthorized, "session_ended", acceptLang(r))
		return
	}
	var in newRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 2048)).Decode(&in); err != nil || !nonceRE.MatchString(in.Nonce) ||
		!wordRE.MatchString(in.Map) || !wordRE.MatchString(in.Variant) || len(in.Bots) >= maxSeats ||
		slices.ContainsFunc(in.Bots, func(l string) bool { return !wordRE.MatchString(l) }) {
		s.refuse(w, http.StatusBadRequest, "bad_request", sess.lang)
		return
	}
	if !sess.inInstance || sess.location == "" {
		s.refuse(w, http.StatusForbidden, "not_in_instance", sess.lang)
		return
	}
	// A table is opened by the process that owns its server's tables
	// (fleet.go): from another one, the page says to open it in Discord.
	if !s.svc.Owns(sess.guild) {
		s.refuse(w, http.StatusConflict, "open_elsewhere", sess.lang)
		return
	}
	// One opening of a session at a time: a repeat finds the table the
	// first opened.
	sess.acts.Lock()
	defer sess.acts.Unlock()
	if channel, game := sess.bound(); channel != "" {
		writeJSON(w, http.StatusOK, gameRefJSON{ID: game, Channel: channel})
		return
	}
	if !s.limits.allow("new:"+sess.user, tablesPerUser, s.opts.Now()) {
		w.Header().Set("Retry-After", "60")
		s.refuse(w, http.StatusTooManyRequests, "too_many", sess.lang)
		return
	}
	req := &commands.Request{Type: commands.CommandRequest, ID: "web:" + sess.id + ":" + in.Nonce, Name: "ttr", Sub: "new",
		Guild: sess.guild, Channel: sess.location, User: sess.user, UserName: sess.name, Locale: sess.lang,
		Options: map[string]string{"map": in.Map, "variant": in.Variant}}
	channel, game, ans := s.svc.OpenTable(r.Context(), req, in.Bots)
	if channel == "" {
		writeJSON(w, http.StatusConflict, apiError{Error: "refused", Message: plain(ans.Content, nil)})
		return
	}
	sess.bind(channel, game)
	s.storeBinding(sess)
	s.log.Info("a table opened from the live page", "user", sess.user, "guild", sess.guild, "channel", channel)
	writeJSON(w, http.StatusOK, gameRefJSON{ID: game, Channel: channel})
}

// serveGames lists the games of the channel the session's activity runs
// in, for a page on the form: a table another opened meanwhile is joined
// rather than opened twice.
func (s *Server) serveGames(w http.ResponseWriter, r *http.Request) {
	sess := s.bearer(r)
	if sess == nil {
		s.refuse(w, http.StatusUnauthorized, "session_ended", acceptLang(r))
		return
	}
	games, err := s.svc.LiveGames(sess.guild, sess.location)
	if err != nil {
		s.log.Error("listing a channel's games", "err", err)
		s.refuse(w, http.StatusInternalServerError, "internal", sess.lang)
		return
	}
	out := struct {
		Games []pickJSON `json:"games"`
	}{Games: []pickJSON{}}
	for _, g := range games {
		out.Games = append(out.Games, pickJSON{Channel: g.Channel, Label: s.pickLabel(g, sess.lang)})
	}
	writeJSON(w, http.StatusOK, out)
}
