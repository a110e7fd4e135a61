package ai

import (
	"context"

	"conductor/engine"
)

// ContextBot is a Bot whose decision takes a context: a search stops when
// the context is done and returns the best move it has found so far.
// Servers hand it one that ends when they shut down.
type ContextBot interface {
	Choose(ctx context.Context, view engine.PlayerView, legal []engine.Action) engine.Action
}

// WithContext lets b decide within a context. The expert's search heeds
// it (its time budget becomes a deadline on it); the other levels decide
// in milliseconds and do not look at it.
func WithContext(b Bot) ContextBot { return contextBot{b} }

// contextDecider is a bot whose search can be cut short.
type contextDecider interface {
	decide(ctx context.Context, view engine.PlayerView, legal []engine.Action) engine.Action
}

type contextBot struct{ bot Bot }

func (c contextBot) Choose(ctx context.Context, view engine.PlayerView, legal []engine.Action) engine.Action {
	if d, ok := c.bot.(contextDecider); ok {
		return d.decide(ctx, view, legal)
	}
	return c.bot.Choose(view, legal)
}

// Searches reports whether the bot searches this decision (the expert's
// races, about a second of CPU) rather than deciding in milliseconds, so
// that a table can let it think with its lock released.
func (c contextBot) Searches(view engine.PlayerView, legal []engine.Action) bool {
	s, ok := c.bot.(interface {
		searches(*engine.PlayerView, []engine.Action) bool
	})
	return ok && s.searches(&view, legal)
}

// NewWithContext is New for callers whose bots decide within a context.
func NewWithContext(level string, seed uint64) (ContextBot, error) {
	b, err := New(level, seed)
	if err != nil {
		return nil, err
	}
	return WithContext(b), nil
}
