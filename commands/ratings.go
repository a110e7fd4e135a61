package commands

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"conductor/present"
	"conductor/rating"
	"conductor/store"
)

// Ratings (docs/ratings.md): the store keeps each server's ratings as an
// index folded from its archive; the formula it folds with is the rating
// package's, wired here. A finished game's sheet shows each member's
// change, computed as the archive will fold it (store.PreviewRatings);
// the game is folded in right after it is archived. /ttr rating shows a
// member's ratings, /ttr leaderboard a table, /ttr season sets the
// seasons, and Run ends them as they pass (seasons).

// ratingFormula is the rating package's model and anchors, as the store
// folds games with them.
type ratingFormula struct{ m rating.Model }

// formula is the formula of every server.
var formula = ratingFormula{rating.Default()}

var _ store.RatingFormula = formula

func (f ratingFormula) Version() string          { return f.m.Version() }
func (f ratingFormula) New() store.Rating        { return storeRating(f.m.New()) }
func (ratingFormula) Display(r store.Rating) int { return fromStore(r).Display() }

func (f ratingFormula) Anchor(edition, level string) (store.Rating, bool) {
	r, ok := rating.AnchorFor(edition, level)
	return storeRating(r), ok
}

func (f ratingFormula) Rate(seats []store.RatedSeat) []store.Rating {
	in := make([]rating.Seat, len(seats))
	for i, s := range seats {
		in[i] = rating.Seat{Rating: fromStore(s.Rating), Rank: s.Rank, Fixed: s.Fixed}
	}
	out := f.m.Rate(in)
	rs := make([]store.Rating, len(out))
	for i, r := range out {
		rs[i] = storeRating(r)
	}
	return rs
}

func (f ratingFormula) Regress(r store.Rating) store.Rating {
	return storeRating(f.m.Regress(fromStore(r), rating.SeasonRegress))
}

func storeRating(r rating.Rating) store.Rating { return store.Rating{Mu: r.Mu, Sigma: r.Sigma} }
func fromStore(r store.Rating) rating.Rating   { return rating.Rating{Mu: r.Mu, Sigma: r.Sigma} }

// ratingChanges is how a finished game moves its members' ratings, for
// its sheet (nil when it moves nobody, or the ratings cannot be read: the
// sheet is shown without them).
func (t *table) ratingChanges(res store.ArchiveResult) []present.RatingChange {
	if t.rec.Guild == "" {
		return nil
	}
	changes, err := t.store.PreviewRatings(t.rec.Guild, &store.ArchiveEntry{Map: t.rec.Map, Finished: res.Finished,
		Early: res.Early, Players: res.Players, Parent: t.rec.Options[optParent], Channel: t.rec.Channel}, formula)
	if err != nil {
		t.log.Error("preview the ratings", "channel", t.rec.Channel, "err", err)
		return nil
	}
	var out []present.RatingChange
	for _, c := range changes {
		for seat, p := range res.Players {
			if p.UserID == c.UserID {
				out = append(out, present.RatingChange{Seat: seat, Before: c.Before, After: c.After,
					Provisional: c.Games < rating.ProvisionalGames, Left: c.Left, Hints: c.Hints})
				break
			}
		}
	}
	return out
}

// foldRatings folds the game just archived into its server's ratings.
func (t *table) foldRatings(guild string) {
	if guild == "" {
		return
	}
	if err := t.store.FoldRatings(guild, formula); err != nil {
		// The game stays pending: the next fold takes it.
		t.log.Error("fold the ratings", "guild", guild, "err", err)
	}
}

// editionName names an edition (a board id) in the language of loc.
func (s *Service) editionName(loc, id string) string {
	if b, err := s.cfg.Catalog.Board(id); err == nil {
		return present.EditionName(loc, b, "")
	}
	return id
}

func userMention(id string) string { return "<@" + id + ">" }

// formOf is a member's latest results as the texts show them.
func formOf(form []store.RatedResult) []present.FormResult {
	out := make([]present.FormResult, len(form))
	for i, f := range form {
		out[i] = present.FormResult{Place: f.Place, Seats: f.Seats, Left: f.Left, Change: f.After - f.Before, Hints: f.Hints}
	}
	return out
}

func ratedOf(m *store.MemberRating, place int) present.Rated {
	return present.Rated{Name: userMention(m.UserID), PictureName: m.Name, Rating: m.Display, Place: place, Games: m.Games,
		Wins: m.Wins, Left: m.Left, Hints: m.Hints, Provisional: m.Games < rating.ProvisionalGames, Form: formOf(m.Form)}
}

