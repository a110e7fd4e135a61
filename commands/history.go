package commands

import (
	"slices"

	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// historyLen is how many public narration lines a table keeps for /log.
const historyLen = 50

// narration is what a table has told of its game, in the table's
// language: the lines of the turn being played, which its next board
// posts, and the latest lines, which /log shows and the board's picture
// ends with. A turn is told as a whole: its second card drawn rewrites the
// line of its first ("drew 2 cards from the deck"), tickets kept the line
// of the tickets drawn.
type narration struct {
	turn    []string
	history []string
	// open is the public events of the turn being played, and told the
	// lines they were told as, at the end of turn and history.
	open []engine.Event
	told []string
}

// tell narrates an action; done says the action ended its turn.
func (n *narration) tell(rec *store.GameRecord, g *engine.Game, ev []engine.Event, done bool) {
	loc, b, names := rec.Options[optLocale], g.Board(), seatNamer(rec)
	if k := len(n.told); k > 0 && hasSuffix(n.turn, n.told) && hasSuffix(n.history, n.told) {
		// The turn goes on: its lines are told again, with this action.
		n.turn, n.history = n.turn[:len(n.turn)-k], n.history[:len(n.history)-k]
	} else {
		n.open = n.open[:0]
	}
	for _, e := range ev {
		if !e.Private {
			n.open = append(n.open, e)
		}
	}
	lines := present.Narrate(loc, b, names, n.open)
	n.turn = append(n.turn, lines...)
	n.history = append(n.history, lines...)
	n.told = append(n.told[:0], lines...)
	if race := raceLines(loc, rec, g, ev); len(race) > 0 {
		// The race's news follows the move that made it.
		n.turn = append(n.turn, race...)
		n.history = append(n.history, race...)
		done = true
	}
	if done {
		n.open, n.told = n.open[:0], n.told[:0]
	}
	if k := len(n.history); k > historyLen {
		n.history = append(n.history[:0], n.history[k-historyLen:]...)
	}
}

// raceLines are the news of the race an action made (present.RaceLines):
// only a claim makes any.
func raceLines(loc string, rec *store.GameRecord, g *engine.Game, ev []engine.Event) []string {
	if !slices.ContainsFunc(ev, func(e engine.Event) bool { return e.Kind == engine.EvClaim }) {
		return nil
	}
	v := g.Public()
	return present.RaceLines(loc, &v, seatPlayers(rec), ev)
}

// hasSuffix: lines end with end.
func hasSuffix(lines, end []string) bool {
	return len(end) <= len(lines) && slices.Equal(lines[len(lines)-len(end):], end)
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
