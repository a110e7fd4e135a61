package ops

import (
	"context"
	"fmt"
	"log/slog"
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

// ErrGatewayLost ends the bot when its gateway stays down longer than
// GatewayDownLimit, so that the platform restarts the process (gracefully,
// exit 1).
var ErrGatewayLost = fmt.Errorf("the Discord gateway stayed down for %v", GatewayDownLimit)

// WatchGateway checks the gateway's state every 30 s until ctx ends (nil),
// or until it has been down for GatewayDownLimit: then it logs why and
// returns ErrGatewayLost.
func WatchGateway(ctx context.Context, state func() bot.Health, log *slog.Logger) error {
	ctx, lost := context.WithCancelCause(ctx)
	defer lost(nil)
	dog := &Watchdog{Now: time.Now, Limit: GatewayDownLimit, State: state, Down: func() { lost(ErrGatewayLost) }}
	dog.Run(ctx, 30*time.Second)
	if context.Cause(ctx) == ErrGatewayLost {
		log.Error("the Discord gateway has been down too long; stopping", "limit", GatewayDownLimit)
		return ErrGatewayLost
	}
	return nil
}