// ratingCommand answers /ttr rating [player]: a member's ratings on this
// server, edition by edition.
func (s *Service) ratingCommand(c *call) (response, error) {
	req := c.req
	loc := req.Locale
	who := req.Opt("player")
	if who == "" {
		who = req.User
	}
	card, err := s.cfg.Store.MemberRatings(req.Guild, who, formula)
	switch {
	case errors.Is(err, store.ErrNoRatings):
		return reply(note(present.T(loc, "rating.none_member", "player", userMention(who))))
	case err != nil:
		return reply(oops(req, err.Error()))
	}
	eds := make([]present.EditionRating, len(card.Editions))
	for i, ec := range card.Editions {
		eds[i] = present.EditionRating{Edition: s.editionName(loc, ec.Edition), Rated: ratedOf(&ec.MemberRating, ec.Place), Ranked: ec.Ranked}
		for _, h := range ec.Rivals {
			eds[i].Rivals = append(eds[i].Rivals, present.Rival{Name: userMention(h.Opponent), Games: h.Games, Above: h.Above, Below: h.Below, Shared: h.Shared})
		}
	}
	title, fields := present.RatingCard(loc, userMention(who), seasonOf(card.Season), eds, rating.ProvisionalGames)
	e := Embed{Title: title, Color: 0x2b6cb0}
	for _, f := range fields {
		e.Fields = append(e.Fields, Field{Name: f[0], Value: f[1]})
	}
	// The title names the member in their own words: Discord shows no
	// mention in an embed's title.
	e.Title = present.T(loc, "rating.card.title", "player", present.EscapeMarkdown(nameOf(card, who)))
	e.Description = userMention(who)
	return reply(Message{Embeds: []Embed{e}})
}

// nameOf is the name a member had at their latest rated game.
func nameOf(card *store.MemberCard, user string) string {
	var last time.Time
	name := user
	for _, ec := range card.Editions {
		if ec.Last.After(last) && ec.Name != "" {
			last, name = ec.Last, ec.Name
		}
	}
	return name
}

func seasonOf(info store.SeasonInfo) present.Season {
	return present.Season{Number: info.Number, Length: info.Length, End: info.End}
}

// leaderboardSize is how many members the table lists.
const leaderboardSize = 10

// leaderboardCommand answers /ttr leaderboard [edition]: the server's
// table, as text and as a picture, in the asker's language.
func (s *Service) leaderboardCommand(c *call) (response, error) {
	req := c.req
	loc := req.Locale
	edition := req.Opt("edition")
	if edition == "" {
		eds, err := s.cfg.Store.RatedEditions(req.Guild, formula)
		if err != nil {
			return reply(oops(req, err.Error()))
		}
		if len(eds) == 0 {
			return reply(note(present.T(loc, "rating.none")))
		}
		edition = eds[0]
	}
	lb, err := s.cfg.Store.Leaderboard(req.Guild, edition, leaderboardSize, req.User, formula)
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	if len(lb.Top) == 0 {
		return reply(note(present.T(loc, "rating.none_edition", "edition", s.editionName(loc, edition))))
	}
	view := &present.Leaderboard{Edition: s.editionName(loc, edition), Season: seasonOf(lb.Season), Ranked: lb.Ranked, AskerAt: -1,
		ProvisionalGames: rating.ProvisionalGames, Newcomer: formula.m.New().Display()}
	for i := range lb.Top {
		view.Top = append(view.Top, ratedOf(&lb.Top[i].MemberRating, lb.Top[i].Place))
		if lb.Top[i].UserID == req.User {
			view.AskerAt = i
		}
	}
	if a := lb.Asker; a != nil && view.AskerAt < 0 {
		r := ratedOf(&a.MemberRating, a.Place)
		view.Asker = &r
	}
	anchors := rating.AnchorList(edition)
	for i := len(anchors) - 1; i >= 0; i-- {
		view.Bots = append(view.Bots, present.BotRating{Level: anchors[i].Level, Rating: anchors[i].Rating.Display()})
	}
	title, lines := present.LeaderboardText(loc, view)
	msg := Message{Embeds: []Embed{{Title: title, Description: truncate(strings.Join(lines, "\n"), 4000), Color: 0xd69e2e, Image: "leaderboard.png"}}}
	var buf bytes.Buffer
	if err := s.cfg.Renderer.Leaderboard(&buf, present.LeaderboardScene(loc, view)); err != nil {
		s.log.Error("render the leaderboard", "err", err)
		msg.Embeds[0].Image = ""
	} else {
		msg.Files = []File{{Name: "leaderboard.png", ContentType: "image/png", Data: buf.Bytes()}}
	}
	return reply(msg)
}

