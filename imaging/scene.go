package imaging

import (
	"conductor/data"
	"conductor/engine"
)

// Scene is everything the public board image shows. It holds only public
// information on purpose: the commands layer fills it from the engine, and a
// field that could carry a hand, a ticket or the deck order does not exist
// here (scene_test.go fails if one is added).
type Scene struct {
	Board   *data.Board
	Players []PlayerPanel // in seat (turn) order
	// Current is the seat whose turn it is, -1 when none (setup, game over).
	Current int
	// Owners holds, per TrackID, the seat that claimed the track or -1.
	Owners []int8
	// Stations holds, per CityID, the seat that built a station there or -1.
	Stations   []int8
	Passengers []PassengerMark
	// Goods holds, per CityID, the goods tokens still stacked there, top first (Märklin).
	Goods [][]int
	// FaceUp is the face-up display; NoCard marks an empty slot.
	FaceUp                                []engine.Card
	DeckSize, DiscardSize, TicketDeckSize int
	LastMove                              Highlight
	// Status is one line above the players, e.g. "Alice to play" or "Last round!".
	Status string
	// Title names the game at the top of the panel: the edition as the
	// table's language prints it, with its variant. Empty: the board's name.
	Title string
}

// PlayerPanel is one player's public summary: counts, never contents.
type PlayerPanel struct {
	Name string
	// Color is the seat colour index into the five player colours (0..4).
	Color          int
	Score          int
	Trains         int
	Stations       int // stations left to build
	Cards          int // train cards in hand (count only)
	Tickets        int // destination tickets held (count only)
	PassengersLeft int // Märklin passengers not yet placed
	Bot            bool
}

// PassengerMark is a Märklin passenger standing in a city.
type PassengerMark struct {
	City data.CityID
	Seat int
}

// Highlight is the last move: what to mark on the map and one line of text.
type Highlight struct {
	Tracks []data.TrackID
	Cities []data.CityID
	Text   string
}

// HandScene is one player's private view, sent only to that player.
type HandScene struct {
	Board    *data.Board
	Player   string
	Color    int // seat colour index
	Cards    engine.Hand
	Tickets  []TicketLine
	Trains   int
	Stations int
	Owned    []data.TrackID
}

// TicketLine is a destination ticket as a player sees it.
type TicketLine struct {
	From, To  string
	Points    int
	Completed bool
	// Cities are the nodes to mark on the mini map (usually the two ends).
	Cities []data.CityID
}

// FinalScene is the end-of-game score sheet.
type FinalScene struct {
	Board   *data.Board
	Players []FinalLine // in seat order; the image ranks them by Total
	Owners  []int8      // per TrackID: seat or -1
	// Title names the game above the ranking, as Scene.Title does.
	Title string
}

// FinalLine is one player's score breakdown.
type FinalLine struct {
	Name          string
	Color         int
	RoutePoints   int
	TicketsWon    []TicketLine
	TicketsLost   []TicketLine
	Bonuses       []Bonus
	StationPoints int
	GoodsPoints   int
	Total         int
	Winner        bool
	// LongestPath lists the tracks of the player's longest continuous path,
	// drawn highlighted on the map.
	LongestPath []data.TrackID
}

// Bonus is a named end-of-game bonus such as "European Express".
type Bonus struct {
	Name   string
	Points int
}
