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

// outboxPayload is what an outbox entry holds: the message, and for a
// board the position to draw when it is sent (a picture is not stored).
type outboxPayload struct {
	Message
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

// boardAt names the board picture after a game's first Moves moves, in a
// language. Narration, when known, is the part of the message's text that
// tells the moves, for merging queued boards (coalesce.go).
type boardAt struct {
	Moves     int
	Locale    string
	Narration *string `json:",omitempty"`
}

// outboxEntry wraps a message for the store.
func outboxEntry(kind postKind, m Message) store.OutboxEntry {
	payload, _ := json.Marshal(outboxPayload{Message: m}) // a Message always marshals
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

// finalEntries wraps a final reveal: its first post takes the buttons off
// the last board.
func finalEntries(msgs []Message) []store.OutboxEntry {
	entries := make([]store.OutboxEntry, len(msgs))
	for i, m := range msgs {
		kind := postMessage
		if i == 0 {
			kind = postFinal
		}
		entries[i] = outboxEntry(kind, m)
	}
	return entries
}

// drawBoard draws a channel's board as it stood after the first moves
// moves, from the stored game, outside any lock.
func (s *Service) drawBoard(channel string, at *boardAt) (File, error) {
	l, err := s.cfg.Store.Load(channel)
	if err != nil {
		return File{}, err
	}
	rec := l.Record
	if at.Moves > len(rec.Log) {
		return File{}, fmt.Errorf("the board after move %d of a log of %d", at.Moves, len(rec.Log))
	}
	b, err := s.rebuild(rec, l.Snapshot, at.Moves)
	if err != nil {
		return File{}, err
	}
	tmp := &table{house: s.house, rec: rec, game: b.game, history: b.history}
	png, err := tmp.boardPNG(at.Locale)
	if err != nil {
		return File{}, err
	}
	return File{Name: "board.png", ContentType: "image/png", Data: png}, nil
}
