package commands

import (
	"encoding/json"
	"fmt"
	"time"

	"conductor/store"
)

// The outbox (store/outbox.go) holds what a table must see after a move,
// committed with the move: the entries below. The sender (sender.go)
// delivers them.

// outboxPayload is what an outbox entry holds: the message, and the scene
// of its picture, drawn when it is sent (picture.go).
type outboxPayload struct {
	Message
	Picture *picture `json:",omitempty"`
	// Quiet: the board goes as words alone, its picture not drawn (the
	// round's picture is on an earlier board, see pictureDue); the scene is
	// kept for a merged run whose newest board must show it.
	Quiet bool `json:",omitempty"`
	// Board is a board's narration, kept apart for merging queued boards
	// (coalesce.go); in an entry queued before pictures were kept as
	// scenes, it also names the position to draw.
	Board *boardAt `json:",omitempty"`
	// To sends the message to another channel than the outbox's: a game
	// played in a thread tells its result to the parent channel, in order
	// with the thread's own posts.
	To string `json:",omitempty"`
	// DM sends the message to a user privately instead (turn DMs).
	DM string `json:",omitempty"`
	// Game is the channel of the game a DM or a lobby post belongs to.
	Game string `json:",omitempty"`
	// Edit replaces that earlier message of the channel instead of
	// posting (an expired lobby).
	Edit string `json:",omitempty"`
	// Via is the way the move's request offered to post the board, until
	// ViaUntil; Epoch names the process that queued it (via.go).
	Via      string    `json:",omitempty"`
	ViaUntil time.Time `json:",omitzero"`
	Epoch    string    `json:",omitempty"`
}

// boardAt is what a board entry says of its board. Narration, when known,
// is the part of the message's text that tells the moves, for merging
// queued boards (coalesce.go). Moves and Locale named the picture to draw
// (the board after the game's first Moves moves, in a language) in entries
// queued before pictures were kept as scenes: see legacyBoard.
type boardAt struct {
	Moves     int     `json:",omitempty"`
	Locale    string  `json:",omitempty"`
	Narration *string `json:",omitempty"`
}

// outboxEntry wraps a message for the store.
func outboxEntry(kind postKind, m Message) store.OutboxEntry {
	payload, _ := json.Marshal(outboxPayload{Message: m}) // a Message always marshals
	return entryOf(kind, payload)
}

// pictureEntry wraps a message and the picture to draw with it when it is
// sent.
func pictureEntry(kind postKind, m Message, pic *picture) store.OutboxEntry {
	payload, _ := json.Marshal(outboxPayload{Message: m, Picture: pic})
	return entryOf(kind, payload)
}

// elsewhereEntry wraps a message for another channel.
func elsewhereEntry(channel string, m Message) store.OutboxEntry {
	payload, _ := json.Marshal(outboxPayload{Message: m, To: channel})
	return entryOf(postElsewhere, payload)
}

// archiveEntry closes the outbox's channel, a finished game's thread,
// once everything before it was delivered.
func archiveEntry() store.OutboxEntry {
	return entryOf(postArchive, []byte("{}"))
}

// enqueue queues messages for a channel outside any move.
func (s *Service) enqueue(channel string, msgs ...Message) error {
	entries := make([]store.OutboxEntry, len(msgs))
	for i, m := range msgs {
		entries[i] = outboxEntry(postMessage, m)
	}
	return s.cfg.Store.Enqueue(channel, entries...)
}

// legacyBoard draws a board queued by a release that kept only its
// position in the outbox (the moves it follows, its language), not its
// scene: the stored game is replayed to that position, as that release
// drew it. Only the boards waiting when the service was upgraded take this
// way; they are the only ones with a Board and no Picture.
func (s *sender) legacyBoard(channel string, at *boardAt) (File, error) {
	l, err := s.store.Load(channel)
	if err != nil {
		return File{}, err
	}
	rec := l.Record
	if at.Moves > len(rec.Log) {
		return File{}, fmt.Errorf("the board after move %d of a log of %d", at.Moves, len(rec.Log))
	}
	b, err := rebuild(s.catalog, s.log, rec, l.Snapshot, at.Moves)
	if err != nil {
		return File{}, err
	}
	return drawBoard(s.renderer, boardScene(at.Locale, rec, b.game, &b.told), boardAlt(at.Locale, rec, b.game, &b.told))
}
