package commands

import (
	"fmt"
	"strings"

	"conductor/present"
)

// help lists the commands.
func (s *Service) help(req *Request) Message {
	loc := req.Locale
	lines := []string{present.T(loc, "help.intro")}
	for _, k := range []string{"new", "join", "start", "draw", "claim", "tickets", "station", "passenger", "hand", "board", "score", "log", "undo", "hint", "end", "rules", "stats"} {
		lines = append(lines, present.T(loc, "help."+k))
	}
	return Message{Ephemeral: true, Embeds: []Embed{{Title: present.T(loc, "help.title"), Description: strings.Join(lines, "\n"), Color: 0x2b6cb0}}}
}

// RuleTopics are the topics of /ttr rules.
var RuleTopics = []string{"overview", "cards", "claim", "tickets", "end", "stations", "tunnels", "ferries", "passengers", "scoring"}

// rules explains a topic of the rules in a few lines.
func (s *Service) rules(req *Request) Message {
	loc := req.Locale
	topic := strings.ToLower(strings.TrimSpace(req.Opt("topic")))
	if topic == "" {
		topic = "overview"
	}
	known := false
	for _, t := range RuleTopics {
		known = known || t == topic
	}
	if !known {
		return note(present.T(loc, "rules.unknown", "topics", strings.Join(RuleTopics, ", ")))
	}
	return Message{Ephemeral: true, Embeds: []Embed{{Title: present.T(loc, "rules.title."+topic), Description: present.T(loc, "rules."+topic), Color: 0x2f855a,
		Footer: present.T(loc, "rules.footer", "topics", strings.Join(RuleTopics, ", "))}}}
}

// stats shows the server's record, or one member's.
func (s *Service) stats(req *Request, resp Responder) error {
	loc := req.Locale
	who := req.Opt("player")
	st, err := s.cfg.Store.Stats(req.Guild, who)
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	if st.Games == 0 && st.Abandoned == 0 {
		return resp.Reply(note(present.T(loc, "stats.none")))
	}
	e := Embed{Title: present.T(loc, "stats.title"), Color: 0xd69e2e}
	e.Description = present.T(loc, "stats.summary", "games", st.Games, "players", st.Players, "moves", st.Moves, "best", st.BestScore, "by", present.EscapeMarkdown(st.BestScoreBy))
	var top []string
	for i, m := range st.Members {
		if i == 10 {
			break
		}
		top = append(top, present.T(loc, "stats.member", "rank", i+1, "player", present.EscapeMarkdown(m.Name), "wins", m.Wins, "games", m.Games, "avg", fmt.Sprintf("%.1f", m.AverageScore)))
	}
	if len(top) > 0 {
		e.Fields = append(e.Fields, Field{Name: present.T(loc, "stats.members"), Value: strings.Join(top, "\n")})
	}
	var routes []string
	for _, r := range st.FavouriteRoutes {
		routes = append(routes, fmt.Sprintf("%s ×%d", r.Route, r.Count))
	}
	if len(routes) > 0 {
		e.Fields = append(e.Fields, Field{Name: present.T(loc, "stats.routes"), Value: strings.Join(routes, "\n")})
	}
	if u := st.User; u != nil {
		var fav []string
		for _, r := range u.FavouriteRoutes {
			fav = append(fav, r.Route)
		}
		e.Fields = append(e.Fields, Field{Name: present.T(loc, "stats.user", "player", present.EscapeMarkdown(u.Name)), Value: present.T(loc, "stats.user_line",
			"wins", u.Wins, "games", u.Games, "avg", fmt.Sprintf("%.1f", u.AverageScore), "best", u.BestScore, "routes", strings.Join(fav, ", "))})
	}
	return resp.Reply(Message{Embeds: []Embed{e}})
}

// forget deletes every game and statistic of the server (admins only).
func (s *Service) forget(req *Request, resp Responder) error {
	if !req.CanManageServer {
		return resp.Reply(note(present.T(req.Locale, "forget.not_allowed")))
	}
	if req.Opt("confirm") != "true" {
		return resp.Reply(note(present.T(req.Locale, "forget.confirm")))
	}
	live, archived, err := s.cfg.Store.ForgetGuild(req.Guild)
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	// The server's tables in memory go too (never waiting for a table's
	// lock under the service's).
	s.mu.Lock()
	tables := make([]*table, 0, len(s.channels))
	for _, t := range s.channels {
		tables = append(tables, t)
	}
	s.mu.Unlock()
	for _, t := range tables {
		t.mu.Lock()
		if !t.gone && t.rec != nil && t.rec.Guild == req.Guild {
			s.disarmBot(t)
			t.rec, t.game = nil, nil
			s.drop(t)
		}
		t.mu.Unlock()
	}
	return resp.Reply(note(present.T(req.Locale, "forget.done", "live", live, "archived", archived)))
}
