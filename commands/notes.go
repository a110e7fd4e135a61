package commands

import "sync"

// What the sender learns while it delivers a table's posts, the table
// must know too: the id of its lobby's message (which the lobby's expiry
// edits) and the players whose turn DMs Discord refused for good (their
// turn DMs are off, and they are owed word of it). The sender never locks
// a table to say so: it writes what it learned to the store, the truth
// after a restart, and leaves a note here, which the table takes into its
// copy of its record the next time it is locked (tableCache.get). A note
// read twice changes nothing the second time.

// tableNote is one thing the sender learned about a game.
type tableNote struct {
	// lobby is the id of the message that shows the game's lobby.
	lobby string
	// dmRefused is a player whose turn DM Discord refused for good.
	dmRefused string
}

// notes are the notes left for the tables, by game channel. Its lock is
// taken for a map operation, under a table's lock or none.
type notes struct {
	mu        sync.Mutex
	byChannel map[string][]tableNote
}

// leave leaves a note for the table of a game's channel.
func (n *notes) leave(channel string, nt tableNote) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.byChannel == nil {
		n.byChannel = map[string][]tableNote{}
	}
	n.byChannel[channel] = append(n.byChannel[channel], nt)
}

// take returns the notes left for a channel's table and forgets them.
func (n *notes) take(channel string) []tableNote {
	n.mu.Lock()
	defer n.mu.Unlock()
	ns := n.byChannel[channel]
	delete(n.byChannel, channel)
	return ns
}

// learn takes the sender's notes into the table's copy of its record. The
// table is locked.
func (t *table) learn(ns []tableNote) {
	for _, nt := range ns {
		if t.rec == nil {
			return
		}
		switch {
		case nt.lobby != "":
			if t.rec.Messages == nil {
				t.rec.Messages = map[string]string{}
			}
			t.rec.Messages["lobby"] = nt.lobby
		case nt.dmRefused != "":
			// The sender turned them off in the store, unless the player
			// asked for them again since: the store says which.
			key := notifyKey(nt.dmRefused)
			if t.rec.Options[key] != "on" {
				continue
			}
			stored, err := t.store.Header(t.channel)
			if err != nil || stored.Options[key] != notifyRefused {
				continue
			}
			t.rec.Options[key] = notifyRefused // owed word (tellDMsRefused)
		}
	}
}
