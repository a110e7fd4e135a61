package present

import (
	"strconv"
	"strings"
	"time"

	"conductor/imaging"
)

// Ratings as people read them: a member's change on the final sheet
// ("+12 → 1,437"), /ttr rating (a member's ratings, form and
// head-to-head), /ttr leaderboard (the server's table, as text and as a
// picture) and a season's end. The numbers come from the store's index
// of ratings; this file only words and lays them out.

// RatingChange is a member's rating moved by a finished game.
type RatingChange struct {
	Seat          int
	Before, After int
	// Provisional: fewer rated games than a rating needs to be settled,
	// this one included.
	Provisional bool
	// Left: the member left the game to a bot, which counts as a loss.
	Left  bool
	Hints int // hints the seat asked for: shown, never counted
}

// SignedChange writes a change of rating with its sign: "+12", "−8", "±0".
func SignedChange(loc string, n int) string {
	switch {
	case n > 0:
		return "+" + Number(loc, n)
	case n < 0:
		return Number(loc, n)
	}
	return "±0"
}

// RatingMove writes a rating's change and the number after it:
// "+12 → 1,437".
func RatingMove(loc string, before, after int) string {
	return T(loc, "rating.move", "change", SignedChange(loc, after-before), "rating", after)
}

// ratingNotes are what is said beside a change: provisional, left, hints.
func ratingNotes(loc string, c RatingChange) []string {
	var notes []string
	if c.Left {
		notes = append(notes, T(loc, "rating.left_game"))
	}
	if c.Provisional {
		notes = append(notes, T(loc, "rating.provisional"))
	}
	if c.Hints > 0 {
		notes = append(notes, T(loc, "rating.hints", "n", c.Hints))
	}
	return notes
}

// FinalRatings is the final sheet's line of rating changes on edition,
// each member named by name(seat); "" when the game moved nobody.
func FinalRatings(loc, edition string, changes []RatingChange, name func(seat int) string) string {
	if len(changes) == 0 {
		return ""
	}
	items := make([]string, len(changes))
	for i, c := range changes {
		items[i] = T(loc, "rating.final_item", "player", name(c.Seat), "move", RatingMove(loc, c.Before, c.After))
		if notes := ratingNotes(loc, c); len(notes) > 0 {
			items[i] += " (" + strings.Join(notes, ", ") + ")"
		}
	}
	return T(loc, "rating.final", "edition", edition, "list", strings.Join(items, " · "))
}

// RateFinalScene writes the members' rating changes on the score sheet
// picture.
func RateFinalScene(loc string, sc *imaging.FinalScene, changes []RatingChange) {
	if len(changes) == 0 {
		return
	}
	sc.Text.Rating = T(loc, "picture.final.rating")
	for _, c := range changes {
		if c.Seat < 0 || c.Seat >= len(sc.Players) {
			continue
		}
		p := &sc.Players[c.Seat]
		p.Rating = RatingMove(loc, c.Before, c.After)
		p.RatingUp = c.After - c.Before
		p.RatingNote = strings.Join(ratingNotes(loc, c), " · ")
	}
}

// Rated is a member's rating on one edition, as a table or a card shows
// it.
type Rated struct {
	// Name is how the text names them (a mention), PictureName how the
	// picture does (their name as at their latest game).
	Name, PictureName string
	Rating            int
	Place             int // on this season's table; 0 when not on it
	Games, Wins, Left int
	Hints             int
	Provisional       bool
	Form              []FormResult // their latest rated games, oldest first
}

// FormResult is one rated game of a member's.
type FormResult struct {
	Place, Seats int
	Left         bool
	Change       int
	Hints        int
}

// Season is the season under way.
type Season struct {
	Number int
	Length string // "month", "quarter" or "" (no seasons)
	// End is when it ends (zero: never).
	End time.Time
}

// BotRating is a bot level's measured rating, shown for comparison.
type BotRating struct {
	Level  string
	Rating int
}

// Leaderboard is a server's table on one edition.
type Leaderboard struct {
	Edition string // the edition's name
	Season  Season
	Ranked  int     // members on the table
	Top     []Rated // its first lines
	Asker   *Rated  // the asker's own line (nil: none)
	// AskerID says which of Top is the asker's (-1: none).
	AskerAt int
	Bots    []BotRating // strongest first
	// ProvisionalGames is how many rated games settle a rating; Newcomer
	// is a newcomer's rating.
	ProvisionalGames, Newcomer int
}

// dateOf writes a day as the language does: "November 30, 2026".
func dateOf(loc string, t time.Time) string {
	t = t.UTC()
	return T(loc, "date", "day", strconv.Itoa(t.Day()), "month", T(loc, "month."+strconv.Itoa(int(t.Month()))), "year", strconv.Itoa(t.Year()))
}

