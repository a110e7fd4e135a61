package commands

import (
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// historyLen is how many public narration lines a table keeps for /log.
const historyLen = 50

// narration is what a table has told of its game, in the table's
// language: the lines of the turn being played, which its next board
// posts, and the latest lines, which /log shows and the board's picture
// ends with.
type narration struct {
	turn    []string
	history []string
}

// tell narrates an action.
func (n *narration) tell(rec *store.GameRecord, g *engine.Game, ev []engine.Event) {
	lines := present.Narrate(rec.Options[optLocale], g.Board(), seatNamer(rec), ev)
	n.turn = append(n.turn, lines...)
	n.history = append(n.history, lines...)
	if k := len(n.history); k > historyLen {
		n.history = append(n.history[:0], n.history[k-historyLen:]...)
	}
}

// last is the latest line told, "" before any.
func (n *narration) last() string {
	if len(n.history) == 0 {
		return ""
	}
	return n.history[len(n.history)-1]
}

// seatNamer names the seats of a game as players know them.
func seatNamer(rec *store.GameRecord) func(seat int) string {
	return func(seat int) string { return seatName(rec, seat) }
}
