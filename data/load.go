package data

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// boardFile is the on-disk shape of a board (data/boards/*.json).
type boardFile struct {
	Board
	Cities  []City        `json:"cities"`
	Routes  []routeFile   `json:"routes"`
	Tickets []ticketEntry `json:"tickets"`
}

type routeFile struct {
	A           string `json:"a"`
	B           string `json:"b"`
	Length      int    `json:"length"`
	Color       Color  `json:"color"`
	Tunnel      bool   `json:"tunnel,omitempty"`
	Locomotives int    `json:"locomotives,omitempty"`
	Area        int    `json:"area,omitempty"`
}

// ticketEntry is a ticket as written in a board file or a deck file.
type ticketEntry struct {
	A         string `json:"a"`
	B         string `json:"b"`
	Points    int    `json:"points"`
	Deck      string `json:"deck"`
	Long      bool   `json:"long,omitempty"`
	BigCities bool   `json:"big_cities,omitempty"`
}

// Parse reads a board file, resolves every name and validates the result.
func Parse(src []byte) (*Board, error) {
	var f boardFile
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("board file: %w", err)
	}
	b := f.Board
	b.Cities = f.Cities
	b.byName = make(map[string]CityID, len(f.Cities)+len(b.Countries))
	for i, c := range b.Cities {
		if _, dup := b.byName[c.Name]; dup {
			return nil, fmt.Errorf("board %s: city %q listed twice", b.ID, c.Name)
		}
		b.byName[c.Name] = CityID(i)
	}
	for i := range b.Countries {
		c := &b.Countries[i]
		if _, dup := b.byName[c.Name]; dup {
			return nil, fmt.Errorf("board %s: country %q has the name of another node", b.ID, c.Name)
		}
		if len(c.Areas) == 0 {
			return nil, fmt.Errorf("board %s: country %q has no area to draw", b.ID, c.Name)
		}
		c.Node = CityID(len(b.Cities))
		b.byName[c.Name] = c.Node
		b.Cities = append(b.Cities, City{Name: c.Name, X: c.Areas[0].X, Y: c.Areas[0].Y, Country: true})
	}
	for i, r := range f.Routes {
		a, okA := b.byName[r.A]
		bb, okB := b.byName[r.B]
		switch {
		case !okA:
			return nil, fmt.Errorf("board %s: route %d (%s – %s): unknown city %q", b.ID, i+1, r.A, r.B, r.A)
		case !okB:
			return nil, fmt.Errorf("board %s: route %d (%s – %s): unknown city %q", b.ID, i+1, r.A, r.B, r.B)
		}
		b.Tracks = append(b.Tracks, Track{ID: TrackID(i), A: a, B: bb, Length: r.Length, Color: r.Color,
			Tunnel: r.Tunnel, Locomotives: r.Locomotives, Area: r.Area})
	}
	tickets, err := b.resolveTickets(f.Tickets, func(i int) string { return fmt.Sprintf("ticket %d", i+1) })
	if err != nil {
		return nil, fmt.Errorf("board %s: %w", b.ID, err)
	}
	b.Tickets = tickets
	b.index()
	if err := b.Validate(); err != nil {
		return nil, err
	}
	return &b, nil
}

func (b *Board) resolveTickets(entries []ticketEntry, where func(int) string) ([]Ticket, error) {
	out := make([]Ticket, 0, len(entries))
	for i, e := range entries {
		a, err := b.lookup(e.A)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where(i), err)
		}
		c, err := b.lookup(e.B)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where(i), err)
		}
		out = append(out, Ticket{ID: TicketID(len(out)), A: a, B: c, Points: e.Points, Deck: e.Deck, Long: e.Long, BigCities: e.BigCities})
	}
	return out, nil
}

// lookup resolves a printed name, suggesting the closest one when it is wrong.
func (b *Board) lookup(name string) (CityID, error) {
	if id, ok := b.byName[name]; ok {
		return id, nil
	}
	if s := b.Suggest(name); s != "" {
		return 0, fmt.Errorf("unknown city %q on the %s board (did you mean %q?)", name, b.ID, s)
	}
	return 0, fmt.Errorf("unknown city %q on the %s board", name, b.ID)
}

// index builds adjacency and parallel groups.
func (b *Board) index() {
	b.Adj = make([][]TrackID, len(b.Cities))
	groupOf := map[[2]CityID]int{}
	b.Groups = b.Groups[:0]
	for i := range b.Tracks {
		t := &b.Tracks[i]
		b.Adj[t.A] = append(b.Adj[t.A], t.ID)
		b.Adj[t.B] = append(b.Adj[t.B], t.ID)
		key := [2]CityID{min(t.A, t.B), max(t.A, t.B)}
		g, ok := groupOf[key]
		if !ok {
			g = len(b.Groups)
			groupOf[key] = g
			b.Groups = append(b.Groups, nil)
		}
		t.Group = g
		b.Groups[g] = append(b.Groups[g], t.ID)
	}
	for _, adj := range b.Adj {
		sort.Slice(adj, func(i, j int) bool { return adj[i] < adj[j] })
	}
}
