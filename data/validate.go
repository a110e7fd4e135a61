package data

import (
	"errors"
	"fmt"
	"strings"
)

// Validate checks a board's internal consistency: every end exists, parallel
// tracks are equal, the graph is connected, the rule table and variants are
// complete and every variant can deal its tickets to five players.
func (b *Board) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	r := &b.Rules
	if b.ID == "" {
		bad("board has no id")
	}
	if r.Trains <= 0 || r.Hand <= 0 || r.FaceUp <= 0 || r.Cards.Colors <= 0 {
		bad("rules: trains, hand, face_up and cards.colors must be positive")
	}
	if len(r.StationCosts) != r.Stations {
		bad("rules: %d stations but %d station costs", r.Stations, len(r.StationCosts))
	}
	for _, tb := range r.TieBreaks {
		if !tb.known() {
			bad("rules: unknown tie-break %q", tb)
		}
	}
	for i := range b.Tracks {
		t := &b.Tracks[i]
		name := b.TrackName(t.ID)
		if t.A == t.B {
			bad("route %s joins a city to itself", name)
		}
		if _, ok := r.RoutePoints[t.Length]; !ok {
			bad("route %s: no points for length %d in the rule table", name, t.Length)
		}
		if t.Locomotives < 0 || t.Locomotives > t.Length {
			bad("route %s: %d locomotive symbols on %d spaces", name, t.Locomotives, t.Length)
		}
		if t.Color > Red {
			bad("route %s: bad colour", name)
		}
		if b.Cities[t.A].Country && b.Cities[t.B].Country {
			bad("route %s joins two countries", name)
		}
		for _, end := range []CityID{t.A, t.B} {
			if c := b.Cities[end]; c.Country {
				if n := len(b.countryOf(end).Areas); t.Area < 0 || t.Area >= n {
					bad("route %s: area %d but %s has %d", name, t.Area, c.Name, n)
				}
			}
		}
	}
	for _, g := range b.Groups {
		for _, id := range g[1:] {
			if b.Tracks[id].Length != b.Tracks[g[0]].Length {
				bad("parallel routes %s differ in length", b.TrackName(id))
			}
		}
	}
	if n := b.unreached(); n != "" {
		bad("the map is not connected: %s cannot be reached from %s", n, b.Cities[0].Name)
	}
	for _, t := range b.Tickets {
		if t.A == t.B {
			bad("ticket %s – %s joins a city to itself", b.Cities[t.A].Name, b.Cities[t.B].Name)
		}
		if t.Points <= 0 {
			bad("ticket %s – %s is worth %d", b.Cities[t.A].Name, b.Cities[t.B].Name, t.Points)
		}
	}
	for i := range b.Variants {
		if err := b.validateVariant(&b.Variants[i]); err != nil {
			bad("%v", err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("board %s: %s", b.ID, strings.Join(errs, "; "))
	}
	return nil
}

func (b *Board) validateVariant(v *Variant) error {
	long, regular := 0, 0
	for _, t := range b.Tickets {
		if !v.Uses(&t) {
			continue
		}
		if t.Long {
			long++
		} else {
			regular++
		}
	}
	needLong, needRegular, needMix := 0, 0, 0
	for i, s := range v.Setup {
		if !s.Discard.known() {
			return fmt.Errorf("variant %s: setup step %d: discard must be box, bottom or reshuffle", v.ID, i+1)
		}
		if s.KeepMin > s.Dealt() || (s.KeepMax > 0 && s.KeepMax < s.KeepMin) {
			return fmt.Errorf("variant %s: setup step %d keeps %d..%d of %d", v.ID, i+1, s.KeepMin, s.KeepMax, s.Dealt())
		}
		needLong += 5 * s.Long
		needRegular += 5 * s.Regular
		needMix += 5 * s.Mix
	}
	if long < needLong || regular < needRegular || long+regular < needLong+needRegular+needMix {
		return fmt.Errorf("variant %s: %d long and %d regular tickets cannot deal five players (need %d long, %d regular, %d either)",
			v.ID, long, regular, needLong, needRegular, needMix)
	}
	if v.Draw <= 0 || v.DrawKeepMin <= 0 || v.DrawKeepMin > v.Draw {
		return fmt.Errorf("variant %s: draws %d tickets and keeps %d", v.ID, v.Draw, v.DrawKeepMin)
	}
	return nil
}

// Uses reports whether the variant plays with ticket t.
func (v *Variant) Uses(t *Ticket) bool {
	if v.BigCitiesOnly && !t.BigCities {
		return false
	}
	for _, d := range v.Decks {
		if d == t.Deck {
			return true
		}
	}
	return false
}

func (b *Board) countryOf(node CityID) *Country {
	for i := range b.Countries {
		if b.Countries[i].Node == node {
			return &b.Countries[i]
		}
	}
	return nil
}

// CountryOf returns the country a node stands for, or nil for a city.
func (b *Board) CountryOf(node CityID) *Country { return b.countryOf(node) }

// unreached returns a node that cannot be reached from the first one, or "".
// Countries never link two cities, so the walk does not pass through them.
func (b *Board) unreached() string {
	if len(b.Cities) == 0 {
		return ""
	}
	seen := make([]bool, len(b.Cities))
	stack := []CityID{0}
	seen[0] = true
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range b.Adj[c] {
			o := b.Tracks[t].Other(c)
			if !seen[o] {
				seen[o] = true
				if !b.Cities[o].Country {
					stack = append(stack, o)
				}
			}
		}
	}
	for i, s := range seen {
		if !s {
			return b.Cities[i].Name
		}
	}
	return ""
}

var errNoBoard = errors.New("no such board")
