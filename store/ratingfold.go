package store

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// ratingRules is the version of what counts (ratedSeats and the fold's
// bookkeeping): a change here recomputes every server's ratings, as a
// formula's new version does.
const ratingRules = 1

// What counts, said once (docs/ratings.md and docs/commands.md say it to
// players):
//   - a game played to its end is rated; a game ended early, or stopped
//     without a score, is not; nor is a game outside a server;
//   - each member's seat is rated by its place on the final sheet, shared
//     places shared (a draw between the seats that share it);
//   - a seat a member left to a bot is rated as a loss for that member:
//     below every seat played to the end, level with anyone else who left;
//     the bot that finished it is not rated, and is nobody's opponent;
//   - a bot's own seat is an opponent of known strength: its level's
//     anchor on the edition, never moved; a level without an anchor is
//     left out;
//   - a seat without a member (a forgotten one) is left out, as if it had
//     not been at the table: the others keep their places;
//   - a game rates something when it holds a member and one opponent.

// foldSeat is one seat of a game the fold rates.
type foldSeat struct {
	p      *PlayerResult
	member bool
	left   bool
	level  string // a bot's own seat
	rank   int
}

// ratedSeats returns the seats of e that count, or false when e is not
// rated.
func ratedSeats(e *ArchiveEntry) ([]foldSeat, bool) {
	if e.Guild == "" || e.Status != StatusFinished || e.Early {
		return nil, false
	}
	last := len(e.Players) + 1
	var seats []foldSeat
	members := 0
	seen := map[string]bool{}
	for i := range e.Players {
		p := &e.Players[i]
		left := p.TakenOver || (p.UserID != "" && p.Bot != "")
		switch {
		case p.UserID != "" && seen[p.UserID]:
			// A member twice at one table is no game this code wrote.
			return nil, false
		case p.UserID != "" && left:
			seats = append(seats, foldSeat{p: p, member: true, left: true, rank: last})
		case p.UserID != "":
			if p.Rank < 1 {
				return nil, false
			}
			seats = append(seats, foldSeat{p: p, member: true, rank: p.Rank})
		case p.Bot != "":
			if p.Rank < 1 {
				return nil, false
			}
			seats = append(seats, foldSeat{p: p, level: p.Bot, rank: p.Rank})
		default:
			continue
		}
		if p.UserID != "" {
			seen[p.UserID] = true
			members++
		}
	}
	return seats, members > 0 && len(seats) > 1
}

// ratingFold folds games into a server's ratings: rows read from t when
// first needed (none when fresh: a recomputation starts from nothing),
// changed in memory, and written by flush.
type ratingFold struct {
	t     txn
	f     RatingFormula
	guild string
	set   *GuildSettings
	st    *ratingState
	fresh bool
	// dry: a preview, never flushed.
	dry bool

	loadedAll  bool
	members    map[string]*MemberRating // edition NUL user
	pairs      map[string]*HeadToHead   // edition NUL user NUL opponent
	dirty      map[string]bool          // members' keys, and pairs' with a "h" before
	seasons    []SeasonTable            // the tables of the seasons this fold ended
	setChanged bool
}

func newRatingFold(t txn, f RatingFormula, guild string, set *GuildSettings, st *ratingState, fresh bool) *ratingFold {
	if st == nil {
		st = &ratingState{}
	}
	st.Version = ratingVersion(f)
	return &ratingFold{t: t, f: f, guild: guild, set: set, st: st, fresh: fresh,
		members: map[string]*MemberRating{}, pairs: map[string]*HeadToHead{}, dirty: map[string]bool{}}
}

func (fd *ratingFold) member(edition, user string) (*MemberRating, error) {
	key := edition + "\x00" + user
	if m := fd.members[key]; m != nil {
		return m, nil
	}
	if !fd.fresh && !fd.loadedAll {
		raw, err := fd.t.ratingRow(fd.guild, memberKind(edition), user)
		if err != nil {
			return nil, err
		}
		if raw != nil {
			var m MemberRating
			if err := json.Unmarshal(raw, &m); err != nil {
				return nil, fmt.Errorf("%w: rating of %s: %v", errCorrupt, fd.guild, err)
			}
			fd.members[key] = &m
			return &m, nil
		}
	}
	r := fd.f.New()
	m := &MemberRating{UserID: user, Edition: edition, Rating: r, Display: fd.f.Display(r)}
	fd.members[key] = m
	return m, nil
}

func (fd *ratingFold) pair(edition, user, opponent string) (*HeadToHead, error) {
	key := edition + "\x00" + user + "\x00" + opponent
	if h := fd.pairs[key]; h != nil {
		return h, nil
	}
	if !fd.fresh {
		raw, err := fd.t.ratingRow(fd.guild, pairKind(edition, user), opponent)
		if err != nil {
			return nil, err
		}
		if raw != nil {
			var h HeadToHead
			if err := json.Unmarshal(raw, &h); err != nil {
				return nil, fmt.Errorf("%w: head-to-head of %s: %v", errCorrupt, fd.guild, err)
			}
			fd.pairs[key] = &h
			return &h, nil
		}
	}
	h := &HeadToHead{Opponent: opponent}
	fd.pairs[key] = h
	return h, nil
}

