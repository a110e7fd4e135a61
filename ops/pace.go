package ops

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"conductor/bot"
	"conductor/store"
)

// Discord's limits are the bot's, not a process's: the global limit of
// REST requests (50 a second) and the logins of each identify bucket (one
// every 5 s). A fleet's processes take their turns from paces kept in the
// database (store.Reserve): every request under the global limit, and
// every login, reserves the next slot of its pace, whichever process
// sends. Behind a shared REST proxy (nirn-proxy) that does the global
// limit's pacing for every process, CONDUCTOR_GLOBAL_RATE=off turns the
// requests' pace off (docs/scale.md).

// FleetGlobalRate is the requests a second the fleet's processes send
// together: 90% of Discord's 50, as the process's own limiter leaves room
// for the jitter between the clocks.
const FleetGlobalRate = bot.DefaultGlobalRate * 9 / 10

// reserveFunc takes the next slot of a pace: store.Store.Reserve.
type reserveFunc func(ctx context.Context, key string, spacing time.Duration) (time.Duration, error)

// PacedLimiter is a bot.GlobalLimiter whose slots are shared by the
// fleet's processes: a request waits for the slot it reserved.
type PacedLimiter struct {
	reserve reserveFunc
	spacing time.Duration
	after   func(time.Duration) <-chan time.Time
	log     *slog.Logger
	failed  atomic.Bool
}

// NewFleetLimiter paces the requests of every process of st's fleet
// together, at FleetGlobalRate.
func NewFleetLimiter(st *store.Store, log *slog.Logger) *PacedLimiter {
	return newPacedLimiter(st.Reserve, time.Second/FleetGlobalRate, time.After, log)
}

func newPacedLimiter(reserve reserveFunc, spacing time.Duration, after func(time.Duration) <-chan time.Time, log *slog.Logger) *PacedLimiter {
	return &PacedLimiter{reserve: reserve, spacing: spacing, after: after, log: log}
}

// globalPace is the pace of the requests under Discord's global limit.
const globalPace = "global"

// Wait waits for the next slot of the fleet's requests. Without an
// answer from the database it waits a second, as if every other process
// were sending: slower, never past the limit.
func (l *PacedLimiter) Wait(ctx context.Context) error {
	wait, err := l.reserve(ctx, globalPace, l.spacing)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !l.failed.Swap(true) {
			l.log.Warn("the fleet's request slot could not be reserved; a request a second until it can", "err", err)
		}
		wait = time.Second
	} else {
		l.failed.Store(false)
	}
	if wait <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-l.after(wait):
		return nil
	}
}

// FleetIdentifyPace keeps each identify bucket's logins apart across the
// fleet's processes, through st.
func FleetIdentifyPace(st *store.Store) bot.IdentifyPace {
	return func(ctx context.Context, bucket int, spacing time.Duration) (time.Duration, error) {
		return st.Reserve(ctx, fmt.Sprint("identify/", bucket), spacing)
	}
}
