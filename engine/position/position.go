// Package position reads the end-of-game positions people type for
// `conductor score` and `conductor render`: a command-line input format,
// kept out of the rules core.
package position

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"

	"conductor/data"
	"conductor/engine"
)

// Position is an end-of-game position written by a person, as read by
// `conductor score` and `conductor render`.
type Position struct {
	Board   *data.Board
	Players []engine.Holding // in seat order
	FaceUp  []string         // face-up cards as given (checked card names), for drawing
}

// Example shows the position format; error messages point to it.
const Example = `{"map":"europe","players":[{"name":"A","routes":[["Paris","Frankfurt","white"]],` +
	`"stations":["Sarajevo"],"tickets":[["Budapest","Sofia"]],"goods":0}]}`

type positionFile struct {
	Map     string       `json:"map"`
	FaceUp  []string     `json:"face_up"`
	Players []playerFile `json:"players"`
}

type playerFile struct {
	Name     string   `json:"name"`
	Routes   [][]any  `json:"routes"`
	Stations []string `json:"stations"`
	Tickets  [][]any  `json:"tickets"`
	Goods    int      `json:"goods"`
}

// Parse reads a position in JSON (see Example): the map, and
// for each player the routes as printed ([end, end, colour]), the stations,
// the tickets ([end, end] or [end, end, points]) and the goods points.
// Errors say what is wrong and what would work.
func Parse(cat *data.Catalog, src []byte) (*Position, error) {
	var f positionFile
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return nil, fmt.Errorf("position: %q should be %s, not a JSON %s; a position looks like %s",
				typeErr.Field, kindName(typeErr.Type), typeErr.Value, Example)
		}
		return nil, fmt.Errorf("position is not valid JSON of the expected shape (%v); it looks like %s", err, Example)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("position: unexpected data after the JSON object; give one position")
	}
	if strings.TrimSpace(f.Map) == "" {
		return nil, fmt.Errorf(`position: no "map" (one of %s)`, strings.Join(cat.IDs(), ", "))
	}
	b, err := cat.Board(strings.ToLower(strings.TrimSpace(f.Map)))
	if err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	if n := len(f.Players); n == 0 || n > engine.MaxPlayers {
		return nil, fmt.Errorf("position: %d players; give 1 to %d", n, engine.MaxPlayers)
	}
	p := &positionParser{b: b, pos: &Position{Board: b}, holder: make([]int, len(b.Tracks)), station: map[data.CityID]int{}}
	for i := range p.holder {
		p.holder[i] = -1
	}
	for i := range f.Players {
		if err := p.player(i, &f.Players[i], f.Players); err != nil {
			return nil, err
		}
	}
	if err := p.doubleRoutes(); err != nil {
		return nil, err
	}
	if err := p.faceUp(f.FaceUp); err != nil {
		return nil, err
	}
	return p.pos, nil
}

type positionParser struct {
	b       *data.Board
	pos     *Position
	holder  []int               // by TrackID: the player holding it, -1 for nobody
	station map[data.CityID]int // city -> player with a station there
}

func (p *positionParser) player(i int, pf *playerFile, all []playerFile) error {
	b := p.b
	name := strings.TrimSpace(pf.Name)
	if name == "" {
		return fmt.Errorf("position: player %d has no name; give each player a \"name\"", i+1)
	}
	for j := range i {
		if strings.EqualFold(strings.TrimSpace(all[j].Name), name) {
			return fmt.Errorf("position: two players are named %q; give each player a different name", name)
		}
	}
	h := engine.Holding{Name: name, Goods: pf.Goods}
	where := fmt.Sprintf("player %q", name)

	switch {
	case pf.Goods != 0 && b.Rules.Passengers == 0:
		return fmt.Errorf("%s: goods %d, but the %s board has no goods (only marklin does); leave \"goods\" out", where, pf.Goods, b.ID)
	case pf.Goods < 0:
		return fmt.Errorf("%s: goods %d; goods points are 0 or more", where, pf.Goods)
	}

	for k, r := range pf.Routes {
		t, err := p.route(i, r)
		if err != nil {
			return fmt.Errorf("%s, route %d: %w", where, k+1, err)
		}
		p.holder[t] = i
		h.Tracks = append(h.Tracks, t)
	}
	trains := 0
	for _, t := range h.Tracks {
		trains += b.Tracks[t].Length
	}
	if trains > b.Rules.Trains {
		return fmt.Errorf("%s: the routes use %d trains, but a player has only %d", where, trains, b.Rules.Trains)
	}

	if len(pf.Stations) > 0 && b.Rules.Stations == 0 {
		return fmt.Errorf("%s: the %s board has no stations (only europe does); leave \"stations\" out", where, b.ID)
	}
	if len(pf.Stations) > b.Rules.Stations {
		return fmt.Errorf("%s: %d stations, but a player has only %d", where, len(pf.Stations), b.Rules.Stations)
	}
	for _, s := range pf.Stations {
		c, err := p.city(s)
		if err != nil {
			return fmt.Errorf("%s, station: %w", where, err)
		}
		if b.Cities[c].Country {
			return fmt.Errorf("%s, station: %s is a country; stations go on cities", where, b.Cities[c].Name)
		}
		if other, dup := p.station[c]; dup {
			return fmt.Errorf("%s, station: %s already has a station (of %s); a city holds one station at most",
				where, b.Cities[c].Name, p.name(other, i))
		}
		p.station[c] = i
		h.Stations = append(h.Stations, c)
	}

	for k, raw := range pf.Tickets {
		tk, err := p.ticket(raw)
		if err != nil {
			return fmt.Errorf("%s, ticket %d: %w", where, k+1, err)
		}
		h.Tickets = append(h.Tickets, tk)
	}
	p.pos.Players = append(p.pos.Players, h)
	return nil
}

