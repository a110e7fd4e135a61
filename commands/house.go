package commands

import (
	"context"
	"log/slog"
	"sync"
)

// house is what a service and each of its tables share: the store, the
// boards, the pictures, the clock and the bots' makers (Config), the log,
// the sender of the outbox, Run's alarm, and who plays the bots' turns. A
// table applies moves, narrates them and ends its game with these alone
// (play.go, gameflow.go); the service finds tables and routes requests.
type house struct {
	cfg   Config
	log   *slog.Logger
	out   *sender
	alarm *alarm
	bots  botScheduler
	// ctx is done once the service closes: a bot's search stops.
	ctx context.Context

	// dmRefused, "channel/user" of the players owed word that their turn
	// DMs were refused (dm.go). dmMu guards it alone: it is taken with a
	// table locked (when the table loads), so it never waits for another
	// lock.
	dmMu      sync.Mutex
	dmRefused map[string]bool
}

// botScheduler plays the bots' turns of a table, after a pause, outside
// its lock (botrunner.go).
type botScheduler interface {
	// scheduleBots arms the pause before a bot's turn, if a bot is to play.
	scheduleBots(t *table)
	// disarmBot cancels it.
	disarmBot(t *table)
	// setupInBackground lets the bots that search their initial tickets
	// choose them with the table's lock released.
	setupInBackground(t *table)
}
