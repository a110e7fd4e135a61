package store

import (
	"encoding/json"
	"fmt"
	"time"
)

// Seasons: a server may cut its ratings into seasons of a calendar month or
// quarter (UTC). When one ends, each edition's table is kept as it stood,
// the end is announced (by the caller, through the outbox: AnnounceSeason),
// and every member starts the next season from their rating pulled toward
// a newcomer's (RatingFormula.Regress). The ends are facts recorded in the
// server's settings as they pass (by the fold that meets a game past one,
// or by CloseSeasons at the time); the tables and the regressed ratings are
// the fold's, so a recomputation ends every season where it ended.

// Season lengths (GuildSettings.Season).
const (
	SeasonNone    = ""
	SeasonMonth   = "month"
	SeasonQuarter = "quarter"
)

// GuildSettings are a server's own settings, kept apart from its games.
type GuildSettings struct {
	// Season is the season length: SeasonMonth, SeasonQuarter or
	// SeasonNone; Since when it was last set.
	Season string    `json:"season,omitempty"`
	Since  time.Time `json:"since,omitzero"`
	// Ends are the ends of the seasons so far, in order; Announced how many
	// of them were announced.
	Ends      []time.Time `json:"ends,omitempty"`
	Announced int         `json:"announced,omitempty"`
}

func readGuildSettings(t txn, guild string) (*GuildSettings, error) {
	raw, err := t.guildSettings(guild)
	if err != nil {
		return nil, err
	}
	set := &GuildSettings{}
	if raw != nil {
		if err := json.Unmarshal(raw, set); err != nil {
			return nil, fmt.Errorf("%w: settings of %s: %v", errCorrupt, guild, err)
		}
	}
	return set, nil
}

func putGuildSettings(t txn, guild string, set *GuildSettings) error {
	v, err := json.Marshal(set)
	if err != nil {
		return err
	}
	return t.putGuildSettings(guild, v)
}

