package store

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"
)

// The ratings are a fold over a server's archived games in the order they
// finished (ratingfold.go): the same archive gives the same ratings. The
// store keeps the fold's result as an index beside the archive, so that a
// table or a member's ratings are read by key: a row per member and
// edition, ranked by the number players see; a row per pair of members
// who met (head-to-head); the table of each season that ended; and a state
// row saying how far the fold went and under which formula.
//
// Archiving a game marks it pending in the same transaction; FoldRatings,
// called right after (and by every read that finds something pending),
// folds the pending games in, in one transaction, and is idempotent. A
// game archived out of order (before the last one folded), a formula of
// another version, or a forgotten member makes the fold start again from
// the first game: a recomputation, never a migration.
//
// The formula (the model, the bots' anchors, the display) is not the
// store's: the caller passes a RatingFormula (commands wires the rating
// package's). What counts is the store's (ratingfold.go), with its own
// version, ratingRules.

// Rating is a belief about a player's skill: normal with mean Mu and
// standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// RatedSeat is one seat of a game as a formula rates it.
type RatedSeat struct {
	Rating Rating
	Rank   int  // 1 for the winner; seats sharing a place share a rank
	Fixed  bool // an anchor (a bot of measured strength): not moved
}

// RatingFormula computes ratings; the store keeps what it computes.
type RatingFormula interface {
	// Version names the formula (its model, anchors and display): the
	// ratings kept under another version are computed again.
	Version() string
	// New is a member who never played.
	New() Rating
	// Anchor is a bot level's fixed rating on an edition (false: none).
	Anchor(edition, level string) (Rating, bool)
	// Rate returns each seat's rating after the game, in order.
	Rate(seats []RatedSeat) []Rating
	// Regress is a member's rating at the start of a new season.
	Regress(Rating) Rating
	// Display is the one number players see.
	Display(Rating) int
}

// FormLength is how many of a member's latest rated games their rating
// keeps (the form /ttr rating shows).
const FormLength = 10

// MemberRating is a member's rating on one edition of a server.
type MemberRating struct {
	UserID  string `json:"user"`
	Name    string `json:"name"` // as in their latest rated game
	Edition string `json:"edition"`
	Rating  Rating `json:"rating"`
	Display int    `json:"display"`
	// Games are their rated games on the edition, every season; Wins the
	// first places among them (shared ones too), Left the games they left
	// to a bot (each rated as a loss), Hints the hints they used.
	Games int `json:"games"`
	Wins  int `json:"wins,omitempty"`
	Left  int `json:"left,omitempty"`
	Hints int `json:"hints,omitempty"`
	// SeasonGames are their rated games this season: the table lists
	// the members with one at least.
	SeasonGames int       `json:"season_games"`
	Last        time.Time `json:"last"`
	// Form is their latest rated games, oldest first.
	Form []RatedResult `json:"form,omitempty"`
}

// RatedResult is one rated game of a member.
type RatedResult struct {
	GameID   string    `json:"game"`
	Finished time.Time `json:"finished"`
	Place    int       `json:"place"` // the sheet's; the last for a game left
	Seats    int       `json:"seats"`
	Left     bool      `json:"left,omitempty"`
	Hints    int       `json:"hints,omitempty"`
	// Before and After are the displayed rating around the game.
	Before int `json:"before"`
	After  int `json:"after"`
}

// RatingChange is a member's rating moved by one game, as the final sheet
// shows it.
type RatingChange struct {
	UserID, Name  string
	Before, After int // displayed
	Games         int // their rated games on the edition, this one included
	Left          bool
	Hints         int
}

// HeadToHead is a member's record against another, on one edition: the
// games both rated, and how often the member placed above, below or
// level with them.
type HeadToHead struct {
	Opponent string `json:"opponent"`
	Name     string `json:"name"`
	Games    int    `json:"games"`
	Above    int    `json:"above"`
	Below    int    `json:"below"`
	Shared   int    `json:"shared,omitempty"`
}

// Standing is a member's place on a table: Place counts the members above
// plus one (members with the same number share a place).
type Standing struct {
	Place int `json:"place"`
	MemberRating
}

// Leaderboard is a server's table on one edition, this season.
type Leaderboard struct {
	Guild, Edition string
	Season         SeasonInfo
	// Ranked is how many members the table holds (those who played a
	// rated game this season), Top the first of them.
	Ranked int
	Top    []Standing
	// Asker is the asker's standing (nil when they have none).
	Asker *Standing
}

// MemberCard is a member's ratings on a server, by edition.
type MemberCard struct {
	UserID   string
	Season   SeasonInfo
	Editions []EditionCard // most games first
}

