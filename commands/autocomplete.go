package commands

import (
	"sort"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

const maxChoices = 25

// autocomplete suggests values for the option being typed.
func (s *Service) autocomplete(req *Request, resp Responder) error {
	typed := data.Fold(req.Opt(req.Focused))
	var choices []Choice
	add := func(name, value string) {
		if len(choices) < maxChoices && (typed == "" || strings.Contains(data.Fold(name), typed)) {
			if len(name) > 100 {
				name = name[:100]
			}
			choices = append(choices, Choice{Name: name, Value: value})
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
				add(l, l)
			}
		case "seat":
			// Read from the store: autocomplete never waits for a table.
			if rec, err := s.cfg.Store.Get(req.Channel); err == nil {
				seatChoices(rec, add)
			}
		}
		return resp.Choices(choices)
	}
	t, err := s.table(req.Channel)
	if err != nil {
		return resp.Choices(nil)
	}
	defer t.mu.Unlock()
	if t.game == nil {
		return resp.Choices(nil)
	}
	g := t.game
	b := g.Board()
	seat := seatOf(t.rec, req.User)
	switch req.Name + "/" + req.Focused {
	case "claim/route":
		var tracks []data.TrackID
		if seat >= 0 && g.Current() == seat {
			seen := map[data.TrackID]bool{}
			for _, a := range g.LegalActions(seat, nil) {
				if a.Kind == engine.ActClaim && !seen[a.Track] {
					seen[a.Track] = true
					tracks = append(tracks, a.Track)
				}
			}
		}
		if len(tracks) == 0 {
			// Not the player's turn, or nothing affordable: list the free tracks.
			for i := range b.Tracks {
				if g.Owner(data.TrackID(i)) < 0 {
					tracks = append(tracks, data.TrackID(i))
				}
			}
		}
		sort.Slice(tracks, func(i, j int) bool {
			li, lj := b.Tracks[tracks[i]].Length, b.Tracks[tracks[j]].Length
			if li != lj {
				return li > lj
			}
			return present.RouteName(b, tracks[i]) < present.RouteName(b, tracks[j])
		})
		for _, id := range tracks {
			add(present.RouteLabel(req.Locale, b, id), engine.TrackRef(b, id))
		}
	case "claim/color", "station/color":
		for _, c := range data.CardColors {
			label := present.CardName(req.Locale, engine.ColorCard(c))
			if seat >= 0 {
				label += " (" + strconv.Itoa(g.Player(seat).Hand[engine.ColorCard(c)]) + ")"
			}
			add(label, c.String())
		}
	case "claim/passenger":
		if tr, ok := findTrack(b, req.Opt("route")); ok {
			for _, c := range []data.CityID{b.Tracks[tr].A, b.Tracks[tr].B} {
				if !b.Cities[c].Country && g.PassengerAt(c) < 0 {
					add(b.Cities[c].Name, b.Cities[c].Name)
				}
			}
		}
	case "station/city":
		for i, c := range b.Cities {
			if !c.Country && g.StationAt(data.CityID(i)) < 0 {
				add(c.Name, c.Name)
			}
		}
	case "passenger/from":
		for i, c := range b.Cities {
			if seat >= 0 && g.PassengerAt(data.CityID(i)) == seat {
				add(c.Name, c.Name)
			}
		}
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
				add(strconv.Itoa(i+1)+": "+present.CardName(req.Locale, c), strconv.Itoa(i+1))
			}
		}
	case "tickets/long":
		if mix, n := g.NeedsMix(seat); mix {
			for l := 0; l <= n; l++ {
				add(present.T(req.Locale, "button.mix", "long", l, "short", n-l), strconv.Itoa(l))
			}
		}
	}
	return resp.Choices(choices)
}