// route resolves [end, end, colour] to a track nobody holds yet.
func (p *positionParser) route(player int, r []any) (data.TrackID, error) {
	b := p.b
	if len(r) != 3 {
		return 0, fmt.Errorf(`a route is ["city", "city", "colour"], got %s`, jsonText(r))
	}
	names, ok := strings3(r)
	if !ok {
		return 0, fmt.Errorf(`a route is three strings ["city", "city", "colour"], got %s`, jsonText(r))
	}
	a, err := p.city(names[0])
	if err != nil {
		return 0, err
	}
	c, err := p.city(names[1])
	if err != nil {
		return 0, err
	}
	col, err := data.ParseColor(strings.ToLower(strings.TrimSpace(names[2])))
	if err != nil {
		return 0, err
	}
	var between, matching []data.TrackID
	for _, t := range b.Adj[a] {
		if b.Tracks[t].Other(a) == c {
			between = append(between, t)
			if b.Tracks[t].Color == col {
				matching = append(matching, t)
			}
		}
	}
	an, cn := b.Cities[a].Name, b.Cities[c].Name
	switch {
	case len(between) == 0:
		return 0, fmt.Errorf("no route between %s and %s on the %s board (%s)", an, cn, b.ID, p.neighbours(a))
	case len(matching) == 0:
		return 0, fmt.Errorf("no %s route between %s and %s (there: %s)", col, an, cn, colours(b, between))
	}
	for _, t := range matching {
		if p.holder[t] < 0 {
			return t, nil
		}
	}
	if len(matching) == 1 {
		return 0, fmt.Errorf("%s – %s (%s) is already held by %s; a track has one owner",
			an, cn, col, p.name(p.holder[matching[0]], player))
	}
	return 0, fmt.Errorf("every %s track between %s and %s is already held; a track has one owner", col, an, cn)
}

// name names player i for a message; the player being read (current) is
// not in pos.Players yet.
func (p *positionParser) name(i, current int) string {
	if i == current {
		return "this player"
	}
	return fmt.Sprintf("%q", p.pos.Players[i].Name)
}