// lastDay is the day a season ending at end ends with.
func lastDay(end time.Time) time.Time { return end.Add(-time.Nanosecond) }

// SeasonLine says which season is under way and until when.
func SeasonLine(loc string, s Season) string {
	if s.Length == "" || s.End.IsZero() {
		if s.Number > 1 {
			return T(loc, "season.none_after", "n", s.Number)
		}
		return T(loc, "season.none")
	}
	return T(loc, "season.until", "n", s.Number, "date", dateOf(loc, lastDay(s.End)))
}

// provisionalMark stands before a provisional rating (the note that
// explains it starts with it too).
const provisionalMark = "≈"

func ratedNumber(loc string, r *Rated) string {
	s := Number(loc, r.Rating)
	if r.Provisional {
		s = provisionalMark + s
	}
	return s
}

// LeaderboardText is the table as a message: a title and its lines.
func LeaderboardText(loc string, lb *Leaderboard) (title string, lines []string) {
	title = T(loc, "leaderboard.title", "edition", lb.Edition)
	lines = append(lines, SeasonLine(loc, lb.Season))
	provisional := false
	for i := range lb.Top {
		r := &lb.Top[i]
		provisional = provisional || r.Provisional
		line := T(loc, "leaderboard.line", "place", r.Place, "player", r.Name, "rating", ratedNumber(loc, r), "games", r.Games)
		if i == lb.AskerAt {
			line = "👉 " + line
		}
		lines = append(lines, line)
	}
	if more := lb.Ranked - len(lb.Top); more > 0 {
		lines = append(lines, T(loc, "leaderboard.more", "n", more))
	}
	if a := lb.Asker; a != nil && lb.AskerAt < 0 {
		provisional = provisional || a.Provisional
		if a.Place > 0 {
			lines = append(lines, T(loc, "leaderboard.you", "place", a.Place, "rating", ratedNumber(loc, a), "games", a.Games))
		} else {
			lines = append(lines, T(loc, "leaderboard.you_unplaced", "rating", ratedNumber(loc, a)))
		}
	}
	if len(lb.Bots) > 0 {
		bots := make([]string, len(lb.Bots))
		for i, b := range lb.Bots {
			bots[i] = T(loc, "leaderboard.bot", "level", T(loc, "bot.level."+b.Level), "rating", b.Rating)
		}
		lines = append(lines, T(loc, "leaderboard.bots", "list", strings.Join(bots, " · ")))
	}
	if provisional {
		lines = append(lines, T(loc, "rating.provisional_note", "n", lb.ProvisionalGames))
	}
	return title, lines
}

// formMarks are a member's latest results as the picture draws them.
func formMarks(loc string, form []FormResult) []imaging.FormMark {
	out := make([]imaging.FormMark, len(form))
	for i, f := range form {
		m := imaging.FormMark{Label: Number(loc, f.Place)}
		switch {
		case f.Left:
			m.Label, m.Kind = "×", imaging.FormLast
		case f.Place == 1:
			m.Kind = imaging.FormWon
		case f.Place == f.Seats:
			m.Kind = imaging.FormLast
		}
		out[i] = m
	}
	return out
}

// LeaderboardScene is the table as a picture: the members of Top, the
// asker's line after them when it is further down, and the bots' measured
// ratings between them as reference lines.
func LeaderboardScene(loc string, lb *Leaderboard) *imaging.LeaderboardScene {
	w := func(key string) string { return T(loc, "picture.leaderboard."+key) }
	sc := &imaging.LeaderboardScene{Title: lb.Edition, Heading: w("heading"), Season: SeasonLine(loc, lb.Season),
		Place: "#", Player: w("player"), Rating: w("rating"), Games: w("games"), Form: w("form"), Bot: T(loc, "picture.bot")}
	row := func(r *Rated, highlight bool) imaging.LeaderboardRow {
		place := ""
		if r.Place > 0 {
			place = Number(loc, r.Place)
		}
		row := imaging.LeaderboardRow{Place: place, Name: r.PictureName, Rating: Number(loc, r.Rating), Games: Number(loc, r.Games),
			Form: formMarks(loc, r.Form), Highlight: highlight}
		if r.Provisional {
			row.Mark = provisionalMark
		}
		return row
	}
	bots := lb.Bots
	provisional := false
	addBots := func(above int) {
		for len(bots) > 0 && bots[0].Rating > above {
			b := bots[0]
			bots = bots[1:]
			sc.Rows = append(sc.Rows, imaging.LeaderboardRow{Bot: true, Name: T(loc, "bot.level."+b.Level), Rating: Number(loc, b.Rating)})
		}
	}
	for i := range lb.Top {
		r := &lb.Top[i]
		addBots(r.Rating)
		provisional = provisional || r.Provisional
		sc.Rows = append(sc.Rows, row(r, i == lb.AskerAt))
	}
	// The bots below the last line shown are left out (unless nothing
	// is below them): the table shows where its members stand.
	if len(lb.Top) == 0 || lb.Ranked <= len(lb.Top) {
		addBots(-1 << 30)
	}
	var footer []string
	if more := lb.Ranked - len(lb.Top); more > 0 {
		footer = append(footer, T(loc, "leaderboard.more", "n", more))
	}
	if a := lb.Asker; a != nil && lb.AskerAt < 0 {
		provisional = provisional || a.Provisional
		sc.Rows = append(sc.Rows, row(a, true))
	}
	if provisional {
		footer = append(footer, T(loc, "rating.provisional_note", "n", lb.ProvisionalGames))
	}
	footer = append(footer, T(loc, "leaderboard.explain_short", "start", lb.Newcomer))
	sc.Footer = footer
	return sc
}

