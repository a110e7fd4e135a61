// Package present turns games into what people read and see: the message
// catalogues and their translations, labels of cards and routes, the
// narration of moves, the texts of refused moves, board scenes, score
// sheets and replays. The engine decides; this package says it, in the
// player's language, the same way for Discord, the terminal and the CLI.
package present
