// Package ai holds the computer players of Conductor: four levels of play
// ("easy", "normal", "hard", "expert") and two baselines from the research literature
// ("dest", destination-hungry, and "route", route-focused).
//
// A bot sees only what its seat sees: the engine.PlayerView it is handed and
// the legal actions. It never touches the real *engine.Game, so it cannot
// peek at hidden hands, tickets or the order of the decks; the expert plays
// out only games it built from its own view (engine.Determinize).
package ai

import (
	"fmt"
	"strings"

	"conductor/engine"
)

// Bot chooses one action for the seat whose view it is given. The action
// returned is always one of legal. A Bot keeps only its random stream
// between calls and is not safe for concurrent use: give each game its own.
type Bot interface {
	Choose(view engine.PlayerView, legal []engine.Action) engine.Action
}

// Levels are the difficulty levels offered to people, weakest first.
var Levels = []string{"easy", "normal", "hard", "expert"}

// Baselines are the reference agents used to measure the levels.
var Baselines = []string{"dest", "route"}

// New returns a bot of the given level ("easy", "normal", "hard") or
// baseline ("dest", "route"). The seed drives its random choices, so a bot
// replays the same way given the same seed and views.
func New(level string, seed uint64) (Bot, error) {
	return NewWith(level, seed, Settings{})
}

// Settings adjust a bot beyond its level.
type Settings struct {
	// NoDeadline lifts the expert's wall clock safety cap on a decision:
	// its search is then bounded by its effort budget alone, and plays
	// the same on a loaded machine as on an idle one (self-play
	// measurements); a table keeps the cap.
	NoDeadline bool
}

// NewWith is New with settings.
func NewWith(level string, seed uint64, set Settings) (Bot, error) {
	if level == "expert" {
		e := newExpert(seed)
		if set.NoDeadline {
			e.deadline = 0
		}
		return e, nil
	}
	switch level {
	case "easy":
		return newEasy(seed), nil
	case "normal":
		return newPlannerBot(normalOptions), nil
	case "hard":
		return newPlannerBot(hardOptions), nil
	case "expert":
		return newExpert(seed), nil
	case "dest":
		return newDestHungry(), nil
	case "route":
		return newRouteFocused(), nil
	}
	return nil, fmt.Errorf("unknown bot level %q (levels: %s; baselines: %s)",
		level, strings.Join(Levels, ", "), strings.Join(Baselines, ", "))
}
