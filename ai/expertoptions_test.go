package ai

import (
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// The expert's own moves weigh a planned track's length four times as much
// as hard does (claimLength 2 against 0.5): with both tracks of its path
// ready, it claims the long one first, where hard claims the short one an
// opponent nearby threatens.
func TestExpertClaimsLongPlannedTracksFirst(t *testing.T) {
	v := scene(t, "usa", 4)
	b := v.Board
	give(&v, ticketBetween(t, b, "Seattle", "Las Vegas"))
	hold(&v, 1, testkit.AnyTrack(t, b, "Portland", "Salt Lake City"))
	for c := data.Color(1); c < data.NumColors; c++ {
		v.Hand[engine.ColorCard(c)] = 6
	}
	short := claim(testkit.Track(t, b, "Las Vegas", "Salt Lake City", data.Orange), data.Orange)
	long := claim(testkit.Track(t, b, "Helena", "Seattle", data.Yellow), data.Yellow)
	legal := []engine.Action{drawDeck, short, long}
	for _, c := range []struct {
		who  string
		o    options
		want engine.Action
	}{{"hard", hardOptions, short}, {"the expert", expertOptions, long}} {
		if a := newPlannerBot(c.o).Choose(v, legal); !a.Equal(c.want) {
			t.Errorf("%s played %s, want %s", c.who, engine.FormatAction(b, a), engine.FormatAction(b, c.want))
		}
	}
}

// drawPerSeat asks more of a ticket draw at fuller tables, except on
// Märklin, where the most completed tickets earn a bonus.
func TestDrawPerSeatSparesMarklin(t *testing.T) {
	choosy := hardOptions
	choosy.drawPerSeat = 100
	for _, c := range []struct {
		board       string
		choosyDraws bool
	}{{"usa", false}, {"europe", false}, {"marklin", true}} {
		v := scene(t, c.board, 4)
		legal := []engine.Action{drawDeck, {Kind: engine.ActDrawTickets}}
		if a := newPlannerBot(hardOptions).Choose(v, legal); a.Kind != engine.ActDrawTickets {
			t.Fatalf("%s: hard played %s with nothing to build, want a ticket draw", c.board, engine.FormatAction(v.Board, a))
		}
		a := newPlannerBot(choosy).Choose(v, legal)
		if got := a.Kind == engine.ActDrawTickets; got != c.choosyDraws {
			t.Errorf("%s: asking 200 points more of a draw at 4 seats, drew tickets: %v, want %v", c.board, got, c.choosyDraws)
		}
	}
}
