package local

import (
	"slices"
	"strings"

	"conductor/commands"
	"conductor/present"
)

// The terminal's own words. The shared texts speak Discord: "pick one
// from the list as you type", "use the buttons on the latest board
// message", "click Choose my tickets". The few of them a terminal player
// can meet are said here in the terminal's words instead, in the same
// language: the terminal finds the shared message in what it is about to
// show (present.FindMessage: the message as its language writes it, its
// placeholders read back) and writes its own, a term.* message of every
// catalogue, with the same values. The commands layer stays one voice
// for every transport, and what the terminal says differently is a list
// of keys here, with its translations beside the others'.

// rewording replaces the message from with to, filled with the values
// read back; add gives to's further values (a "did you mean"), from the
// values read and the terminal.
type rewording struct {
	from, to string
	add      func(t *Terminal, values map[string]string) []any
}

var ownWords = []rewording{
	{from: "setup.choose", to: "term.setup_choose"},
	{from: "game.setup_first", to: "term.setup_first"},
	{from: "stale.turn", to: "term.stale"},
	{from: "stale.game", to: "term.stale"},
	{from: "stale.unknown", to: "term.stale"},
	{from: "claim.bad_route", to: "term.bad_route", add: func(t *Terminal, v map[string]string) []any {
		return []any{"did_you_mean", t.didYouMean(t.suggestRoute(v["route"]))}
	}},
	{from: "error.bad_city", to: "term.bad_city", add: func(t *Terminal, v map[string]string) []any {
		return []any{"did_you_mean", t.didYouMean(t.suggestCity(v["city"]))}
	}},
	{from: "error.bad_color", to: "term.bad_color", add: func(t *Terminal, v map[string]string) []any {
		return []any{"did_you_mean", t.didYouMean(t.suggestColor(v["color"]))}
	}},
	{from: "draw.bad_card", to: "term.bad_card", add: func(t *Terminal, v map[string]string) []any {
		return []any{"did_you_mean", t.didYouMean(t.suggestCard(v["card"]))}
	}},
	// No list of topics to pick from: how to type one, the last for example.
	{from: "rules.footer", to: "term.rules_footer", add: func(_ *Terminal, v map[string]string) []any {
		topics := strings.Split(v["topics"], ", ")
		return []any{"example", topics[len(topics)-1]}
	}},
}

// inOwnWords is m with the shared messages the terminal says otherwise
// replaced by its own.
func (t *Terminal) inOwnWords(m commands.Message) commands.Message {
	m.Content = t.reword(m.Content)
	if len(m.Embeds) > 0 {
		embeds := make([]commands.Embed, len(m.Embeds))
		for i, e := range m.Embeds {
			e.Title, e.Description, e.Footer = t.reword(e.Title), t.reword(e.Description), t.reword(e.Footer)
			if len(e.Fields) > 0 {
				fields := make([]commands.Field, len(e.Fields))
				for j, f := range e.Fields {
					f.Name, f.Value = t.reword(f.Name), t.reword(f.Value)
					fields[j] = f
				}
				e.Fields = fields
			}
			embeds[i] = e
		}
		m.Embeds = embeds
	}
	return m
}

// reword replaces, in one text, every shared message of ownWords it holds.
func (t *Terminal) reword(text string) string {
	if text == "" {
		return text
	}
	for _, w := range ownWords {
		found := present.FindMessage(t.Locale, w.from, text)
		for i := len(found) - 1; i >= 0; i-- {
			f := found[i]
			var kv []any
			if w.add != nil {
				kv = w.add(t, f.Values) // before the values read: T takes a name's first value
			}
			for name, v := range f.Values {
				kv = append(kv, name, v)
			}
			text = text[:f.Start] + present.T(t.Locale, w.to, kv...) + text[f.End:]
		}
	}
	return text
}

// didYouMean is " Did you mean …?" in the terminal's language, or "" when
// there is nothing to suggest.
func (t *Terminal) didYouMean(name string) string { return didYouMean(t.Locale, name) }

// hiddenControls are the kinds of button the terminal leaves out: a
// lobby's (the seats are chosen on the command line), the finished game's
// replay and rematch (run the command again), the live page's, and the
// first tickets' (the terminal opens them for each player itself).
var hiddenControls = []string{"lobby", "replay", "rematch", "activity", "setup"}

// usable is m with only the controls the terminal can work; none while
// watching bots play.
func (t *Terminal) usable(m commands.Message) commands.Message {
	if len(m.Components) == 0 {
		return m
	}
	var rows []commands.Row
	for _, row := range m.Components {
		var kept commands.Row
		for _, c := range row {
			kind, _, _ := strings.Cut(c.ID, ":")
			if t.Watch || slices.Contains(hiddenControls, kind) {
				continue
			}
			kept = append(kept, c)
		}
		if len(kept) > 0 {
			rows = append(rows, kept)
		}
	}
	m.Components = rows
	return m
}