// neighbours lists where a city's routes go, to help fix a wrong route.
func (p *positionParser) neighbours(c data.CityID) string {
	b := p.b
	var names []string
	for _, t := range b.Adj[c] {
		if n := b.Cities[b.Tracks[t].Other(c)].Name; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return b.Cities[c].Name + "'s routes go to " + strings.Join(names, ", ")
}

func colours(b *data.Board, tracks []data.TrackID) string {
	var s []string
	for _, t := range tracks {
		s = append(s, b.Tracks[t].Color.String())
	}
	return strings.Join(s, ", ")
}

// city resolves a typed name, suggesting the closest one when it is wrong.
func (p *positionParser) city(name string) (data.CityID, error) {
	b := p.b
	if c, ok := b.FindCity(strings.TrimSpace(name)); ok {
		return c, nil
	}
	if s := b.Suggest(name); s != "" {
		return 0, fmt.Errorf("unknown city %q on the %s board (did you mean %q?)", name, b.ID, s)
	}
	return 0, fmt.Errorf("unknown city %q on the %s board (`conductor maps -map %s` lists them)", name, b.ID, b.ID)
}

// ticket resolves [end, end] (points from the board's tickets) or [end, end, points].
func (p *positionParser) ticket(r []any) (engine.HeldTicket, error) {
	b := p.b
	if len(r) != 2 && len(r) != 3 {
		return engine.HeldTicket{}, fmt.Errorf(`a ticket is ["city", "city"] or ["city", "city", points], got %s`, jsonText(r))
	}
	ends := make([]string, 2)
	for i := range ends {
		s, ok := r[i].(string)
		if !ok {
			return engine.HeldTicket{}, fmt.Errorf(`a ticket is ["city", "city"] or ["city", "city", points], got %s`, jsonText(r))
		}
		ends[i] = s
	}
	a, err := p.city(ends[0])
	if err != nil {
		return engine.HeldTicket{}, err
	}
	c, err := p.city(ends[1])
	if err != nil {
		return engine.HeldTicket{}, err
	}
	an, cn := b.Cities[a].Name, b.Cities[c].Name
	if a == c {
		return engine.HeldTicket{}, fmt.Errorf("a ticket joins two different places, got %s twice", an)
	}
	if len(r) == 3 {
		v, ok := r[2].(float64)
		if !ok || v != math.Trunc(v) || v < 1 || v > 1000 {
			return engine.HeldTicket{}, fmt.Errorf("ticket %s – %s: points must be a whole number from 1 to 1000, got %s", an, cn, jsonText(r[2]))
		}
		return engine.HeldTicket{A: a, B: c, Points: int(v)}, nil
	}
	var values []int
	for _, t := range b.Tickets {
		if (t.A == a && t.B == c || t.A == c && t.B == a) && !slices.Contains(values, t.Points) {
			values = append(values, t.Points)
		}
	}
	switch len(values) {
	case 0:
		return engine.HeldTicket{}, fmt.Errorf("the %s board has no ticket %s – %s; give its points: [%q, %q, points]", b.ID, an, cn, an, cn)
	case 1:
		return engine.HeldTicket{A: a, B: c, Points: values[0]}, nil
	}
	return engine.HeldTicket{}, fmt.Errorf("the %s board has tickets %s – %s worth %s; say which: [%q, %q, %d]",
		b.ID, an, cn, joinInts(values), an, cn, values[0])
}

// doubleRoutes checks that no player holds two tracks of one double or
// triple route, and that with 2 or 3 players only one track of each is held.
func (p *positionParser) doubleRoutes() error {
	b := p.b
	few := len(p.pos.Players) <= 3
	for _, g := range b.Groups {
		var owners []int
		for _, t := range g {
			if o := p.holder[t]; o >= 0 {
				if slices.Contains(owners, o) {
					return fmt.Errorf("player %q holds two tracks of the double route %s; a player may claim only one of them",
						p.pos.Players[o].Name, b.TrackName(t))
				}
				owners = append(owners, o)
			}
		}
		if few && len(owners) > 1 {
			return fmt.Errorf("in a game of %d players only one track of a double route may be claimed, but %s is held by %q and %q",
				len(p.pos.Players), b.TrackName(g[0]), p.pos.Players[owners[0]].Name, p.pos.Players[owners[1]].Name)
		}
	}
	return nil
}

// faceUp checks the face-up card names against the board's deck.
func (p *positionParser) faceUp(cards []string) error {
	b := p.b
	if len(cards) > b.Rules.FaceUp {
		return fmt.Errorf("face_up: %d cards, but the %s board shows %d", len(cards), b.ID, b.Rules.FaceUp)
	}
	for _, s := range cards {
		c, err := engine.ParseCard(strings.ToLower(strings.TrimSpace(s)))
		if err != nil {
			return fmt.Errorf("face_up: %w", err)
		}
		if c == engine.Locomotive4 && b.Rules.Cards.Locomotives4 == 0 || c == engine.Passenger && b.Rules.Cards.Passengers == 0 {
			return fmt.Errorf("face_up: the %s board has no %s cards", b.ID, c)
		}
	}
	p.pos.FaceUp = cards
	return nil
}

// kindName says in words what a JSON value of Go type t looks like.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a " + t.Kind().String()
}

func strings3(r []any) ([3]string, bool) {
	var out [3]string
	for i := range out {
		s, ok := r[i].(string)
		if !ok {
			return out, false
		}
		out[i] = s
	}
	return out, true
}

func jsonText(v any) string {
	src, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(src)
}

func joinInts(list []int) string {
	s := make([]string, len(list))
	for i, v := range list {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, " or ")
}

// WithMap checks the position's "map" against mapID (the --map flag), or
// fills it in when the position has none; "" leaves src as it is.
func WithMap(src []byte, mapID string) ([]byte, error) {
	if mapID == "" {
		return src, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(src, &m); err != nil {
		return nil, fmt.Errorf("the position is not JSON: %v (example: %s)", err, Example)
	}
	if raw, ok := m["map"]; ok {
		var given string
		if json.Unmarshal(raw, &given) == nil && given != mapID {
			return nil, fmt.Errorf("--map %s but the position is on the %s board", mapID, given)
		}
		return src, nil
	}
	m["map"], _ = json.Marshal(mapID)
	return json.Marshal(m)
}
