package commands

import (
	"slices"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// Suggestions a player can take: /claim, /station and /passenger offer
// what the asker may legally do now, as the engine lists it
// (g.LegalActions). When nothing is, the first line says so and what
// follows is the nearest, each line saying what it lacks; those lines
// carry a value starting with notYet, so that choosing one answers with an
// explanation (suggestionAnswer) rather than a refusal of the rules.

// notYet starts the value of a suggestion that cannot be played now: the
// first line of a list that says nothing can ("?"), or the nearest route
// or city, named after it ("?Paris|Frankfurt|white").
const notYet = "?"

// routeSuggestion is a line of /claim's list: a route, or both tracks of a
// double route offered together (either may be paid, as the rules allow).
type routeSuggestion struct {
	ids         []data.TrackID
	legal       bool // claimable now (or, off turn, with the hand held)
	serves      bool // on the cheapest path of a ticket not yet joined
	short       int  // cards missing to pay it
	trainsShort bool // too few trains left
}

// servingTracks marks the free tracks on the cheapest paths of the seat's
// tickets not yet joined, read from the seat's own view only.
func servingTracks(g *engine.Game, seat int) []bool {
	out := make([]bool, len(g.Board().Tracks))
	v := g.View(seat)
	for _, t := range readRoutes(&v).needed(-1) {
		out[t] = true
	}
	return out
}

// claimChoices suggests routes for /claim. On the asker's turn: the routes
// the engine lets them claim now, a double route's two tracks as one line
// when both are; those serving their tickets first, then the longest. When
// none is claimable, or off turn, the first line says why and the routes
// that follow are the nearest: free, not closed by a twin, those serving
// the tickets first, then the fewest cards short, each saying what it
// lacks. A taken route or a twin the rules close is never offered.
func claimChoices(g *engine.Game, seat int, labels []routeLabel, typed, loc string, names func(int) string) []Choice {
	if seat < 0 {
		return []Choice{{Name: cutRunes(present.T(loc, "suggest.not_seated"), maxChoiceLen), Value: notYet}}
	}
	b := g.Board()
	myTurn := g.Current() == seat && g.Phase() == engine.PhaseTurn
	legal := make([]bool, len(b.Tracks))
	anyLegal := false
	if myTurn {
		// The tracks LegalActions would list claims of, without listing
		// every payment of each.
		for _, t := range g.AppendClaimable(seat, nil) {
			legal[t], anyLegal = true, true
		}
	} else {
		// Off turn: what the hand held could claim, offered as the routes
		// of the seat's next turn (the command says whose turn it is).
		for i := range b.Tracks {
			legal[i] = g.CanClaim(seat, data.TrackID(i))
		}
	}
	header, only := suggestionHeader(g, seat, myTurn, anyLegal, loc, "suggest.claim.not_turn", names, func() string { return present.T(loc, "suggest.claim.none") })
	if only != nil {
		return only
	}
	serves := servingTracks(g, seat)
	seen := make([]bool, len(b.Tracks))
	var now, near []routeSuggestion
	for i := range b.Tracks {
		if seen[i] {
			continue
		}
		group := []data.TrackID{data.TrackID(i)}
		if p := b.Parallel(data.TrackID(i)); len(p) > 1 {
			group = p
		}
		var ok, open []data.TrackID
		match := typed == ""
		for _, id := range group {
			seen[id] = true
			match = match || strings.Contains(labels[id].folded, typed)
		}
		if !match {
			continue
		}
		for _, id := range group {
			switch {
			case legal[id]:
				ok = append(ok, id)
			case g.ClaimFree(seat, id):
				open = append(open, id)
			}
		}
		if len(ok) > 0 {
			sg := routeSuggestion{ids: ok, legal: true}
			for _, id := range ok {
				sg.serves = sg.serves || serves[id]
			}
			now = append(now, sg)
			continue
		}
		if len(open) == 0 || myTurn && anyLegal {
			continue
		}
		sg := routeSuggestion{ids: open, short: -1}
		for _, id := range open {
			sg.serves = sg.serves || serves[id]
			n, trains := shortOf(g, seat, id)
			if sg.short < 0 || n < sg.short {
				sg.short = n
			}
			sg.trainsShort = trains
		}
		if sg.short == 0 && !sg.trainsShort {
			continue // nothing it lacks can be said
		}
		near = append(near, sg)
	}
	length := func(s routeSuggestion) int { return b.Tracks[s.ids[0]].Length }
	label := func(s routeSuggestion) string { return labels[s.ids[0]].label }
	slices.SortFunc(now, func(x, y routeSuggestion) int {
		if x.serves != y.serves {
			return boolFirst(x.serves)
		}
		if length(x) != length(y) {
			return length(y) - length(x)
		}
		return strings.Compare(label(x), label(y))
	})
	slices.SortFunc(near, func(x, y routeSuggestion) int {
		if x.trainsShort != y.trainsShort {
			return boolFirst(!x.trainsShort)
		}
		if x.serves != y.serves {
			return boolFirst(x.serves)
		}
		if x.short != y.short {
			return x.short - y.short
		}
		if length(x) != length(y) {
			return length(y) - length(x)
		}
		return strings.Compare(label(x), label(y))
	})
	var out []Choice
	if header != "" {
		out = append(out, Choice{Name: cutRunes(header, maxChoiceLen), Value: notYet})
	}
	for _, sg := range append(now, near...) {
		if len(out) == maxChoices {
			break
		}
		name := suggestionLabel(loc, b, labels, sg.ids)
		value := suggestionRef(b, sg.ids)
		if !sg.legal {
			value = notYet + value
			if sg.trainsShort {
				name = present.T(loc, "claim.trains_short", "route", name)
			} else {
				name = present.T(loc, "claim.short", "route", name, "n", sg.short)
			}
		}
		out = append(out, Choice{Name: cutRunes(name, maxChoiceLen), Value: value})
	}
	return out
}

// boolFirst orders true before false in a sort.
func boolFirst(x bool) int {
	if x {
		return -1
	}
	return 1
}

// suggestionLabel is a line's route: one track's label, or a double's
// with both colours ("Kansas City – Saint Louis (blue / pink 2)", "Atlanta
// – Raleigh (gray 2 ×2)").
func suggestionLabel(loc string, b *data.Board, labels []routeLabel, ids []data.TrackID) string {
	if len(ids) == 1 {
		return labels[ids[0]].label
	}
	var colours []string
	for _, id := range ids {
		c := present.T(loc, "engine.part.gray")
		if col := b.Tracks[id].Color; col != data.Gray {
			c = present.T(loc, "card."+col.String())
		}
		if !slices.Contains(colours, c) {
			colours = append(colours, c)
		}
	}
	l, _, _ := strings.Cut(labels[ids[0]].label, " (")
	tr := &b.Tracks[ids[0]]
	size := present.Number(loc, tr.Length)
	if len(colours) == 1 {
		size += " ×" + present.Number(loc, len(ids))
	}
	kind := ""
	switch {
	case tr.Tunnel:
		kind = " " + present.T(loc, "engine.part.tunnel")
	case tr.Locomotives > 0:
		kind = " " + present.T(loc, "engine.part.ferry")
	}
	return l + " (" + strings.Join(colours, " / ") + " " + size + kind + ")"
}

// suggestionRef is a line's value: the track's notation, or for both tracks
// of a double the route's cities alone ("Atlanta|Raleigh"), which /claim
// reads as "either track, paid as the player chooses".
func suggestionRef(b *data.Board, ids []data.TrackID) string {
	if len(ids) == 1 {
		return engine.TrackRef(b, ids[0])
	}
	tr := &b.Tracks[ids[0]]
	return b.Cities[tr.A].Name + "|" + b.Cities[tr.B].Name
}

// eitherTrack resolves a route named by its cities alone, as a merged
// double's suggestion sends it: the tracks of the double seat may claim
// now, or nil when the value names one track or none is claimable.
func eitherTrack(g *engine.Game, seat int, value string) []data.TrackID {
	b := g.Board()
	if strings.Count(value, "|") != 1 {
		return nil
	}
	id, err := engine.ParseTrackRef(b, value)
	if err != nil {
		return nil
	}
	var out []data.TrackID
	for _, t := range b.Parallel(id) {
		if g.CanClaim(seat, t) {
			out = append(out, t)
		}
	}
	return out
}

// claimEither claims one track of a double route named by its cities: the
// one the player can pay, or, when both can be paid, the player chooses
// how (each colour paying its own track).
func (tn turn) claimEither(ids []data.TrackID, pay payChoice, passenger string) (response, error) {
	if len(ids) == 1 || pay != (payChoice{}) {
		return tn.claim(ids[0], pay, passenger)
	}
	g, loc := tn.t.game, tn.req.Locale
	b := g.Board()
	var opts []engine.Action
	for _, id := range ids {
		a := engine.Action{Kind: engine.ActClaim, Track: id}
		if passenger != "" {
			c, ok := b.FindCity(passenger)
			if !ok {
				return reply(note(present.T(loc, "error.bad_city", "city", passenger)))
			}
			a.Passenger, a.City = true, c
		}
		var own []engine.Action
		if b.Tracks[id].Color == data.Gray {
			own = payOptions(g, tn.seat, a)
		} else if pa, msg := payWith(g, tn.seat, id, b.Tracks[id].Length, "", "", loc); msg == "" {
			pa.Kind, pa.Track, pa.Passenger, pa.City = a.Kind, a.Track, a.Passenger, a.City
			if g.Clone().Play(tn.seat, pa) == nil {
				own = []engine.Action{pa}
			}
		}
		for _, o := range own {
			if !slices.ContainsFunc(opts, func(x engine.Action) bool { return x.Color == o.Color }) {
				opts = append(opts, o)
			}
		}
	}
	switch len(opts) {
	case 0:
		return tn.claim(ids[0], pay, passenger)
	case 1:
		return tn.confirm(opts[0])
	}
	t := tn.t
	t.pending[tn.req.User] = pendingAction{action: opts[0], turn: g.Turn(), pay: true, opts: opts}
	m := t.controls().paymentPrompt(loc, opts[0], opts)
	// The question names the route with both colours: each button claims
	// the track of its colour.
	m.Content = present.T(loc, "pay.ask", "action", suggestionLabel(loc, b, routeLabels(b, loc), ids))
	return reply(m)
}

// playableNow is value without its notYet mark when what it names has
// become playable since it was suggested (cards drawn meanwhile): the
// command then plays it. Otherwise value is returned as it is.
func (tn turn) playableNow(command, value string) string {
	g, seat := tn.t.game, tn.seat
	rest, ok := strings.CutPrefix(value, notYet)
	if !ok || rest == "" || g.Phase() != engine.PhaseTurn || g.Current() != seat {
		return value
	}
	b := g.Board()
	switch command {
	case "claim":
		if id, err := engine.ParseTrackRef(b, rest); err == nil {
			for _, t := range b.Parallel(id) {
				if g.CanClaim(seat, t) {
					return rest
				}
			}
		}
	case "station", "passenger":
		c, ok := b.FindCity(rest)
		if !ok {
			return value
		}
		for _, a := range g.LegalActions(seat, nil) {
			if a.City == c && (command == "station" && a.Kind == engine.ActStation || command == "passenger" && a.Kind == engine.ActMovePassenger) {
				return rest
			}
		}
	}
	return value
}

// suggestionAnswer answers a command sent with a suggestion that cannot be
// played now (a value starting with notYet): what it lacks and what the
// player can do instead, kindly; ok is false for any other value.
func (tn turn) suggestionAnswer(command, value string) (response, bool) {
	if !strings.HasPrefix(value, notYet) {
		return response{}, false
	}
	g, loc, seat := tn.t.game, tn.req.Locale, tn.seat
	b := g.Board()
	rest := strings.TrimPrefix(value, notYet)
	var text string
	switch command {
	case "claim":
		text = present.T(loc, "suggest.claim.nothing")
		if id, err := engine.ParseTrackRef(b, rest); err == nil && rest != "" {
			ids := []data.TrackID{id}
			if strings.Count(rest, "|") == 1 {
				ids = b.Parallel(id)
			}
			short, trains := -1, false
			for _, t := range ids {
				if !g.ClaimFree(seat, t) {
					continue
				}
				n, tr := shortOf(g, seat, t)
				if short < 0 || n < short {
					short, trains = n, tr
				}
			}
			route := present.RouteLabel(loc, b, id)
			switch {
			case short < 0:
				text = present.T(loc, "suggest.claim.closed", "route", route)
			case trains:
				text = present.T(loc, "suggest.claim.later_trains", "route", route)
			default:
				text = present.T(loc, "suggest.claim.later", "route", route, "n", max(short, 1))
			}
		}
	case "station":
		text = stationLack(g, seat, loc)
	case "passenger":
		text = present.T(loc, "suggest.passenger.nothing")
	}
	r, _ := reply(note(text))
	return r, true
}

// suggestionHeader is what a list of suggestions opens with: only a line
// when the asker cannot act at all now (the game over, the tickets still
// being chosen, a move of theirs waiting), or a first line over the
// suggestions when it is another's turn (notTurnKey) or nothing is legal
// (none's text); "" when the suggestions speak for themselves.
func suggestionHeader(g *engine.Game, seat int, myTurn, anyLegal bool, loc, notTurnKey string, names func(int) string, none func() string) (header string, only []Choice) {
	line := func(text string) []Choice { return []Choice{{Name: cutRunes(text, maxChoiceLen), Value: notYet}} }
	switch {
	case g.Phase() == engine.PhaseOver:
		return "", line(present.T(loc, "game.over"))
	case g.Phase() == engine.PhaseSetup:
		return "", line(present.T(loc, "suggest.setup"))
	case g.Current() != seat:
		return present.T(loc, notTurnKey, "player", names(g.Current())), nil
	case !myTurn:
		return "", line(present.T(loc, "suggest.busy"))
	case !anyLegal:
		return none(), nil
	}
	return "", nil
}

// stationLack says why seat can build no station now.
func stationLack(g *engine.Game, seat int, loc string) string {
	p := g.Player(seat)
	if g.Board().Rules.Stations == 0 {
		return present.T(loc, "suggest.station.no_stations")
	}
	if p.Stations == 0 {
		return present.T(loc, "suggest.station.none_left")
	}
	return present.T(loc, "suggest.station.short", "n", g.StationCost(seat))
}

// stationChoices suggests cities for /station: on the asker's turn, the
// cities the engine lets them build in now, the ends of their tickets not
// yet joined first, then the cities their tracks reach; else a first line
// saying why not, and the free cities after it, each marked as not yet.
func stationChoices(g *engine.Game, seat int, typed, loc string, names func(int) string) []Choice {
	b := g.Board()
	if seat < 0 {
		return []Choice{{Name: cutRunes(present.T(loc, "suggest.not_seated"), maxChoiceLen), Value: notYet}}
	}
	myTurn := g.Current() == seat && g.Phase() == engine.PhaseTurn
	legal := make([]bool, len(b.Cities))
	anyLegal := false
	if myTurn {
		for _, a := range g.LegalActions(seat, nil) {
			if a.Kind == engine.ActStation {
				legal[a.City], anyLegal = true, true
			}
		}
	}
	if b.Rules.Stations == 0 || g.Player(seat).Stations == 0 {
		return []Choice{{Name: cutRunes(stationLack(g, seat, loc), maxChoiceLen), Value: notYet}}
	}
	header, only := suggestionHeader(g, seat, myTurn, anyLegal, loc, "suggest.station.not_turn", names, func() string { return stationLack(g, seat, loc) })
	if only != nil {
		return only
	}
	// Ranks: 2 for an end of a ticket not yet joined, 1 for a city the
	// seat's tracks reach, 0 for the rest.
	rank := make([]int, len(b.Cities))
	for t := range b.Tracks {
		if g.Owner(data.TrackID(t)) == seat {
			rank[b.Tracks[t].A], rank[b.Tracks[t].B] = 1, 1
		}
	}
	v := g.View(seat)
	for _, ts := range v.Tickets {
		if !ts.Completed {
			tk := &b.Tickets[ts.Ticket]
			rank[tk.A], rank[tk.B] = 2, 2
		}
	}
	var cities []data.CityID
	for i, c := range b.Cities {
		id := data.CityID(i)
		if c.Country || g.StationAt(id) >= 0 || (anyLegal && !legal[id]) {
			continue
		}
		if typed != "" && !strings.Contains(data.Fold(c.Name), typed) {
			continue
		}
		cities = append(cities, id)
	}
	slices.SortFunc(cities, func(x, y data.CityID) int {
		if rank[x] != rank[y] {
			return rank[y] - rank[x]
		}
		return strings.Compare(b.Cities[x].Name, b.Cities[y].Name)
	})
	return cityChoices(b, header, cities, func(data.CityID) bool { return anyLegal })
}

// passengerChoices suggests the cities to move a passenger from: those
// whose passenger the engine lets the seat move now; else a first line
// saying none can, and the seat's passengers after it, marked not yet.
func passengerChoices(g *engine.Game, seat int, typed, loc string, names func(int) string) []Choice {
	b := g.Board()
	if seat < 0 {
		return []Choice{{Name: cutRunes(present.T(loc, "suggest.not_seated"), maxChoiceLen), Value: notYet}}
	}
	if !b.Rules.HasPassengers() {
		return []Choice{{Name: cutRunes(present.T(loc, "passenger.none_here"), maxChoiceLen), Value: notYet}}
	}
	myTurn := g.Current() == seat && g.Phase() == engine.PhaseTurn
	legal := map[data.CityID]bool{}
	if myTurn {
		for _, a := range g.LegalActions(seat, nil) {
			if a.Kind == engine.ActMovePassenger {
				legal[a.City] = true
			}
		}
	}
	header, only := suggestionHeader(g, seat, myTurn, len(legal) > 0, loc, "suggest.passenger.not_turn", names, func() string { return present.T(loc, "suggest.passenger.none") })
	if only != nil {
		return only
	}
	// The passengers whose best trip scores most first.
	var from []data.CityID
	points := map[data.CityID]int{}
	for i, c := range b.Cities {
		id := data.CityID(i)
		if g.PassengerAt(id) != seat || (len(legal) > 0 && !legal[id]) {
			continue
		}
		if typed != "" && !strings.Contains(data.Fold(c.Name), typed) {
			continue
		}
		if legal[id] {
			if trips := g.BestTrips(seat, id); len(trips) > 0 {
				points[id] = trips[len(trips)-1].Points
			}
		}
		from = append(from, id)
	}
	slices.SortStableFunc(from, func(x, y data.CityID) int { return points[y] - points[x] })
	return cityChoices(b, header, from, func(id data.CityID) bool { return legal[id] })
}

// cityChoices lists cities as suggestions, after a header line when there
// is one; a city the seat may not choose now is marked not yet.
func cityChoices(b *data.Board, header string, cities []data.CityID, legal func(data.CityID) bool) []Choice {
	var out []Choice
	if header != "" {
		out = append(out, Choice{Name: cutRunes(header, maxChoiceLen), Value: notYet})
	}
	for _, id := range cities {
		if len(out) == maxChoices {
			break
		}
		name, value := b.Cities[id].Name, b.Cities[id].Name
		if !legal(id) {
			value = notYet + value
		}
		out = append(out, Choice{Name: cutRunes(name, maxChoiceLen), Value: value})
	}
	return out
}
