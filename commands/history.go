package commands

import (
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// historyLen is how many public narration lines a table keeps for /log.
const historyLen = 50

// narrate records the public narration of an action, in the server's
// language: the lines of the turn being played and the history /log shows.
func (t *table) narrate(rec *store.GameRecord, g *engine.Game, ev []engine.Event) {
	lines := present.Narrate(rec.Options[optLocale], g.Board(), seatNamer(rec), ev)
	t.turnLog = append(t.turnLog, lines...)
	t.history = append(t.history, lines...)
	if n := len(t.history); n > historyLen {
		t.history = append(t.history[:0], t.history[n-historyLen:]...)
	}
}

// seatNamer names the seats of a game as players know them.
func seatNamer(rec *store.GameRecord) func(seat int) string {
	return func(seat int) string { return seatName(rec, seat) }
}
