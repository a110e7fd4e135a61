package main

import (
	"context"
	"time"

	"conductor/bot"
)

// gatewayDownLimit is how long the gateway may stay down before the process
// exits, so that the platform restarts it (discordgo reconnects by itself
// for shorter outages).
const gatewayDownLimit = 5 * time.Minute

// watchdog exits the process when the gateway has been down for too long.
type watchdog struct {
	now   func() time.Time
	limit time.Duration
	state func() bot.Health
	exit  func(code int)
}

// check reports how long the gateway has been down, and exits when that is
// past the limit.
func (w *watchdog) check() time.Duration {
	h := w.state()
	if h.Connected || h.DownSince.IsZero() {
		return 0
	}
	down := w.now().Sub(h.DownSince)
	if down >= w.limit {
		w.exit(1)
	}
	return down
}

// run checks every interval until ctx ends.
func (w *watchdog) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.check()
		}
	}
}