// Rival is a member met often, and the record against them.
type Rival struct {
	Name                        string
	Games, Above, Below, Shared int
}

// EditionRating is a member's rating on one edition, for their card.
type EditionRating struct {
	Edition string
	Rated
	Ranked int
	Rivals []Rival
}

// RatingCard is a member's ratings as a message: its title and a field
// an edition (name, then text).
func RatingCard(loc, who string, season Season, eds []EditionRating, provisionalGames int) (title string, fields [][2]string) {
	title = T(loc, "rating.card.title", "player", who)
	for _, ed := range eds {
		r := &ed.Rated
		place := T(loc, "rating.unplaced")
		if r.Place > 0 {
			place = T(loc, "rating.place", "place", r.Place, "ranked", ed.Ranked)
		}
		lines := []string{T(loc, "rating.card.line", "rating", ratedNumber(loc, r), "place", place)}
		record := T(loc, "rating.record", "games", r.Games, "wins", r.Wins)
		if r.Left > 0 {
			record += " · " + T(loc, "rating.left", "n", r.Left)
		}
		if r.Hints > 0 {
			record += " · " + T(loc, "rating.hints_used", "n", r.Hints)
		}
		lines = append(lines, record)
		if r.Provisional {
			lines = append(lines, T(loc, "rating.provisional_note", "n", provisionalGames))
		}
		if len(r.Form) > 0 {
			results := make([]string, len(r.Form))
			for i, f := range r.Form {
				k := len(r.Form) - 1 - i // newest first
				f = r.Form[k]
				if f.Left {
					results[i] = T(loc, "rating.result_left", "change", SignedChange(loc, f.Change))
				} else {
					results[i] = T(loc, "rating.result", "place", f.Place, "seats", f.Seats, "change", SignedChange(loc, f.Change))
				}
				if f.Hints > 0 {
					results[i] += " 💡" + Number(loc, f.Hints)
				}
			}
			lines = append(lines, T(loc, "rating.form", "results", strings.Join(results, ", ")))
		}
		if len(ed.Rivals) > 0 {
			rivals := make([]string, len(ed.Rivals))
			for i, rv := range ed.Rivals {
				rivals[i] = T(loc, "rating.rival", "player", rv.Name, "above", rv.Above, "below", rv.Below)
				if rv.Shared > 0 {
					rivals[i] += " (" + T(loc, "rating.rival_shared", "n", rv.Shared) + ")"
				}
			}
			lines = append(lines, T(loc, "rating.rivals", "list", strings.Join(rivals, " · ")))
		}
		fields = append(fields, [2]string{ed.Edition, strings.Join(lines, "\n")})
	}
	fields = append(fields, [2]string{T(loc, "rating.card.season"), SeasonLine(loc, season)})
	return title, fields
}

// SeasonTable is an edition's table at a season's end, as announced.
type SeasonTable struct {
	Edition string
	Games   int
	Podium  []Rated // the first three
}

// SeasonOver announces a season's end (ended at end) with each edition's
// podium, and how the next one starts.
func SeasonOver(loc string, n int, end time.Time, tables []SeasonTable) string {
	lines := []string{T(loc, "season.over", "n", n, "date", dateOf(loc, lastDay(end)))}
	medals := []string{"🥇", "🥈", "🥉"}
	for _, t := range tables {
		var items []string
		for i, r := range t.Podium {
			if i == len(medals) {
				break
			}
			items = append(items, T(loc, "season.podium_item", "medal", medals[i], "player", r.Name, "rating", r.Rating))
		}
		lines = append(lines, T(loc, "season.podium", "edition", t.Edition, "games", t.Games, "list", strings.Join(items, " · ")))
	}
	lines = append(lines, T(loc, "season.next", "n", n+1))
	return strings.Join(lines, "\n")
}