// seasonCommand answers /ttr season [length]: the season under way, or,
// for a member with Manage Server, a new season length.
func (s *Service) seasonCommand(c *call) (response, error) {
	req := c.req
	loc := req.Locale
	length := req.Opt("length")
	if length == "" {
		info, err := s.cfg.Store.Season(req.Guild)
		if err != nil {
			return reply(oops(req, err.Error()))
		}
		return reply(note(present.T(loc, "season.show", "line", present.SeasonLine(loc, seasonOf(info)))))
	}
	if !req.CanManageServer {
		return reply(note(present.T(loc, "season.not_allowed")))
	}
	if length == "none" {
		length = store.SeasonNone
	}
	info, err := s.cfg.Store.SetSeason(req.Guild, length, s.cfg.Now())
	if err != nil {
		return reply(note(present.T(loc, "season.not_allowed")))
	}
	key := "season.set_" + map[string]string{store.SeasonMonth: "month", store.SeasonQuarter: "quarter", store.SeasonNone: "none"}[length]
	return reply(Message{Content: present.T(loc, key, "line", present.SeasonLine(loc, seasonOf(info)))})
}

// forgetMember answers /ttr forget player: confirm:True: a member taken
// out of every finished game of the server, and the ratings computed
// again without them. Anyone may forget themselves; forgetting another
// needs Manage Server.
func (s *Service) forgetMember(c *call, who string) (response, error) {
	req := c.req
	loc := req.Locale
	if who != req.User && !req.CanManageServer {
		return reply(note(present.T(loc, "forget.member_not_allowed")))
	}
	if req.Opt("confirm") != "true" {
		return reply(note(present.T(loc, "forget.member_confirm", "player", userMention(who),
			"option", present.CommandWord(loc, "opt.ttr.forget.confirm", "confirm"))))
	}
	n, err := s.cfg.Store.ForgetMember(req.Guild, who, formula)
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	return reply(note(present.T(loc, "forget.member_done", "player", userMention(who), "games", n)))
}

// seasonCheckEvery is how often Run looks for seasons that ended.
const seasonCheckEvery = 10 * time.Minute

// seasons ends the servers' seasons as they pass and announces them,
// until ctx ends: every seasonCheckEvery, and at once. Any process may
// do it: ending a season and announcing it are each done once, in the
// store.
func (s *Service) seasons(ctx context.Context) {
	for {
		s.CloseSeasons()
		select {
		case <-ctx.Done():
			return
		case <-s.ctx.Done():
			return
		case <-time.After(seasonCheckEvery):
		}
	}
}

// CloseSeasons ends every season due now and announces it in the channel
// where most of its games were played, in their language, through the
// outbox (Run calls it; tests call it with an injected clock).
func (s *Service) CloseSeasons() {
	guilds, err := s.cfg.Store.SeasonGuilds()
	if err != nil {
		s.log.Error("list the servers with seasons", "err", err)
		return
	}
	for _, g := range guilds {
		tables, err := s.cfg.Store.CloseSeasons(g, formula, s.cfg.Now())
		if err != nil {
			s.log.Error("end a season", "guild", g, "err", err)
			continue
		}
		bySeason := map[int][]store.SeasonTable{}
		var order []int
		for _, t := range tables {
			if bySeason[t.Season] == nil {
				order = append(order, t.Season)
			}
			bySeason[t.Season] = append(bySeason[t.Season], t)
		}
		for _, n := range order {
			ts := bySeason[n]
			channel, loc := ts[0].Channel, ts[0].Locale
			var podiums []present.SeasonTable
			for _, t := range ts {
				pt := present.SeasonTable{Edition: s.editionName(loc, t.Edition), Games: t.Games}
				for i := range t.Standings {
					if i == 3 {
						break
					}
					pt.Podium = append(pt.Podium, present.Rated{Name: userMention(t.Standings[i].UserID), Rating: t.Standings[i].Display})
				}
				if len(pt.Podium) > 0 {
					podiums = append(podiums, pt)
				}
			}
			var posts []store.OutboxEntry
			if len(podiums) > 0 {
				posts = append(posts, outboxEntry(postMessage, Message{Content: present.SeasonOver(loc, n, ts[0].End, podiums)}))
			} else {
				channel = "" // nobody played: nothing to tell
			}
			if done, err := s.cfg.Store.AnnounceSeason(g, n, channel, posts); err != nil {
				s.log.Error("announce a season's end", "guild", g, "season", strconv.Itoa(n), "err", err)
			} else if done && channel != "" {
				s.out.kick(channel)
			}
		}
	}
}
