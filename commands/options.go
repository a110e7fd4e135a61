package commands

import (
	"strconv"
	"time"

	"conductor/store"
)

// TableOptions are a table's settings, as /ttr new chose them. On disk
// they stay the record's map of strings (store.GameRecord.Options), which
// also holds per-player marks (notify.<user>, hints_used.<seat>): every
// record ever written reads as before, and tableOptions is the one place
// the settings' keys and values are read.
type TableOptions struct {
	// Locale is the language of the table's public texts.
	Locale string
	// Parent is the channel a game thread was opened from; "" when the
	// table is not in a thread of its own.
	Parent string
	// TurnTimer is the time a player has for a turn; 0 when off.
	TurnTimer time.Duration
	// Confirm asks before a claim or a station is played.
	Confirm bool
	// BonusTickets adds the edition's bonus tickets.
	BonusTickets bool
	// NoHints turns /ttr hint off.
	NoHints bool
	// RematchOf is the id of the game this table is the rematch of.
	RematchOf string
}

// The settings' keys in the record's options, and their "on" values.
const (
	optLocale       = "locale"
	optParent       = "parent"
	optTurnTimer    = "turn_timer" // minutes
	optConfirm      = "confirm"
	optBonusTickets = "bonus_tickets"
	optHints        = "hints"
	optRematchOf    = "rematch_of"
	optOn           = "on"
	optOff          = "off"
)

// tableOptions reads a record's settings. A value it cannot read is the
// setting's default (a turn timer it cannot parse is off).
func tableOptions(rec *store.GameRecord) TableOptions {
	o := rec.Options
	minutes, _ := strconv.Atoi(o[optTurnTimer])
	return TableOptions{
		Locale:       o[optLocale],
		Parent:       o[optParent],
		TurnTimer:    time.Duration(max(minutes, 0)) * time.Minute,
		Confirm:      o[optConfirm] == optOn,
		BonusTickets: o[optBonusTickets] == optOn,
		NoHints:      o[optHints] == optOff,
		RematchOf:    o[optRematchOf],
	}
}

// write puts the settings into a record's options, as tableOptions reads
// them; a setting at its default is left out.
func (t TableOptions) write(o map[string]string) {
	set := func(key, v string) {
		if v == "" {
			delete(o, key)
		} else {
			o[key] = v
		}
	}
	on := func(b bool, v string) string {
		if b {
			return v
		}
		return ""
	}
	set(optLocale, t.Locale)
	set(optParent, t.Parent)
	set(optTurnTimer, on(t.TurnTimer > 0, strconv.Itoa(int(t.TurnTimer/time.Minute))))
	set(optConfirm, on(t.Confirm, optOn))
	set(optBonusTickets, on(t.BonusTickets, optOn))
	set(optHints, on(t.NoHints, optOff))
	set(optRematchOf, t.RematchOf)
}
