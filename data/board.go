// Package data holds the boards Conductor plays on: cities, tracks, tickets
// and each edition's rule table. Boards are data: adding one needs a JSON file
// in boards/, not code.
package data

// CityID indexes Board.Cities. Märklin countries are nodes too (Country set).
type CityID int16

// TrackID indexes Board.Tracks.
type TrackID int16

// TicketID indexes Board.Tickets.
type TicketID int16

// Board is one edition's map, tickets and rules, resolved and validated.
type Board struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Width  int    `json:"width"`  // drawing space of the map
	Height int    `json:"height"` // drawing space of the map

	Rules    Rules     `json:"rules"`
	Variants []Variant `json:"variants"`

	// Cities lists every node of the graph: cities first, then one node per
	// country (Märklin). A country is a dead end: paths may end there but
	// never pass through it.
	Cities    []City    `json:"-"`
	Countries []Country `json:"countries,omitempty"`
	Tracks    []Track   `json:"-"`
	Tickets   []Ticket  `json:"-"`

	// TicketsSubstitute marks a deck that stands in for the unpublished one.
	TicketsSubstitute bool   `json:"tickets_substitute,omitempty"`
	TicketsNote       string `json:"tickets_note,omitempty"`
	// BigCities names the cities on the Big Cities reference card.
	BigCities []string `json:"big_cities,omitempty"`

	// Adjacency: for each node, the tracks touching it.
	Adj [][]TrackID `json:"-"`
	// Groups lists parallel tracks (double and triple routes); Track.Group indexes it.
	Groups [][]TrackID `json:"-"`

	byName map[string]CityID
}