// loadAll reads every member's rating of the server (a season's end moves
// them all).
func (fd *ratingFold) loadAll() error {
	if fd.fresh || fd.loadedAll {
		return nil
	}
	for _, ed := range fd.st.Editions {
		err := fd.t.ratingRows(fd.guild, memberKind(ed), 0, func(user string, v []byte) error {
			key := ed + "\x00" + user
			if fd.members[key] != nil {
				return nil // changed here already
			}
			var m MemberRating
			if err := json.Unmarshal(v, &m); err != nil {
				return fmt.Errorf("%w: rating of %s: %v", errCorrupt, fd.guild, err)
			}
			fd.members[key] = &m
			return nil
		})
		if err != nil {
			return err
		}
	}
	fd.loadedAll = true
	return nil
}

// add folds one game in and returns its members' changes (nil: not
// rated).
func (fd *ratingFold) add(e *ArchiveEntry) ([]RatingChange, error) {
	all, ok := ratedSeats(e)
	if !ok {
		return nil, nil
	}
	ed := e.Map
	var seats []foldSeat
	members := 0
	for _, s := range all {
		if !s.member {
			if _, ok := fd.f.Anchor(ed, s.level); !ok {
				continue
			}
		} else {
			members++
		}
		seats = append(seats, s)
	}
	if len(seats) < 2 {
		return nil, nil
	}
	if err := fd.closeSeasons(e.Finished, true); err != nil {
		return nil, err
	}
	// The ratings before the game, in seat order.
	rated := make([]RatedSeat, 0, len(seats))
	rows := make([]*MemberRating, len(seats))
	for i, s := range seats {
		if !s.member {
			a, _ := fd.f.Anchor(ed, s.level)
			rated = append(rated, RatedSeat{Rating: a, Rank: s.rank, Fixed: true})
			continue
		}
		m, err := fd.member(ed, s.p.UserID)
		if err != nil {
			return nil, err
		}
		rows[i] = m
		rated = append(rated, RatedSeat{Rating: m.Rating, Rank: s.rank})
	}
	after := fd.f.Rate(rated)
	if len(after) != len(rated) {
		return nil, errors.New("store: the rating formula rated another number of seats")
	}
	if !slices.Contains(fd.st.Editions, ed) {
		fd.st.Editions = append(fd.st.Editions, ed)
	}
	bump := func(m *map[string]int, k string) {
		if *m == nil {
			*m = map[string]int{}
		}
		(*m)[k]++
	}
	bump(&fd.st.Rated, ed)
	channel := e.Parent
	if channel == "" {
		channel = e.Channel
	}
	bump(&fd.st.Channels, channel)
	bump(&fd.st.Locales, e.Locale)
	changes := make([]RatingChange, 0, members)
	for i, s := range seats {
		m := rows[i]
		if m == nil {
			continue
		}
		before := m.Display
		m.Rating = after[i]
		m.Display = fd.f.Display(after[i])
		if s.p.Name != "" {
			m.Name = s.p.Name
		}
		m.Games++
		if m.SeasonGames == 0 {
			bump(&fd.st.Ranked, ed)
		}
		m.SeasonGames++
		switch {
		case s.left:
			m.Left++
		case s.rank == 1:
			m.Wins++
		}
		m.Hints += s.p.Hints
		m.Last = e.Finished
		res := RatedResult{GameID: e.GameID, Finished: e.Finished, Place: s.p.Rank, Seats: len(e.Players), Left: s.left,
			Hints: s.p.Hints, Before: before, After: m.Display}
		if s.left {
			res.Place = len(e.Players)
		}
		m.Form = append(m.Form, res)
		if len(m.Form) > FormLength {
			m.Form = slices.Delete(m.Form, 0, len(m.Form)-FormLength)
		}
		fd.dirty[ed+"\x00"+m.UserID] = true
		changes = append(changes, RatingChange{UserID: m.UserID, Name: m.Name, Before: before, After: m.Display,
			Games: m.Games, Left: s.left, Hints: s.p.Hints})
	}
	// Head-to-head, between members.
	for i, s := range seats {
		for j, o := range seats {
			if i == j || !s.member || !o.member {
				continue
			}
			h, err := fd.pair(ed, s.p.UserID, o.p.UserID)
			if err != nil {
				return nil, err
			}
			h.Name = rows[j].Name
			h.Games++
			switch {
			case s.rank < o.rank:
				h.Above++
			case s.rank > o.rank:
				h.Below++
			default:
				h.Shared++
			}
			fd.dirty["h"+ed+"\x00"+s.p.UserID+"\x00"+o.p.UserID] = true
		}
	}
	fd.st.LastKey = e.Key
	return changes, nil
}