// EditionCard is a member's rating on one edition, with their place on
// the table (0: not on it this season) and the members they met most.
type EditionCard struct {
	Standing
	Ranked int
	Rivals []HeadToHead
}

// ErrNoRatings: nothing rated yet (a server, a member or an edition
// without a rated game).
var ErrNoRatings = errors.New("store: no rated game")

// Kinds of rating rows (the key's meaning in brackets).
const (
	ratingKindState   = "state"   // [""] how far the fold went (ratingState)
	ratingKindPending = "pending" // [archive time / id] a game archived and not folded
	ratingKindSeason  = "season"  // [season number (6 digits) / edition] a season's final table
	ratingKindMember  = "m/"      // + edition: [user] MemberRating, ranked by Display this season
	ratingKindPair    = "h/"      // + edition / user: [opponent] HeadToHead
)

func memberKind(edition string) string     { return ratingKindMember + edition }
func pairKind(edition, user string) string { return ratingKindPair + edition + "/" + user }
func pendingKey(k archiveKey) string       { return k.Finished + "/" + k.ID }
func seasonKey(n int, edition string) string {
	return fmt.Sprintf("%06d/%s", n, edition)
}

// ratingState is how far a server's fold went.
type ratingState struct {
	Version string `json:"version"`
	// LastKey is the archive key of the last game folded.
	LastKey string `json:"last_key,omitempty"`
	// Seasons is how many season ends the fold applied; SeasonStart the
	// start of the season under way (zero: the server's first game).
	Seasons     int       `json:"seasons,omitempty"`
	SeasonStart time.Time `json:"season_start,omitzero"`
	Editions    []string  `json:"editions,omitempty"` // with a rated game, in the order first rated
	// This season: the members on each edition's table, the rated games
	// by edition, and by the channel they were played in (a thread's
	// parent).
	Ranked   map[string]int `json:"ranked,omitempty"`
	Rated    map[string]int `json:"rated,omitempty"`
	Channels map[string]int `json:"channels,omitempty"`
	Locales  map[string]int `json:"locales,omitempty"` // this season's rated games by the table's language
}

// ratingVersion is what the state row records: the store's rules and the
// formula's.
func ratingVersion(f RatingFormula) string {
	return fmt.Sprintf("rules %d; %s", ratingRules, f.Version())
}

func readRatingState(t txn, guild string) (*ratingState, error) {
	raw, err := t.ratingRow(guild, ratingKindState, "")
	if err != nil || raw == nil {
		return nil, err
	}
	var st ratingState
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, fmt.Errorf("%w: rating state of %s: %v", errCorrupt, guild, err)
	}
	return &st, nil
}

// ratingsCurrent reports whether a server's ratings are folded up to its
// last archived game under formula f.
func ratingsCurrent(t txn, guild string, f RatingFormula) (*ratingState, bool, error) {
	st, err := readRatingState(t, guild)
	if err != nil || st == nil || st.Version != ratingVersion(f) {
		return st, false, err
	}
	pending := false
	err = t.ratingRows(guild, ratingKindPending, 1, func(string, []byte) error {
		pending = true
		return nil
	})
	return st, !pending, err
}

// FoldRatings brings a server's ratings up to its last archived game: the
// games archived since the last fold are folded in, or, when one came out
// of order or the formula changed, every game again from the first. It is
// idempotent, and safe to call from any number of processes at once.
func (s *Store) FoldRatings(guild string, f RatingFormula) error {
	return s.update(func(t txn) error {
		_, err := foldPending(t, guild, f, s.stamp())
		return err
	})
}

// foldPending folds what is pending in t, and returns the fold (flushed).
func foldPending(t txn, guild string, f RatingFormula, now time.Time) (*ratingFold, error) {
	if err := t.lockRatings(guild); err != nil {
		return nil, err
	}
	set, err := readGuildSettings(t, guild)
	if err != nil {
		return nil, err
	}
	st, err := readRatingState(t, guild)
	if err != nil {
		return nil, err
	}
	var pending []string
	if err := t.ratingRows(guild, ratingKindPending, 0, func(key string, _ []byte) error {
		pending = append(pending, key)
		return nil
	}); err != nil {
		return nil, err
	}
	again := st == nil || st.Version != ratingVersion(f) || st.Seasons > len(set.Ends)
	var lastFinished string
	if st != nil {
		if k, ok := parseArchiveKey(st.LastKey); ok {
			lastFinished = pendingKey(k)
		}
	}
	for _, p := range pending {
		if p <= lastFinished {
			again = true // archived before a game already folded
		}
	}
	if again {
		return recomputeRatings(t, guild, f, set)
	}
	fold := newRatingFold(t, f, guild, set, st, false)
	for _, p := range pending {
		key := archiveKey{Guild: guild}
		if len(p) > len(archiveTimeLayout) {
			key.Finished, key.ID = p[:len(archiveTimeLayout)], p[len(archiveTimeLayout)+1:]
		}
		raw, err := t.archivedSummary(key)
		if err != nil {
			return nil, err
		}
		if raw != nil { // nil: forgotten since
			e, err := decodeSummary(key, raw)
			if err != nil {
				return nil, err
			}
			if _, err := fold.add(e); err != nil {
				return nil, err
			}
		}
		if err := t.deleteRatingRow(guild, ratingKindPending, p); err != nil {
			return nil, err
		}
	}
	return fold, fold.flush()
}

