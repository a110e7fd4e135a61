package engine

import (
	"fmt"
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

// Error is a refused action: Code classifies it, Key names the message
// that explains it ("claim.taken") and Args are the values that message
// shows, each named as the {name} placeholder it fills. The engine writes
// no sentence for people: the texts, in every language, are the
// presentation's (present.Refusal).
type Error struct {
	Code ErrorCode
	Key  string
	Args []Arg
}

// Error is a short technical form for logs and tests:
// "refused claim.taken: route=12 player=0".
func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("refused ")
	sb.WriteString(e.Key)
	for i, a := range e.Args {
		if i == 0 {
			sb.WriteByte(':')
		}
		fmt.Fprintf(&sb, " %s=%v", a.Name, a.Value)
	}
	return sb.String()
}

// Arg is one value a refusal shows. Value is one of: int, Seat,
// data.TrackID, data.CityID, []data.CityID, data.Color (data.Gray: cards of
// any one colour), CardsNeeded, CardsHeld or StationSite. Names are never
// translated, so no free English text travels in Args.
type Arg struct {
	Name  string
	Value any
}

// Seat is a player's seat (0-based) in a refusal; callers show the
// player's name.
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

// refuse builds a refusal: kv are the name/value pairs of its
// arguments (see Arg).
func (g *Game) refuse(code ErrorCode, key string, kv ...any) *Error {
	e := &Error{Code: code, Key: key}
	if len(kv) > 0 {
		e.Args = make([]Arg, 0, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			e.Args = append(e.Args, Arg{Name: kv[i].(string), Value: kv[i+1]})
		}
	}
	return e
}
