package ai

// debugf, when set (by tests), narrates the planner's reasoning.
var debugf func(format string, args ...any)
