package data

// TieBreak is a rule that ranks players tied on points (Rules.TieBreaks),
// as the edition prints it. The map files name them; Validate refuses a
// name not listed here.
type TieBreak string

const (
	TieTickets        TieBreak = "tickets"         // most completed tickets
	TieLongestPath    TieBreak = "longest_path"    // longest continuous path
	TieFewestStations TieBreak = "fewest_stations" // fewest stations built
	TieExpress        TieBreak = "express"         // holds the longest-path bonus (the European Express)
	TieGoods          TieBreak = "goods"           // most goods points (Märklin)
)

func (t TieBreak) known() bool {
	switch t {
	case TieTickets, TieLongestPath, TieFewestStations, TieExpress, TieGoods:
		return true
	}
	return false
}

// Discard is where the tickets a player does not keep go at a setup step
// (SetupStep.Discard).
type Discard string

const (
	DiscardBox       Discard = "box"       // out of the game
	DiscardBottom    Discard = "bottom"    // shuffled under their deck
	DiscardReshuffle Discard = "reshuffle" // the decks reshuffled once every player has chosen
)

func (d Discard) known() bool {
	switch d {
	case DiscardBox, DiscardBottom, DiscardReshuffle:
		return true
	}
	return false
}

// HasStations says whether the edition has train stations (Europe).
func (r *Rules) HasStations() bool { return r.Stations > 0 }

// HasPassengers says whether the edition has passengers (Märklin).
func (r *Rules) HasPassengers() bool { return r.Passengers > 0 }
