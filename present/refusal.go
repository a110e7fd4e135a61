package present

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"conductor/data"
	"conductor/engine"
)

// Refusal says why the engine refused a move, in the language of loc: the
// catalogue's "engine.<key>" message filled with the refusal's values,
// shown the way the player knows them (names of seats, localised colours).
// b is the game's board and name gives a seat's player name. A refusal
// the catalogue has no message for (a bug the catalogue tests catch) gets
// the headline of its kind.
func Refusal(loc string, e *engine.Error, b *data.Board, name func(seat int) string) string {
	key := "engine." + e.Key
	if _, ok := Lookup("en", key); !ok || e.Key == "" || b == nil {
		return T(loc, "refused."+errorKind(e.Code))
	}
	c, m := find(loc, key)
	r := refusalArgs{loc: loc, board: b, name: name}
	arg := func(name string) (any, bool) {
		for _, a := range e.Args {
			if a.Name == name {
				return a.Value, true
			}
		}
		return nil, false
	}
	return capitalize(m.renderWith(c.tag, arg, r.show, func(s string) string { return renderCommands(loc, s) }))
}

// refusalArgs shows the values of a refusal in a locale.
type refusalArgs struct {
	loc   string
	board *data.Board
	name  func(seat int) string
}

func (r refusalArgs) show(v any) string {
	b, loc := r.board, r.loc
	switch v := v.(type) {
	case int:
		return Number(loc, v)
	case engine.Seat:
		return EscapeMarkdown(r.name(int(v)))
	case data.TrackID:
		return RouteLabel(loc, b, v)
	case data.CityID:
		return b.Cities[v].Name
	case []data.CityID:
		names := make([]string, len(v))
		for i, c := range v {
			names[i] = b.Cities[c].Name
		}
		return strings.Join(names, ", ")
	case data.Color:
		if v == data.Gray {
			return T(loc, "engine.part.any_colour")
		}
		return CardLabel(loc, engine.ColorCard(v))
	case engine.CardsNeeded:
		var parts []string
		if v.Locos > 0 {
			parts = append(parts, CountedCard(loc, v.Locos, engine.Locomotive))
		}
		if v.Count > 0 {
			if v.Color == data.Gray {
				parts = append(parts, T(loc, "engine.part.one_colour", "n", v.Count))
			} else {
				parts = append(parts, CountedCard(loc, v.Count, engine.ColorCard(v.Color)))
			}
		}
		return strings.Join(parts, " + ")
	case engine.CardsHeld:
		var parts []string
		switch {
		case v.Best:
			parts = append(parts, T(loc, "engine.part.best_colour", "n", v.Count, "card", CardLabel(loc, engine.ColorCard(v.Color))))
		case v.Color != data.Gray:
			parts = append(parts, CountedCard(loc, v.Count, engine.ColorCard(v.Color)))
		}
		parts = append(parts, CountedCard(loc, v.Locos, engine.Locomotive))
		if v.ShowLocos4 {
			parts = append(parts, CountedCard(loc, v.Locos4, engine.Locomotive4))
		}
		return strings.Join(parts, ", ")
	case engine.StationSite:
		return T(loc, "engine.part.station", "city", b.Cities[v.City].Name, "n", v.Number)
	}
	return fmt.Sprint(v)
}

// capitalize starts a message with a capital: messages may open with a
// value written for the middle of a sentence ("a station in Roma …").
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

func errorKind(c engine.ErrorCode) string {
	switch c {
	case engine.ErrNotYourTurn:
		return "turn"
	case engine.ErrWrongPhase:
		return "phase"
	case engine.ErrGameOver:
		return "over"
	case engine.ErrCannotAfford:
		return "afford"
	case engine.ErrNotAvailable:
		return "available"
	case engine.ErrNotAllowed:
		return "allowed"
	}
	return "bad"
}
