package commands

import (
	"encoding/json"
	"strings"

	"conductor/store"
)

// Coalescing. When boards queue up in a channel (Discord slow or down, the global limit
// reached, a restart after an outage), posting each one would show pictures nobody needs any
// more and spend requests the whole bot shares. The sender merges a run of queued boards into
// one post:
//
//   - the picture, the buttons and the mentions are the newest board's: the older ones are
//     out of date, and their buttons would be refused as stale;
//   - the narration of every merged board is kept, oldest first, followed by the newest
//     board's last-round warning and next player: what players must read is never dropped;
//   - a run is consecutive boards, passing over turn DMs (they go to other channels and
//     follow it); any other post of the channel ends it, so that the channel reads in order;
//   - a run stops before its text would pass boardLimit: what does not fit goes in the next
//     post, with the picture of its own newest board.

// boardLimit is the most text a merged board may hold, as boardText allows one.
const boardLimit = 1900

// queuedBoard is a board waiting in the outbox, decoded.
type queuedBoard struct {
	e store.OutboxEntry
	p outboxPayload
}

// mergeable: the board's narration is known apart from the rest of its text.
func (q queuedBoard) mergeable() bool {
	return q.p.Board != nil && q.p.Board.Narration != nil && strings.HasPrefix(q.p.Content, *q.p.Board.Narration)
}

// boardRun returns the boards to post as one, starting with entries[0]; nil when entries[0]
// is not a board of the channel.
func boardRun(entries []store.OutboxEntry) []queuedBoard {
	first, ok := decodeBoard(entries[0])
	if !ok {
		return nil
	}
	run := []queuedBoard{first}
	if !first.mergeable() {
		return run
	}
	told := len(*first.p.Board.Narration)
	for _, e := range entries[1:] {
		if kindOf(e) == postDM {
			continue
		}
		q, ok := decodeBoard(e)
		if !ok || !q.mergeable() || told+len(q.p.Content) > boardLimit {
			break
		}
		run = append(run, q)
		told += len(*q.p.Board.Narration)
	}
	return run
}

// decodeBoard reads a board posted in the outbox's own channel.
func decodeBoard(e store.OutboxEntry) (queuedBoard, bool) {
	if kindOf(e) != postBoard {
		return queuedBoard{}, false
	}
	var p outboxPayload
	if json.Unmarshal(e.Payload, &p) != nil || p.To != "" || p.DM != "" {
		return queuedBoard{}, false
	}
	return queuedBoard{e: e, p: p}, true
}

// mergedBoard is the one message of a run: every board's narration, then the newest one.
func mergedBoard(run []queuedBoard) Message {
	newest := run[len(run)-1]
	m := newest.p.Message
	if len(run) == 1 {
		return m
	}
	var sb strings.Builder
	for _, q := range run[:len(run)-1] {
		sb.WriteString(*q.p.Board.Narration)
	}
	sb.WriteString(m.Content)
	m.Content = sb.String()
	return m
}
