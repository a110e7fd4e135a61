package main

import (
	"conductor/ai"
	"conductor/commands"
)

// botMaker makes the ai package's bots for the commands layer.
func botMaker() commands.BotMaker {
	return func(level string, seed uint64) (commands.Bot, error) {
		return ai.NewWithContext(level, seed)
	}
}

// botLevels are the levels /ttr addbot and --players accept.
func botLevels() []string { return ai.Levels }