// nextEnd is when the season under way ends: the first month's or
// quarter's start (UTC) after it began and after the length was set; zero
// without seasons.
func (set *GuildSettings) nextEnd() time.Time {
	base := set.Since
	if n := len(set.Ends); n > 0 && set.Ends[n-1].After(base) {
		base = set.Ends[n-1]
	}
	base = base.UTC()
	switch set.Season {
	case SeasonMonth:
		return time.Date(base.Year(), base.Month()+1, 1, 0, 0, 0, 0, time.UTC)
	case SeasonQuarter:
		q := (int(base.Month()) - 1) / 3
		return time.Date(base.Year(), time.Month(3*q+4), 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Time{}
}

// SeasonInfo is the season under way.
type SeasonInfo struct {
	Length string // SeasonMonth, SeasonQuarter or SeasonNone
	// Number counts the seasons, this one included (1 before any ended).
	Number int
	// Start is when it began (zero: with the server's first game); End
	// when it is to end (zero: never).
	Start, End time.Time
}

func seasonInfo(set *GuildSettings, st *ratingState) SeasonInfo {
	info := SeasonInfo{Length: set.Season, Number: len(set.Ends) + 1, End: set.nextEnd()}
	if n := len(set.Ends); n > 0 {
		info.Start = set.Ends[n-1]
	}
	if st != nil && st.Seasons == len(set.Ends) {
		info.Start = st.SeasonStart
	}
	return info
}

// SeasonTable is an edition's table at the end of a season.
type SeasonTable struct {
	Season    int        `json:"season"`
	Edition   string     `json:"edition"`
	Start     time.Time  `json:"start,omitzero"`
	End       time.Time  `json:"end"`
	Games     int        `json:"games"` // rated games on the edition that season
	Standings []Standing `json:"standings,omitempty"`
	// Channel is where most of the server's rated games of the season
	// were played (a thread's parent channel): where its end is told, in
	// the language most of them were played in (Locale).
	Channel string `json:"channel,omitempty"`
	Locale  string `json:"locale,omitempty"`
}

// Settings returns a server's settings.
func (s *Store) Settings(guild string) (*GuildSettings, error) {
	var set *GuildSettings
	err := s.viewOne(func(t txn) (err error) {
		set, err = readGuildSettings(t, guild)
		return err
	})
	return set, err
}

// Season returns the season under way on a server.
func (s *Store) Season(guild string) (SeasonInfo, error) {
	set, err := s.Settings(guild)
	if err != nil {
		return SeasonInfo{}, err
	}
	return seasonInfo(set, nil), nil
}

// SetSeason sets a server's season length (SeasonMonth, SeasonQuarter or
// SeasonNone) from now on: the season under way ends at the first
// month's or quarter's start after now, or never.
func (s *Store) SetSeason(guild, length string, now time.Time) (SeasonInfo, error) {
	switch length {
	case SeasonNone, SeasonMonth, SeasonQuarter:
	default:
		return SeasonInfo{}, fmt.Errorf("store: no season length %q", length)
	}
	var info SeasonInfo
	err := s.update(func(t txn) error {
		set, err := readGuildSettings(t, guild)
		if err != nil {
			return err
		}
		if set.Season != length {
			set.Season, set.Since = length, now.UTC()
		}
		info = seasonInfo(set, nil)
		return putGuildSettings(t, guild, set)
	})
	return info, err
}

// CloseSeasons ends guild's seasons due by now (folding first what is
// pending), and returns the tables of the seasons ended and not yet
// announced, oldest first, for the caller to announce (AnnounceSeason).
func (s *Store) CloseSeasons(guild string, f RatingFormula, now time.Time) ([]SeasonTable, error) {
	var out []SeasonTable
	err := s.update(func(t txn) error {
		out = nil
		fold, err := foldPending(t, guild, f, now)
		if err != nil {
			return err
		}
		fold.seasons = nil
		if err := fold.closeSeasons(now, true); err != nil {
			return err
		}
		if err := fold.flush(); err != nil {
			return err
		}
		for n := fold.set.Announced + 1; n <= len(fold.set.Ends); n++ {
			tables, err := seasonTables(t, guild, n)
			if err != nil {
				return err
			}
			out = append(out, tables...)
		}
		return nil
	})
	return out, err
}

// seasonTables reads season n's tables, an edition each.
func seasonTables(t txn, guild string, n int) ([]SeasonTable, error) {
	var out []SeasonTable
	prefix := fmt.Sprintf("%06d/", n)
	err := t.ratingRows(guild, ratingKindSeason, 0, func(key string, v []byte) error {
		if len(key) < len(prefix) || key[:len(prefix)] != prefix {
			return nil
		}
		var st SeasonTable
		if err := json.Unmarshal(v, &st); err != nil {
			return fmt.Errorf("%w: season table of %s: %v", errCorrupt, guild, err)
		}
		out = append(out, st)
		return nil
	})
	return out, err
}

// AnnounceSeason queues the announcement of season n's end (posts, for
// channel) and marks it announced, in one transaction: once, whoever
// calls it. It reports whether this call announced it.
func (s *Store) AnnounceSeason(guild string, n int, channel string, posts []OutboxEntry) (bool, error) {
	done := false
	err := s.update(func(t txn) error {
		done = false
		set, err := readGuildSettings(t, guild)
		if err != nil {
			return err
		}
		if set.Announced >= n || n > len(set.Ends) {
			return nil
		}
		if channel != "" {
			if err := s.enqueueTx(t, channel, guild, posts); err != nil {
				return err
			}
		}
		set.Announced = n
		done = true
		return putGuildSettings(t, guild, set)
	})
	return done, err
}

// SeasonGuilds lists the servers with a season length set.
func (s *Store) SeasonGuilds() ([]string, error) {
	var out []string
	err := s.viewOne(func(t txn) error {
		out = nil
		return t.eachGuildSettings(func(guild string, v []byte) error {
			var set GuildSettings
			if err := json.Unmarshal(v, &set); err != nil {
				return fmt.Errorf("%w: settings of %s: %v", errCorrupt, guild, err)
			}
			if set.Season != SeasonNone || set.Announced < len(set.Ends) {
				out = append(out, guild)
			}
			return nil
		})
	})
	return out, err
}
