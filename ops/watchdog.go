package ops

import (
	"context"
	"time"

	"conductor/bot"
)

// GatewayDownLimit is how long the gateway may stay down before the
// process stops, so that the platform restarts it (discordgo reconnects
// by itself for shorter outages).
const GatewayDownLimit = 5 * time.Minute

// Watchdog calls Down when the gateway has been down for longer than Limit.
type Watchdog struct {
	Now   func() time.Time
	Limit time.Duration
	State func() bot.Health
	Down  func()
}

// Check reports how long the gateway has been down, and calls Down when
// that is past the limit.
func (w *Watchdog) Check() time.Duration {
	h := w.State()
	if h.Connected || h.DownSince.IsZero() {
		return 0
	}
	down := w.Now().Sub(h.DownSince)
	if down >= w.Limit {
		w.Down()
	}
	return down
}

// Run checks every interval until ctx ends.
func (w *Watchdog) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.Check()
		}
	}
}
