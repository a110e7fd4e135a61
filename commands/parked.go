package commands

import (
	"encoding/json"
	"time"

	"conductor/data"
	"conductor/engine"
)

// parkedTable is what a table holds besides its game, stored while the
// table is out of memory.
type parkedTable struct {
	Pending    map[string]parkedAction `json:"pending,omitempty"`
	Undo       *parkedUndo             `json:"undo,omitempty"`
	BoardShown time.Time               `json:"board_shown,omitzero"`
}

type parkedAction struct {
	Action engine.Action `json:"action"`
	Pay    bool          `json:"pay,omitempty"`
	Trips  []engine.Trip `json:"trips,omitempty"`
	From   data.CityID   `json:"from,omitempty"`
	Turn   int           `json:"turn"`
}

type parkedUndo struct {
	LogLen int             `json:"log_len"`
	By     string          `json:"by"`
	Voters map[string]bool `json:"voters"`
	Agreed map[string]bool `json:"agreed"`
}

// parked encodes what must survive the table's absence; nil when nothing.
func (t *table) parked(now time.Time) []byte {
	if t.rec == nil {
		return nil
	}
	var p parkedTable
	for user, a := range t.pending {
		if p.Pending == nil {
			p.Pending = map[string]parkedAction{}
		}
		p.Pending[user] = parkedAction{Action: a.action, Pay: a.pay, Trips: a.trips, From: a.from, Turn: a.turn}
	}
	if u := t.undo; u != nil {
		p.Undo = &parkedUndo{LogLen: u.logLen, By: u.by, Voters: u.voters, Agreed: u.agreed}
	}
	if now.Sub(t.boardShown) < boardCooldown {
		p.BoardShown = t.boardShown
	}
	if p.Pending == nil && p.Undo == nil && p.BoardShown.IsZero() {
		return nil
	}
	data, _ := json.Marshal(&p) // plain data always marshals
	return data
}

// unpark restores what a table parked and, when clear, clears it from the
// store (a mirror leaves it to the owner).
func (t *table) unpark(data []byte, clear bool) {
	var p parkedTable
	if err := json.Unmarshal(data, &p); err != nil {
		t.log.Warn("unreadable parked table dropped", "channel", t.channel, "err", err)
	}
	for user, a := range p.Pending {
		t.pending[user] = pendingAction{action: a.Action, pay: a.Pay, trips: a.Trips, from: a.From, turn: a.Turn}
	}
	if u := p.Undo; u != nil {
		t.undo = &undoVote{logLen: u.LogLen, by: u.By, voters: u.Voters, agreed: u.Agreed}
		if t.undo.voters == nil {
			t.undo.voters = map[string]bool{}
		}
		if t.undo.agreed == nil {
			t.undo.agreed = map[string]bool{}
		}
	}
	t.boardShown = p.BoardShown
	if !clear {
		return
	}
	if err := t.store.Park(t.channel, nil); err != nil {
		t.log.Warn("clear a parked table", "channel", t.channel, "err", err)
	}
}