// ratingRecomputes counts recomputeRatings' runs, for tests.
var ratingRecomputes atomic.Int64

// recomputeRatings folds every archived game of guild again, from none.
func recomputeRatings(t txn, guild string, f RatingFormula, set *GuildSettings) (*ratingFold, error) {
	ratingRecomputes.Add(1)
	if err := t.deleteRatings(guild); err != nil {
		return nil, err
	}
	fold := newRatingFold(t, f, guild, set, nil, true)
	var games []*ArchiveEntry
	if err := t.archived(guild, func(key archiveKey, v []byte) error {
		e, err := decodeSummary(key, v)
		if err != nil {
			return err
		}
		if _, ok := ratedSeats(e); ok {
			// Only what the fold needs: the routes are the bulk of a summary.
			for i := range e.Players {
				e.Players[i].Routes = nil
			}
			games = append(games, e)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	for _, e := range games {
		if _, err := fold.add(e); err != nil {
			return nil, err
		}
	}
	if err := fold.closeSeasons(time.Time{}, false); err != nil {
		return nil, err
	}
	return fold, fold.flush()
}

// readRatings runs read in a view of guild's ratings once they are
// current, folding first when they are not.
func (s *Store) readRatings(guild string, f RatingFormula, read func(t txn, st *ratingState, set *GuildSettings) error) error {
	for attempt := 0; ; attempt++ {
		stale := false
		err := s.view(func(t txn) error {
			st, ok, err := ratingsCurrent(t, guild, f)
			if err != nil {
				return err
			}
			if !ok {
				stale = true
				return nil
			}
			set, err := readGuildSettings(t, guild)
			if err != nil {
				return err
			}
			return read(t, st, set)
		})
		if err != nil || !stale {
			return err
		}
		if attempt == 2 {
			return fmt.Errorf("store: the ratings of %s keep changing while read", guild)
		}
		if err := s.FoldRatings(guild, f); err != nil {
			return err
		}
	}
}

// Leaderboard returns guild's table on edition this season: its first
// limit members, and the asker's standing. It reads the index in one
// statement (folding first only when a game is pending).
func (s *Store) Leaderboard(guild, edition string, limit int, asker string, f RatingFormula) (*Leaderboard, error) {
	kind := memberKind(edition)
	for attempt := 0; ; attempt++ {
		var r *boardRead
		err := s.viewOne(func(t txn) (err error) {
			r, err = t.ratingBoard(guild, kind, limit, asker)
			return err
		})
		if err != nil {
			return nil, err
		}
		var st ratingState
		current := r.state != nil && !r.pending
		if current {
			if err := json.Unmarshal(r.state, &st); err != nil {
				return nil, fmt.Errorf("%w: rating state of %s: %v", errCorrupt, guild, err)
			}
			current = st.Version == ratingVersion(f)
		}
		if !current {
			if attempt == 2 {
				return nil, fmt.Errorf("store: the ratings of %s keep changing while read", guild)
			}
			if err := s.FoldRatings(guild, f); err != nil {
				return nil, err
			}
			continue
		}
		set := &GuildSettings{}
		if r.settings != nil {
			if err := json.Unmarshal(r.settings, set); err != nil {
				return nil, fmt.Errorf("%w: settings of %s: %v", errCorrupt, guild, err)
			}
		}
		lb := &Leaderboard{Guild: guild, Edition: edition, Season: seasonInfo(set, &st), Ranked: st.Ranked[edition]}
		for _, row := range r.top {
			var m MemberRating
			if err := json.Unmarshal(row.value, &m); err != nil {
				return nil, fmt.Errorf("%w: rating of %s: %v", errCorrupt, guild, err)
			}
			place := len(lb.Top) + 1
			if n := len(lb.Top); n > 0 && m.Display == lb.Top[n-1].Display {
				place = lb.Top[n-1].Place
			}
			lb.Top = append(lb.Top, Standing{Place: place, MemberRating: m})
		}
		if r.asker != nil {
			sd := &Standing{}
			if err := json.Unmarshal(r.asker, &sd.MemberRating); err != nil {
				return nil, fmt.Errorf("%w: rating of %s: %v", errCorrupt, guild, err)
			}
			if r.askerRanked {
				sd.Place = r.above + 1
			}
			lb.Asker = sd
		}
		return lb, nil
	}
}

// RatedEditions lists the editions with rated games on guild, the one
// with the most members on this season's table first (then the most
// rated games this season, then the first rated): the table
// /ttr leaderboard shows unless asked for another.
func (s *Store) RatedEditions(guild string, f RatingFormula) ([]string, error) {
	var out []string
	err := s.readRatings(guild, f, func(_ txn, st *ratingState, _ *GuildSettings) error {
		out = slices.Clone(st.Editions)
		slices.SortStableFunc(out, func(a, b string) int {
			return cmp.Or(cmp.Compare(st.Ranked[b], st.Ranked[a]), cmp.Compare(st.Rated[b], st.Rated[a]))
		})
		return nil
	})
	return out, err
}

// standing reads a member's rating on edition and their place on the
// table (nil: no rating; Place 0: not on this season's table).
func standing(t txn, guild, edition, user string) (*Standing, error) {
	kind := memberKind(edition)
	raw, err := t.ratingRow(guild, kind, user)
	if err != nil || raw == nil {
		return nil, err
	}
	var m MemberRating
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%w: rating of %s: %v", errCorrupt, guild, err)
	}
	sd := &Standing{MemberRating: m}
	if m.SeasonGames > 0 {
		above, err := t.ratingAbove(guild, kind, int64(m.Display))
		if err != nil {
			return nil, err
		}
		sd.Place = above + 1
	}
	return sd, nil
}

// Rivals is how many of the members a member met most /ttr rating lists.
const Rivals = 3

// MemberRatings returns a member's ratings on guild, every edition they
// played rated games on, with their place and the members they met most.
// ErrNoRatings when they have none.
func (s *Store) MemberRatings(guild, user string, f RatingFormula) (*MemberCard, error) {
	card := &MemberCard{UserID: user}
	err := s.readRatings(guild, f, func(t txn, st *ratingState, set *GuildSettings) error {
		card.Season = seasonInfo(set, st)
		card.Editions = nil
		for _, ed := range st.Editions {
			sd, err := standing(t, guild, ed, user)
			if err != nil {
				return err
			}
			if sd == nil {
				continue
			}
			ec := EditionCard{Standing: *sd, Ranked: st.Ranked[ed]}
			if err := t.ratingRows(guild, pairKind(ed, user), 0, func(_ string, v []byte) error {
				var h HeadToHead
				if err := json.Unmarshal(v, &h); err != nil {
					return fmt.Errorf("%w: head-to-head of %s: %v", errCorrupt, guild, err)
				}
				ec.Rivals = append(ec.Rivals, h)
				return nil
			}); err != nil {
				return err
			}
			sortRivals(ec.Rivals)
			if len(ec.Rivals) > Rivals {
				ec.Rivals = ec.Rivals[:Rivals]
			}
			card.Editions = append(card.Editions, ec)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(card.Editions) == 0 {
		return nil, fmt.Errorf("%w for %s on %s", ErrNoRatings, user, guild)
	}
	sortEditionCards(card.Editions)
	return card, nil
}

// PreviewRatings returns how a game not yet archived would move its
// members' ratings: what the final sheet shows. The game is folded as the
// archive will fold it, on the ratings as they stand (nil: the game is
// not rated: ended early, no member, no server).
func (s *Store) PreviewRatings(guild string, game *ArchiveEntry, f RatingFormula) ([]RatingChange, error) {
	e := *game
	e.Guild = guild
	if e.Status == "" {
		e.Status = StatusFinished
	}
	if e.Finished.IsZero() {
		e.Finished = s.stamp()
	}
	if _, ok := ratedSeats(&e); !ok {
		return nil, nil
	}
	var changes []RatingChange
	err := s.readRatings(guild, f, func(t txn, st *ratingState, set *GuildSettings) error {
		fold := newRatingFold(t, f, guild, set, st, false)
		fold.dry = true
		var err error
		changes, err = fold.add(&e)
		return err
	})
	return changes, err
}
