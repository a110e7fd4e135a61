package commands

import "conductor/store"

// postKind says what an outbox entry is to its table. The store keeps it
// as the entry's Kind, a string it does not read: these are the values
// commands writes, and compares through kindOf.
type postKind string

const (
	postMessage   postKind = ""          // a message of the table
	postBoard     postKind = "board"     // a board: its id is kept, the one before loses its buttons
	postFinal     postKind = "final"     // a final reveal's first post: the last board loses its buttons
	postLobby     postKind = "lobby"     // a lobby: its id is kept for its expiry's edit
	postEdit      postKind = "edit"      // an edit of an earlier post
	postDM        postKind = "dm"        // a turn DM, in its player's own queue
	postElsewhere postKind = "elsewhere" // a message for another channel (a thread's parent)
	postArchive   postKind = "archive"   // the archiving of a finished game's thread
)

// kindOf is what an outbox entry is to its table.
func kindOf(e store.OutboxEntry) postKind { return postKind(e.Kind) }

// entryOf is an outbox entry of a kind.
func entryOf(kind postKind, payload []byte) store.OutboxEntry {
	return store.OutboxEntry{Kind: string(kind), Payload: payload}
}