// City is a node of the map.
type City struct {
	Name string  `json:"name"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	Lat  float64 `json:"lat,omitempty"`
	Lon  float64 `json:"lon,omitempty"`
	// Goods (Märklin) is the colour of the token stack and its values, top first.
	Goods      string `json:"goods,omitempty"`
	GoodsStack []int  `json:"goods_stack,omitempty"`
	// Country marks a country node (Märklin); its areas are in Board.Countries.
	Country bool `json:"country,omitempty"`
	// Label is where the name sits around the dot: "n", "ne", "e", "se", "s",
	// "sw", "w" or "nw" (empty: "s"). The renderer's layout places it.
	Label string `json:"label,omitempty"`
	// LabelDX, LabelDY shift the name from where Label puts it, to fit it
	// between tracks (the layout tests allow at most 24 units either way).
	LabelDX float64 `json:"label_dx,omitempty"`
	LabelDY float64 `json:"label_dy,omitempty"`
}

// Country is a Märklin neighbouring country: a dead-end destination drawn as
// one or more board areas (Österreich has two).
type Country struct {
	Name    string  `json:"name"`
	English string  `json:"english,omitempty"`
	French  string  `json:"french,omitempty"`
	Areas   []Point `json:"areas"`
	Node    CityID  `json:"-"`
}

// Point is a drawing position in the board's space.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Track is one claimable row of spaces between two nodes.
type Track struct {
	ID          TrackID
	A, B        CityID
	Length      int
	Color       Color
	Tunnel      bool
	Locomotives int // ferry: locomotive symbols that need a locomotive card
	// Area is the country area (index into Country.Areas) a country track ends in.
	Area int
	// Group indexes Board.Groups: the track and its parallel siblings.
	Group int
}

// Other returns the end of t that is not c.
func (t *Track) Other(c CityID) CityID {
	if t.A == c {
		return t.B
	}
	return t.A
}

// Ticket is a destination ticket.
type Ticket struct {
	ID        TicketID
	A, B      CityID
	Points    int
	Deck      string // "usa", "1910", "europe", "1912", "marklin", "bonus", ...
	Long      bool   // long ticket (Europe), long deck (Märklin)
	BigCities bool   // carries the Big Cities logo
}

// Rules is an edition's rule table.
type Rules struct {
	Trains      int         `json:"trains"`
	Hand        int         `json:"hand"`    // starting train cards
	FaceUp      int         `json:"face_up"` // face-up cards on display
	EndTrains   int         `json:"end_trains"`
	RoutePoints map[int]int `json:"route_points"`
	Cards       CardCounts  `json:"cards"`

	FlushLocomotives int `json:"flush_locomotives"`          // face-up locomotives that flush the display
	FlushPassengers  int `json:"flush_passengers,omitempty"` // face-up passenger cards that flush it (Märklin)
	MaxFlushes       int `json:"max_flushes"`                // flushes in a row before the display is left as it is

	LongestPathBonus int `json:"longest_path_bonus,omitempty"`
	MostTicketsBonus int `json:"most_tickets_bonus,omitempty"`

	Stations      int   `json:"stations,omitempty"`
	StationCosts  []int `json:"station_costs,omitempty"`
	StationPoints int   `json:"station_points,omitempty"` // per unbuilt station
	TunnelReveal  int   `json:"tunnel_reveal,omitempty"`

	Passengers           int `json:"passengers,omitempty"`
	Locomotive4MinLength int `json:"locomotive4_min_length,omitempty"`

	// TieBreaks rank players tied on points, in order (rulenames.go).
	TieBreaks []TieBreak `json:"tie_breaks"`
}

// CardCounts is the train-card deck composition.
type CardCounts struct {
	Colors       int `json:"colors"` // of each of the eight colours
	Locomotives  int `json:"locomotives"`
	Locomotives4 int `json:"locomotives4,omitempty"` // Märklin Locomotive +4
	Passengers   int `json:"passengers,omitempty"`   // Märklin Passenger cards
}

// Total is the number of train cards in the game.
func (c CardCounts) Total() int {
	return 8*c.Colors + c.Locomotives + c.Locomotives4 + c.Passengers
}

// Variant is a way to play a board: which tickets, how they are dealt and kept.
type Variant struct {
	ID            string      `json:"id"`
	Name          string      `json:"name"`
	Decks         []string    `json:"decks"`
	BigCitiesOnly bool        `json:"big_cities_only,omitempty"`
	Setup         []SetupStep `json:"setup"`
	Draw          int         `json:"draw"`          // tickets drawn during the game
	DrawKeepMin   int         `json:"draw_keep_min"` // tickets kept at least from such a draw
	// DrawMix: the player announces how many of the drawn tickets come from
	// the long deck and how many from the short one (Märklin).
	DrawMix bool `json:"draw_mix,omitempty"`
}

// SetupStep is one deal of tickets at the start of the game.
type SetupStep struct {
	Long    int `json:"long,omitempty"`    // dealt from the long deck
	Regular int `json:"regular,omitempty"` // dealt from the regular deck
	Mix     int `json:"mix,omitempty"`     // the player announces a mix of this many (Märklin)
	KeepMin int `json:"keep_min"`
	KeepMax int `json:"keep_max,omitempty"` // 0: no limit
	// TotalKeepMin: tickets kept in this and earlier steps together (Mega Europe).
	TotalKeepMin int `json:"total_keep_min,omitempty"`
	// Discard says where tickets not kept go (rulenames.go).
	Discard Discard `json:"discard"`
}

// Dealt is the number of tickets a player receives in this step.
func (s SetupStep) Dealt() int { return s.Long + s.Regular + s.Mix }

// City returns the node with the given name.
func (b *Board) City(name string) (CityID, bool) {
	id, ok := b.byName[name]
	return id, ok
}

// Variant returns the variant with the given id.
func (b *Board) Variant(id string) (*Variant, bool) {
	for i := range b.Variants {
		if b.Variants[i].ID == id {
			return &b.Variants[i], true
		}
	}
	return nil, false
}

// RoutePoints returns the points a track of length n scores.
func (b *Board) RoutePoints(n int) int { return b.Rules.RoutePoints[n] }

// Parallel returns the tracks sharing t's group, t included.
func (b *Board) Parallel(t TrackID) []TrackID { return b.Groups[b.Tracks[t].Group] }

// NumCities counts the nodes that are cities, not countries.
func (b *Board) NumCities() int { return len(b.Cities) - len(b.Countries) }

// TrackName is "A – B" as printed.
func (b *Board) TrackName(t TrackID) string {
	tr := &b.Tracks[t]
	return b.Cities[tr.A].Name + " – " + b.Cities[tr.B].Name
}

// Spaces sums the lengths of every track.
func (b *Board) Spaces() int {
	n := 0
	for _, t := range b.Tracks {
		n += t.Length
	}
	return n
}

// DeckSize counts the tickets of one deck ("bonus", "1912", ...).
func (b *Board) DeckSize(deck string) int {
	n := 0
	for i := range b.Tickets {
		if b.Tickets[i].Deck == deck {
			n++
		}
	}
	return n
}
