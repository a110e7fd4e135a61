package commands

import (
	"strconv"
	"strings"
	"sync"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

const (
	maxChoices   = 25
	maxChoiceLen = 100
)

// cutRunes keeps the first n characters of s.
func cutRunes(s string, n int) string { return present.Prefix(s, n) }

// routeLabel is a track's label in one language, folded for matching, and
// its notation.
type routeLabel struct{ label, folded, ref string }

// routeLabelCache holds the labels of every track per board and language:
// they never change, and folding them on every keystroke would cost more
// than everything else autocomplete does.
var routeLabelCache sync.Map // "board/locale" → []routeLabel

func routeLabels(b *data.Board, loc string) []routeLabel {
	key := b.ID + "/" + loc
	if v, ok := routeLabelCache.Load(key); ok {
		return v.([]routeLabel)
	}
	out := make([]routeLabel, len(b.Tracks))
	for i := range b.Tracks {
		id := data.TrackID(i)
		l := present.RouteLabel(loc, b, id)
		if len(l) > maxChoiceLen {
			l = cutRunes(l, maxChoiceLen)
		}
		out[i] = routeLabel{label: l, folded: data.Fold(l), ref: engine.TrackRef(b, id)}
	}
	routeLabelCache.Store(key, out)
	return out
}

// shortOf counts the cards seat lacks to pay route id at its printed cost
// (a tunnel may ask for more), and whether it has too few trains for it.
func shortOf(g *engine.Game, seat int, id data.TrackID) (int, bool) {
	b := g.Board()
	tr := &b.Tracks[id]
	p := g.Player(seat)
	h := p.Hand
	locos := h[engine.Locomotive]
	short := max(0, tr.Locomotives-locos) // a ferry's locomotive spaces
	locos = max(0, locos-tr.Locomotives)
	if b.Rules.Cards.Locomotives4 > 0 && tr.Length >= b.Rules.Locomotive4MinLength {
		locos += h[engine.Locomotive4]
	}
	colour := 0
	if tr.Color != data.Gray {
		colour = h[engine.ColorCard(tr.Color)]
	} else {
		for _, c := range data.CardColors {
			colour = max(colour, h[engine.ColorCard(c)])
		}
	}
	short += max(0, tr.Length-tr.Locomotives-colour-locos)
	return short, p.Trains < tr.Length
}

// snapshot is the channel's table as it last stood, loading it on first
// use; nil when there is none.
func (s *Service) snapshot(channel string) *tableSnapshot {
	if snap, ok := s.mirrored(channel); ok {
		return snap
	}
	t, ok := s.tables.loaded(channel)
	if !ok {
		// Not loaded yet: load it once (the only wait autocomplete makes).
		lt, err := s.tables.get(channel)
		if err != nil {
			return nil
		}
		lt.unlock()
		t = lt
	}
	return t.snap.Load()
}

// autocomplete suggests values for the option being typed.
func (s *Service) autocomplete(req *Request) (response, error) {
	// Anyone in the server can type anything: what is typed is cut to the
	// 100 characters a choice can have, so that no input costs much.
	for k, v := range req.Options {
		req.Options[k] = cutRunes(v, maxChoiceLen)
	}
	typed := data.Fold(req.Opt(req.Focused))
	var choices []Choice
	add := func(name, value string) {
		if len(choices) < maxChoices && (typed == "" || strings.Contains(data.Fold(name), typed)) {
			choices = append(choices, Choice{Name: present.Cut(name, maxChoiceLen), Value: value})
		}
	}
	if req.Name == "ttr" {
		switch req.Focused {
		case "topic":
			for _, t := range RuleTopics {
				add(present.T(req.Locale, "rules.title."+t), t)
			}
		case "map":
			for _, id := range s.cfg.Catalog.IDs() {
				b, _ := s.cfg.Catalog.Board(id)
				add(present.EditionName(req.Locale, b, ""), id)
			}
		case "level":
			for _, l := range s.cfg.BotLevels {
				name := l
				if _, ok := present.Lookup("en", "level."+l); ok {
					name = present.T(req.Locale, "level."+l)
				}
				add(name, l)
			}
		case "variant":
			// The variants of the map chosen so far (USA's by default), by
			// their names in the player's language.
			mapID := req.Opt("map")
			if mapID == "" {
				mapID = "usa"
			}
			if b, err := s.cfg.Catalog.Board(mapID); err == nil {
				for _, v := range b.Variants {
					add(present.VariantName(req.Locale, b, v.ID), v.ID)
				}
			}
		case "seat":
			// Read from the store: autocomplete never waits for a table.
			if rec, err := s.cfg.Store.Header(req.Channel); err == nil {
				seatChoices(req.Locale, rec, add)
			}
		}
		return choose(choices)
	}
	snap := s.snapshot(req.Channel)
	if snap == nil || snap.game == nil {
		return choose(nil)
	}
	g := snap.game
	b := g.Board()
	seat := seatOf(&snap.rec, req.User)
	names := func(s int) string { return seatName(&snap.rec, s) }
	switch req.Name + "/" + req.Focused {
	case "claim/route":
		choices = claimChoices(g, seat, routeLabels(b, req.Locale), typed, req.Locale, names)
	case "claim/color", "station/color":
		for _, c := range data.CardColors {
			label := present.CardName(req.Locale, engine.ColorCard(c))
			if seat >= 0 {
				label += " (" + strconv.Itoa(g.Player(seat).Hand[engine.ColorCard(c)]) + ")"
			}
			add(label, c.String())
		}
	case "claim/passenger":
		// The route as autocomplete itself gave it: nothing else is searched.
		if tr, err := engine.ParseTrackRef(b, req.Opt("route")); err == nil && seat >= 0 && g.Player(seat).PassengersLeft > 0 {
			for _, c := range []data.CityID{b.Tracks[tr].A, b.Tracks[tr].B} {
				if !b.Cities[c].Country && g.PassengerAt(c) < 0 {
					add(b.Cities[c].Name, b.Cities[c].Name)
				}
			}
		}
	case "station/city":
		choices = stationChoices(g, seat, typed, req.Locale, names)
	case "passenger/from":
		choices = passengerChoices(g, seat, typed, req.Locale, names)
	case "passenger/path":
		if from, ok := b.FindCity(req.Opt("from")); ok && seat >= 0 && g.PassengerAt(from) == seat {
			trips := g.BestTrips(seat, from)
			for i := len(trips) - 1; i >= 0; i-- {
				p := pathLabel(b, from, trips[i].Path)
				add(present.T(req.Locale, "passenger.choice", "path", p, "points", trips[i].Points, "cards", trips[i].Cost), strings.ReplaceAll(p, " → ", " > "))
			}
		}
	case "draw/card":
		add(present.T(req.Locale, "word.deck"), "deck")
		for i, c := range g.FaceUp() {
			if c != engine.NoCard {
				add(strconv.Itoa(i+1)+" · "+present.CardName(req.Locale, c), strconv.Itoa(i+1))
			}
		}
	case "tickets/long":
		if mix, n := g.NeedsMix(seat); mix {
			for l := 0; l <= n; l++ {
				add(present.T(req.Locale, "button.mix", "long", l, "short", n-l), strconv.Itoa(l))
			}
		}
	}
	return choose(choices)
}
