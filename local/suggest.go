package local

import (
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// "Did you mean": the name closest to one typed wrong, on the game's
// board and in the terminal's language (data.Nearest decides what is
// close). Each returns "" when nothing is close enough to be what was
// meant.

// suggestCity is the city of the board closest to name.
func (t *Terminal) suggestCity(name string) string {
	if t.gameBoard == nil {
		return ""
	}
	return t.gameBoard.Suggest(strings.TrimSpace(name))
}

// suggestRoute is the route meant by a route typed wrong ("Pariss
// Frankfurt", "Paris - Frankfrut (red)"): its two cities, each found or
// its closest name, joined by a track of the board; written as a route is
// typed, "Paris – Frankfurt".
func (t *Terminal) suggestRoute(typed string) string {
	b := t.gameBoard
	if b == nil {
		return ""
	}
	s := strings.TrimSpace(typed)
	if i := strings.LastIndex(s, "("); i > 0 {
		s = s[:i]
	}
	city := func(name string) (data.CityID, bool) {
		name = strings.TrimSpace(name)
		if c, ok := b.FindCity(name); ok {
			return c, true
		}
		return b.FindCity(b.Suggest(name))
	}
	between := func(x, y string) string {
		a, ok1 := city(x)
		c, ok2 := city(y)
		if !ok1 || !ok2 || a == c {
			return ""
		}
		for _, tr := range b.Adj[a] {
			if b.Tracks[tr].Other(a) == c {
				return b.Cities[a].Name + " – " + b.Cities[c].Name
			}
		}
		return ""
	}
	for _, sep := range []string{"–", "—", " - ", "-", ",", "|"} {
		if x, y, ok := strings.Cut(s, sep); ok {
			if r := between(x, y); r != "" {
				return r
			}
		}
	}
	words := strings.Fields(s)
	if n := len(words); n > 2 {
		// A colour typed last ("Paris Frankfurt red") is not a city.
		if _, err := data.ParseColor(strings.ToLower(words[n-1])); err == nil || t.suggestColor(words[n-1]) != "" {
			words = words[:n-1]
		}
	}
	for i := 1; i < len(words); i++ {
		if r := between(strings.Join(words[:i], " "), strings.Join(words[i:], " ")); r != "" {
			return r
		}
	}
	return ""
}

// cardWords are the names a card colour may be typed by: the terminal's
// language's, then English.
func (t *Terminal) cardWords(cards []engine.Card) (names []string, say map[string]string) {
	say = map[string]string{}
	for _, c := range cards {
		local := present.CardName(t.Locale, c)
		names = append(names, local, c.String())
		say[local], say[c.String()] = local, local
	}
	return names, say
}

// suggestColor is the card colour closest to a colour typed wrong, named
// in the terminal's language.
func (t *Terminal) suggestColor(typed string) string {
	var cards []engine.Card
	for _, c := range data.CardColors {
		cards = append(cards, engine.ColorCard(c))
	}
	names, say := t.cardWords(cards)
	return say[data.Nearest(typed, names)]
}

// suggestCard is what a face-up card or the deck typed wrong for /draw
// meant: a card colour (or the locomotive) in the terminal's language,
// or its word for the deck.
func (t *Terminal) suggestCard(typed string) string {
	cards := []engine.Card{engine.Locomotive}
	for _, c := range data.CardColors {
		cards = append(cards, engine.ColorCard(c))
	}
	names, say := t.cardWords(cards)
	deck := present.T(t.Locale, "word.deck")
	names = append(names, deck, "deck")
	say[deck], say["deck"] = deck, deck
	return say[data.Nearest(typed, names)]
}
