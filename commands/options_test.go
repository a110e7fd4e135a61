package commands

import (
	"maps"
	"testing"
	"time"

	"conductor/store"
)

// Records written before TableOptions existed (a map of strings, with
// per-player marks beside the settings) read as the settings they hold,
// and writing the settings back changes nothing else.
func TestTableOptionsReadOldRecords(t *testing.T) {
	t.Parallel()
	old := map[string]string{"locale": "fr", "parent": "p1", "turn_timer": "1440", "confirm": "on",
		"bonus_tickets": "on", "hints": "off", "rematch_of": "g0", "notify.u1": "on", "hints_used.0": "2"}
	got := tableOptions(&store.GameRecord{Options: old})
	want := TableOptions{Locale: "fr", Parent: "p1", TurnTimer: 24 * time.Hour, Confirm: true, BonusTickets: true, NoHints: true, RematchOf: "g0"}
	if got != want {
		t.Fatalf("read %+v, want %+v", got, want)
	}
	again := maps.Clone(old)
	got.write(again)
	if !maps.Equal(again, old) {
		t.Fatalf("writing the settings back changed the record: %v, was %v", again, old)
	}
	// Defaults, and values nobody wrote: a turn timer "off" (or garbage)
	// is no timer, anything but "on" is off, hints are on unless "off".
	odd := map[string]string{"turn_timer": "x", "confirm": "yes", "hints": "on"}
	if got := tableOptions(&store.GameRecord{Options: odd}); got != (TableOptions{}) {
		t.Fatalf("odd values read %+v, want the defaults", got)
	}
	if got := tableOptions(&store.GameRecord{}); got != (TableOptions{}) {
		t.Fatalf("a record without options reads %+v", got)
	}
	empty := map[string]string{}
	TableOptions{}.write(empty)
	if len(empty) != 0 {
		t.Fatalf("default settings wrote %v", empty)
	}
}
