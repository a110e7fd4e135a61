package main

import "conductor/commands"

// botMaker makes the bots of the ai package for the commands layer; nil
// until bots exist.
func botMaker() commands.BotMaker { return nil }

// botLevels are the levels /ttr addbot and --players accept.
func botLevels() []string { return []string{"easy", "normal", "hard"} }
