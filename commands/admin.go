package commands

import (
	"strings"

	"conductor/present"
	"conductor/store"
)

// help lists the commands, each written as Discord's command mention:
// every client shows it in its own language, and a click on it starts it.
func (s *Service) help(c *call) (response, error) {
	loc := c.req.Locale
	lines := []string{present.T(loc, "help.intro")}
	for _, k := range []string{"new", "join", "start", "draw", "claim", "tickets", "station", "passenger", "hand", "board", "score", "log", "undo", "hint", "notify", "end", "rules", "stats", "rating", "leaderboard"} {
		lines = append(lines, present.T(loc, "help."+k, "option", present.CommandWord(loc, "opt.hand.dm", "dm")))
	}
	return reply(Message{Ephemeral: true, Embeds: []Embed{{Title: present.T(loc, "help.title"), Description: strings.Join(lines, "\n"), Color: 0x2b6cb0}}})
}

// RuleTopics are the topics of /ttr rules.
var RuleTopics = []string{"overview", "cards", "claim", "tickets", "end", "stations", "tunnels", "ferries", "passengers", "scoring"}

// rules explains a topic of the rules in a few lines.
func (s *Service) rules(c *call) (response, error) {
	loc := c.req.Locale
	topic := strings.ToLower(strings.TrimSpace(c.req.Opt("topic")))
	if topic == "" {
		topic = "overview"
	}
	known := false
	for _, t := range RuleTopics {
		known = known || t == topic
	}
	if !known {
		// A topic typed in the reader's language is found by its title.
		for _, t := range RuleTopics {
			if strings.EqualFold(present.T(loc, "rules.title."+t), topic) {
				topic, known = t, true
			}
		}
	}
	if !known {
		return reply(note(present.T(loc, "rules.unknown", "topics", ruleTopics(loc))))
	}
	return reply(Message{Ephemeral: true, Embeds: []Embed{{Title: present.T(loc, "rules.title."+topic), Description: present.T(loc, "rules."+topic), Color: 0x2f855a,
		Footer: present.T(loc, "rules.footer", "topics", ruleTopics(loc))}}})
}

// ruleTopics names the topics of the rules in the language of loc.
func ruleTopics(loc string) string {
	names := make([]string, len(RuleTopics))
	for i, t := range RuleTopics {
		names[i] = present.T(loc, "rules.title."+t)
	}
	return strings.Join(names, ", ")
}

// stats shows the server's record, or one member's.
func (s *Service) stats(c *call) (response, error) {
	req := c.req
	loc := req.Locale
	who := req.Opt("player")
	st, err := s.cfg.Store.Stats(req.Guild, who)
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	if st.Games == 0 && st.Early == 0 && st.Abandoned == 0 {
		return reply(note(present.T(loc, "stats.none")))
	}
	// Every number here is read from the archived score sheets: the same
	// the tables saw at the end of their games.
	e := Embed{Title: present.T(loc, "stats.title"), Color: 0xd69e2e}
	lines := []string{present.T(loc, "stats.summary", "games", st.Games, "players", st.Players, "moves", st.Moves)}
	if b := st.Best; b != nil {
		lines = append(lines, present.T(loc, "stats.best", "best", b.Score, "by", present.EscapeMarkdown(resultName(loc, b))))
	}
	if st.Early > 0 {
		lines = append(lines, present.T(loc, "stats.early", "games", st.Early))
	}
	e.Description = strings.Join(lines, "\n")
	var top []string
	for i, m := range st.Members {
		if i == 10 {
			break
		}
		top = append(top, memberLine(loc, i+1, &m))
	}
	if len(top) > 0 {
		e.Fields = append(e.Fields, Field{Name: present.T(loc, "stats.members"), Value: strings.Join(top, "\n")})
	}
	routes := []string{present.T(loc, "stats.routes_none")}
	if len(st.FavouriteRoutes) > 0 {
		routes = routeCounts(loc, st.FavouriteRoutes)
	}
	e.Fields = append(e.Fields, Field{Name: present.T(loc, "stats.routes"), Value: strings.Join(routes, "\n")})
	if u := st.User; u != nil {
		fav := "—"
		if len(u.FavouriteRoutes) > 0 {
			fav = strings.Join(routeCounts(loc, u.FavouriteRoutes), ", ")
		}
		value := present.T(loc, "stats.user_line", "wins", u.Wins, "games", u.Games, "avg", present.Decimal(loc, u.AverageScore, 1), "best", u.BestScore, "routes", fav)
		if extra := memberExtras(loc, u); extra != "" {
			value += "\n" + extra
		}
		e.Fields = append(e.Fields, Field{Name: present.T(loc, "stats.user", "player", present.EscapeMarkdown(u.Name)), Value: value})
	}
	return reply(Message{Embeds: []Embed{e}})
}

