package engine

import (
	"fmt"
	"strconv"
	"strings"

	"conductor/data"
)

// ErrorCode classifies why an action was refused, so that callers can react
// (for example, answer "not your turn" differently from a bad payment).
type ErrorCode uint8

const (
	ErrNotYourTurn ErrorCode = iota + 1
	ErrWrongPhase
	ErrGameOver
	ErrBadAction  // malformed: unknown track, slot, city…
	ErrNotAllowed // the rules forbid it now (locomotive as second card, double route…)
	ErrCannotAfford
	ErrNotAvailable // nothing to draw, track taken, no station left…
)

// Error is a refused action. Msg says in English what is wrong and what
// would work; Key and Args say the same for translation: Key names the
// message ("claim.taken") and Args are the values it shows, each named as
// the {name} placeholder it fills.
type Error struct {
	Code ErrorCode
	Key  string
	Args []Arg
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Arg is one value a refusal shows. Value is one of: int, Seat,
// data.TrackID, data.CityID, []data.CityID, data.Color (data.Gray: cards of
// any one colour), CardsNeeded, CardsHeld or StationSite. Names are never
// translated, so no free English text travels in Args.
type Arg struct {
	Name  string
	Value any
}

// Seat is a player's seat (0-based) in a refusal; callers show the
// player's name, the engine "player N".
type Seat int

// CardsNeeded is what a payment asks for: Locos locomotives, then Count
// cards of Color (data.Gray: of any one colour).
type CardsNeeded struct {
	Locos int
	Count int
	Color data.Color
}

// CardsHeld is what a player holds toward a payment: Count cards of Color
// (none shown when Color is data.Gray; when Best is set, Color is the
// colour held most, for a payment in any one colour), Locos locomotives
// and, when ShowLocos4, Locos4 Locomotive +4 cards.
type CardsHeld struct {
	Color      data.Color
	Count      int
	Best       bool
	Locos      int
	Locos4     int
	ShowLocos4 bool
}

// StationSite is a station being paid for: in City, the player's station
// number Number (1 for the first).
type StationSite struct {
	City   data.CityID
	Number int
}

// refuse builds a refusal: english is the message with {name}
// placeholders, kv the name/value pairs filling them (see Arg).
func (g *Game) refuse(code ErrorCode, key, english string, kv ...any) *Error {
	e := &Error{Code: code, Key: key}
	if len(kv) > 0 {
		e.Args = make([]Arg, 0, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			e.Args = append(e.Args, Arg{Name: kv[i].(string), Value: kv[i+1]})
		}
	}
	e.Msg = FillMessage(english, e.Args, g.englishArg)
	return e
}

// FillMessage replaces each {name} placeholder of template with the named
// argument as render shows it; unknown placeholders stay as they are.
func FillMessage(template string, args []Arg, render func(any) string) string {
	var sb strings.Builder
	for {
		open := strings.IndexByte(template, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(template[open:], '}')
		if end < 0 {
			break
		}
		end += open
		sb.WriteString(template[:open])
		name := template[open+1 : end]
		found := false
		for _, a := range args {
			if a.Name == name {
				sb.WriteString(render(a.Value))
				found = true
				break
			}
		}
		if !found {
			sb.WriteString(template[open : end+1])
		}
		template = template[end+1:]
	}
	sb.WriteString(template)
	return sb.String()
}

// englishArg shows a refusal's value in English.
func (g *Game) englishArg(v any) string {
	switch v := v.(type) {
	case int:
		return strconv.Itoa(v)
	case Seat:
		return "player " + strconv.Itoa(int(v)+1)
	case data.TrackID:
		return g.TrackLabel(v)
	case data.CityID:
		return g.board.Cities[v].Name
	case []data.CityID:
		names := make([]string, len(v))
		for i, c := range v {
			names[i] = g.board.Cities[c].Name
		}
		return strings.Join(names, ", ")
	case data.Color:
		return colorWord(v)
	case CardsNeeded:
		return v.English()
	case CardsHeld:
		return v.English()
	case StationSite:
		return fmt.Sprintf("a station in %s (your station number %d)", g.board.Cities[v.City].Name, v.Number)
	}
	return fmt.Sprint(v)
}

// TrackLabel is "Paris – Frankfurt (white, 3)", how errors name a track.
func (g *Game) TrackLabel(t data.TrackID) string {
	tr := &g.board.Tracks[t]
	kind := ""
	switch {
	case tr.Tunnel:
		kind = ", tunnel"
	case tr.Locomotives > 0:
		kind = fmt.Sprintf(", ferry with %d locomotive%s", tr.Locomotives, plural(tr.Locomotives))
	}
	return fmt.Sprintf("%s (%s, %d%s)", g.board.TrackName(t), tr.Color, tr.Length, kind)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func colorWord(c data.Color) string {
	if c == data.Gray {
		return "same-colour"
	}
	return c.String()
}

// English is "3 white cards", "3 cards of one colour" or "2 locomotives
// and 4 cards of one colour".
func (n CardsNeeded) English() string {
	var parts []string
	if n.Locos > 0 {
		parts = append(parts, fmt.Sprintf("%d locomotive%s", n.Locos, plural(n.Locos)))
	}
	if n.Count > 0 {
		if n.Color == data.Gray {
			parts = append(parts, fmt.Sprintf("%d card%s of one colour", n.Count, plural(n.Count)))
		} else {
			parts = append(parts, fmt.Sprintf("%d %s card%s", n.Count, n.Color, plural(n.Count)))
		}
	}
	return strings.Join(parts, " and ")
}

// English is "1 white and 1 locomotive" or "at most 2 of one colour (red)
// and 0 locomotives and 1 locomotive+4".
func (h CardsHeld) English() string {
	var parts []string
	switch {
	case h.Best:
		parts = append(parts, fmt.Sprintf("at most %d of one colour (%s)", h.Count, h.Color))
	case h.Color != data.Gray:
		parts = append(parts, fmt.Sprintf("%d %s", h.Count, h.Color))
	}
	parts = append(parts, fmt.Sprintf("%d locomotive%s", h.Locos, plural(h.Locos)))
	if h.ShowLocos4 {
		parts = append(parts, fmt.Sprintf("%d locomotive+4", h.Locos4))
	}
	return strings.Join(parts, " and ")
}
