// Package store persists Conductor's games in a single bbolt file.
//
// The store knows nothing of the rules: a game is kept as plain data (its
// settings, seats, random seed and the log of actions in the engine's text
// notation) from which the engine rebuilds the state. Live games are keyed by
// channel; finished games move to an archive keyed by guild and finishing
// time, which the statistics read.
//
// Layout of schema version 1 (see schema.go for how older files are upgraded):
//
//	meta/schema                     decimal schema version
//	games/<channel>/record          GameRecord as JSON, without Log
//	games/<channel>/log/<n>         LogEntry n as JSON, n as 8-byte big-endian
//	games/<channel>/interactions/<id>  index n of the entry that applied it
//	archive/<guild>\x00<time>\x00<id>        ArchiveEntry (summary) as JSON
//	archived_games/<same key>                the full GameRecord as JSON
//
// Keeping the log as one key per entry makes committing a move cost the same
// whatever the length of the game, and the interaction index makes refusing a
// replayed Discord interaction a single lookup.
//
// Every method is safe for concurrent use; bbolt serialises writers.
package store