// closeSeasons ends the seasons due by upTo: the ends already recorded
// (every one when upTo is zero), and, when record is set, the ends the
// season length schedules by then, recorded now.
func (fd *ratingFold) closeSeasons(upTo time.Time, record bool) error {
	for {
		if fd.st.Seasons < len(fd.set.Ends) {
			end := fd.set.Ends[fd.st.Seasons]
			if !upTo.IsZero() && end.After(upTo) {
				return nil
			}
			if err := fd.endSeason(end); err != nil {
				return err
			}
			continue
		}
		if !record || upTo.IsZero() {
			return nil
		}
		next := fd.set.nextEnd()
		if next.IsZero() || next.After(upTo) {
			return nil
		}
		fd.set.Ends = append(fd.set.Ends, next)
		fd.setChanged = true
	}
}

// endSeason ends the season under way at end: each edition's table is
// kept as it stands, and every member's rating is pulled toward a
// newcomer's for the next (RatingFormula.Regress).
func (fd *ratingFold) endSeason(end time.Time) error {
	if err := fd.loadAll(); err != nil {
		return err
	}
	n := fd.st.Seasons + 1
	channel, locale := mostOf(fd.st.Channels), mostOf(fd.st.Locales)
	for _, ed := range fd.st.Editions {
		table := SeasonTable{Season: n, Edition: ed, Start: fd.st.SeasonStart, End: end, Games: fd.st.Rated[ed], Channel: channel, Locale: locale}
		for _, m := range fd.members {
			if m.Edition == ed && m.SeasonGames > 0 {
				table.Standings = append(table.Standings, Standing{MemberRating: MemberRating{
					UserID: m.UserID, Name: m.Name, Edition: ed, Rating: m.Rating, Display: m.Display, Games: m.Games, SeasonGames: m.SeasonGames}})
			}
		}
		sortStandings(table.Standings)
		fd.seasons = append(fd.seasons, table)
	}
	for key, m := range fd.members {
		m.Rating = fd.f.Regress(m.Rating)
		m.Display = fd.f.Display(m.Rating)
		m.SeasonGames = 0
		fd.dirty[key] = true
	}
	fd.st.Seasons = n
	fd.st.SeasonStart = end
	fd.st.Ranked, fd.st.Rated, fd.st.Channels, fd.st.Locales = nil, nil, nil, nil
	return nil
}

// mostOf is the key counted most (the first in order among equals).
func mostOf(counts map[string]int) string {
	best, most := "", 0
	for k, n := range counts {
		if n > most || (n == most && k < best) {
			best, most = k, n
		}
	}
	return best
}

// sortStandings orders a table and numbers its places.
func sortStandings(ss []Standing) {
	slices.SortFunc(ss, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Display, a.Display), cmp.Compare(a.UserID, b.UserID))
	})
	for i := range ss {
		ss[i].Place = i + 1
		if i > 0 && ss[i].Display == ss[i-1].Display {
			ss[i].Place = ss[i-1].Place
		}
	}
}

// ratingWrite is a row flush writes.
type ratingWrite struct {
	kind, key string
	rank      *int64
	value     any
}

// flush writes what the fold changed, in key order (bbolt inserts keys
// given out of order into a page by moving the page's others: a
// recomputation writes tens of thousands).
func (fd *ratingFold) flush() error {
	if fd.dry {
		return errors.New("store: a preview of ratings is not written")
	}
	var rows []ratingWrite
	for key := range fd.dirty {
		if key[0] == 'h' {
			ed, rest, _ := cutNUL(key[1:])
			user, _, _ := cutNUL(rest)
			h := fd.pairs[key[1:]]
			rows = append(rows, ratingWrite{kind: pairKind(ed, user), key: h.Opponent, value: h})
			continue
		}
		m := fd.members[key]
		w := ratingWrite{kind: memberKind(m.Edition), key: m.UserID, value: m}
		if m.SeasonGames > 0 {
			r := int64(m.Display)
			w.rank = &r
		}
		rows = append(rows, w)
	}
	for i := range fd.seasons {
		table := &fd.seasons[i]
		rows = append(rows, ratingWrite{kind: ratingKindSeason, key: seasonKey(table.Season, table.Edition), value: table})
	}
	rows = append(rows, ratingWrite{kind: ratingKindState, value: fd.st})
	slices.SortFunc(rows, func(a, b ratingWrite) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.key, b.key))
	})
	for _, w := range rows {
		v, err := json.Marshal(w.value)
		if err != nil {
			return err
		}
		if err := fd.t.putRatingRow(fd.guild, w.kind, w.key, w.rank, v); err != nil {
			return err
		}
	}
	if fd.setChanged {
		if err := putGuildSettings(fd.t, fd.guild, fd.set); err != nil {
			return err
		}
	}
	fd.dirty, fd.seasons, fd.setChanged = map[string]bool{}, nil, false
	return nil
}

// cutNUL cuts s at its first NUL.
func cutNUL(s string) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func sortRivals(hs []HeadToHead) {
	slices.SortFunc(hs, func(a, b HeadToHead) int {
		return cmp.Or(cmp.Compare(b.Games, a.Games), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Opponent, b.Opponent))
	})
}

func sortEditionCards(cs []EditionCard) {
	slices.SortFunc(cs, func(a, b EditionCard) int {
		return cmp.Or(cmp.Compare(b.Games, a.Games), cmp.Compare(a.Edition, b.Edition))
	})
}
