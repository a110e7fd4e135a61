package imaging

import (
	"conductor/data"
	"conductor/engine"
)

// Scene is everything the public board image shows. It holds only public
// information on purpose: the commands layer fills it from the engine, and a
// field that could carry a hand, a ticket or the deck order does not exist
// here (scene_test.go fails if one is added).
//
// Imaging knows no language: every word a picture shows comes in its scene,
// already in the table's language (the present package fills them from its
// catalogues). Numbers drawn beside pictures of cards and scores need none.
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
	FaceUp   []engine.Card
	LastMove Highlight
	// Status is one line above the players, e.g. "Alice to play" or "Last round!".
	Status string
	// Title names the game at the top of the panel: the edition as the
	// table's language prints it, with its variant after a " · " (where
	// the panel breaks a title too wide for a line). Empty: the board's
	// name.
	Title string
	// Text is the rest of the panel's words.
	Text PanelText
	// Letters are printed on the cards and the tracks (see Letters).
	Letters Letters
}

// PanelText is the words of the board picture's side panel.
type PanelText struct {
	FaceUp   string // heading over the face-up cards
	LastMove string // heading over the last move
	// Piles count the draw pile, the discards and the tickets left, as
	// every other screen counts them ("Deck 40"); the panel flows them
	// into lines.
	Piles []string
	// Legend is the key to the letters printed on cards and tracks, an
	// entry a letter ("R red"); the panel flows them into lines.
	Legend []string
	Bot    string // the badge beside a bot's name
	Points string // the unit under each score
}

// PlayerPanel is one player's public summary: counts, never contents.
type PlayerPanel struct {
	Name string
	// Color is the seat colour index into the five player colours (0..4).
	Color int
	Score int
	Bot   bool
	// Pieces is what the player has left to play ("12 trains · 2
	// stations"), Holding what they hold, counted ("6 cards · 3 tickets").
	Pieces, Holding string
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
	Board *data.Board
	Color int // seat colour index
	Cards engine.Hand
	// Tickets fit the picture: at most HandTicketRows of them (the
	// rest are counted in Text.More).
	Tickets []TicketLine
	Owned   []data.TrackID
	// Others are the other seats' tracks, drawn dimmer on the mini map: a
	// ticket blocked by them shows.
	Others  []SeatTrack
	Text    HandText
	Letters Letters
}

// SeatTrack is a track a seat claimed.
type SeatTrack struct {
	Track data.TrackID
	Seat  int
}

// HandText is the words of the hand picture.
type HandText struct {
	Title     string // the player's name and what this is ("Alice — hand")
	Left      string // trains and stations left to play
	Cards     string // heading over the train cards
	Tickets   string // heading over the tickets
	NoTickets string // in place of an empty ticket list
	More      string // after the tickets shown, how many more the player holds; "" for none
	Caption   string // under the mini map
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
	Board    *data.Board
	Players  []FinalLine // in seat order; the image ranks them by Total
	Owners   []int8      // per TrackID: seat or -1
	Stations []int8      // per CityID: seat or -1
	// Title names the game above the ranking, as Scene.Title does.
	Title string
	Text  FinalText
	// Letters are printed on the map's free tracks, as on the board.
	Letters Letters
}

// FinalText is the words of the score sheet.
type FinalText struct {
	Heading string // over the ranking ("Final scores")
	Paths   string // under the ranking: what the outlines on the map are
	// Column headings of the breakdown: the player, then the numbers.
	Player, Routes, TicketsWon, TicketsLost, Bonuses, Stations, Goods, Total string
	// Completed, Failed and BonusList begin the lines of tickets and
	// bonuses under a player's numbers ("Completed:").
	Completed, Failed, BonusList string
	Winner                       string // beside the winner's name in the breakdown
	// Shared is said instead of Winner beside each winner of a shared
	// victory.
	Shared string
	// Early, when the game was ended before its end and scored as it
	// stood, says so under the ranking.
	Early string
	Bot   string // the badge beside a bot's name
	// Rating heads the column of the members' rating changes (shown when
	// a player has one).
	Rating string
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
	// Place is the player's place, 1 for the winners; players tied after
	// every tie-break share one. The ranking lists players by place.
	Place int
	Bot   bool
	// Note is said under the name in the ranking, item by item ("Winner",
	// "longest path: 23 trains"), flowed into two lines at most.
	Note []string
	// LongestPath lists the tracks of the player's longest continuous path,
	// drawn highlighted on the map.
	LongestPath []data.TrackID
	// Rating is a member's rating change ("+12 → 1,437"; "" for none),
	// green when it rose (RatingUp > 0), red when it fell (< 0);
	// RatingNote is said under it ("provisional · 2 hints").
	Rating     string
	RatingUp   int
	RatingNote string
}

// Bonus is a named end-of-game bonus such as "European Express".
type Bonus struct {
	Name   string
	Points int
}