// memberLine is a member's line in the server's ranking.
func memberLine(loc string, rank int, m *store.MemberStats) string {
	line := present.T(loc, "stats.member", "rank", rank, "player", present.EscapeMarkdown(m.Name), "wins", m.Wins, "games", m.Games, "avg", present.Decimal(loc, m.AverageScore, 1))
	if extra := memberExtras(loc, m); extra != "" {
		line += " · " + extra
	}
	return line
}

// memberExtras says what of a member's record stands apart from the games
// they played to the end: shared wins, games ended early, games left to a
// bot.
func memberExtras(loc string, m *store.MemberStats) string {
	var parts []string
	if m.SharedWins > 0 {
		parts = append(parts, present.T(loc, "stats.part.shared", "n", m.SharedWins))
	}
	if m.Early > 0 {
		parts = append(parts, present.T(loc, "stats.part.early", "n", m.Early))
	}
	if m.Left > 0 {
		parts = append(parts, present.T(loc, "stats.part.left", "n", m.Left))
	}
	return strings.Join(parts, " · ")
}

// routeCounts writes favourite routes with their counts: "Denver – Omaha ×3".
func routeCounts(loc string, rs []store.RouteCount) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Route + " ×" + present.Number(loc, r.Count)
	}
	return out
}

// resultName is how a sheet's seat is named: a member's name, a bot named
// as a bot.
func resultName(loc string, p *store.PlayerResult) string {
	if p.Bot == "" {
		return p.Name
	}
	pl := present.Player{Name: p.Name, Bot: true, Level: p.Bot}
	if p.TakenOver {
		pl.For = p.Name
	}
	return present.PlayerLabel(loc, pl)
}

// forget deletes every game and statistic of the server (admins only),
// or with player: one member from them.
func (s *Service) forget(c *call) (response, error) {
	req := c.req
	if who := req.Opt("player"); who != "" {
		return s.forgetMember(c, who) // one member (ratings.go)
	}
	if !req.CanManageServer {
		return reply(note(present.T(req.Locale, "forget.not_allowed")))
	}
	if req.Opt("confirm") != "true" {
		return reply(note(present.T(req.Locale, "forget.confirm", "option", present.CommandWord(req.Locale, "opt.ttr.forget.confirm", "confirm"))))
	}
	live, archived, err := s.cfg.Store.ForgetGuild(req.Guild)
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	// The server's tables in memory go too (never waiting for a table's
	// lock under the service's).
	for _, t := range s.tables.all() {
		t.mu.Lock()
		if !t.gone && t.rec != nil && t.rec.Guild == req.Guild {
			t.bots.disarm(t)
			t.rec, t.game = nil, nil
			s.tables.drop(t)
		}
		t.mu.Unlock()
	}
	if s.cfg.Activity != nil {
		s.cfg.Activity.Forgotten(req.Guild)
	}
	return reply(note(present.T(req.Locale, "forget.done", "live", live, "archived", archived)))
}
