// Package store persists Conductor's games: in a single bbolt file (the
// embedded default), or in PostgreSQL (CONDUCTOR_DB=postgres://…), which
// several processes may share. Both keep one contract (backend.go), written
// once over a typed transaction each backend implements; PostgreSQL's
// schema is in pgschema.go, and docs/scale.md says how a move commits when
// several processes write, and how shard leases and change notifications
// work.
//
// The store knows nothing of the rules: a game is kept as plain data (its
// settings, seats, random seed and the log of actions in the engine's text
// notation) from which the engine rebuilds the state. Live games are keyed by
// channel; finished games move to an archive keyed by guild and finishing
// time, which the statistics read.
//
// The bbolt file's layout, schema version 3 (see schema.go for how older
// files are upgraded):
//
//	meta/schema                          decimal schema version
//	games/<channel>                      GameRecord as JSON, without Log
//	logs/<channel> NUL <4-byte chunk>    32 log entries, compact (logcodec.go)
//	snapshots/<channel>                  the game's state after n moves (snapshot.go)
//	parked/<channel>                     what the service parked of the table
//	outbox/<channel>/<8-byte sequence>   a post waiting for delivery (outbox.go)
//	archive/<guild> NUL <time> NUL <id>  ArchiveEntry (summary) as JSON
//	archived_games/<same key>            the full GameRecord as JSON
//	guild_settings/<guild>               GuildSettings as JSON (seasons.go)
//
// and the indexes derived from the games' records, written in the same
// transactions (index.go, deadlines.go):
//
//	index_guild/<guild> NUL <channel>    a server's live games
//	index_parent/<parent> NUL <channel>  the games in a channel's threads
//	index_rematch/<game id>              the live rematch of a game
//	deadlines/<time> <channel>           the games by their next deadline
//
// and the ratings, derived from each server's archive (ratings.go,
// boltratings.go):
//
//	ratings/<guild> NUL <kind> NUL <key>       a rating row (a member's, a pair's, a season's table, the state)
//	rating_ranks/<guild> NUL <kind> NUL <rank> <key>   the ranked rows, highest first
//
// Committing a move rewrites one small chunk and the record, whatever the
// length of the game; what a request looks for is found by key; and a game
// at rest costs a few kilobytes on disk and nothing in memory.
//
// Every method is safe for concurrent use: bbolt serialises writers; on
// PostgreSQL row and advisory locks keep writers of any number of processes
// apart, and a transaction that lost a race runs again.
package store
