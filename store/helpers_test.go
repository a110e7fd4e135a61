package store

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

// testTimeout keeps lock failures in tests short.
const testTimeout = 200 * time.Millisecond

// base is a fixed instant so records compare exactly.
var base = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)

// openTemp opens a new store in a temporary directory with a fake clock that
// advances one second per reading.
func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "conductor.db")
	return openAt(t, path), path
}

func openAt(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(path, &Options{Timeout: testTimeout})
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	var tick atomic.Int64
	s.now = func() time.Time { return base.Add(time.Duration(tick.Add(1)) * time.Second) }
	t.Cleanup(func() { s.Close() })
	return s
}

// sampleGame is a game in channel with every field set and moves log entries.
func sampleGame(channel, guild string, moves int) *GameRecord {
	rec := &GameRecord{
		Channel: channel,
		Guild:   guild,
		ID:      "game-" + channel,
		Map:     "europe",
		Variant: "standard",
		Options: map[string]string{"bonus_tickets": "on", "turn_timer": "5m"},
		Seats: []Seat{
			{UserID: "u1", Name: "Ada", Color: "red"},
			{Name: "Bot 1", Bot: "hard", Color: "blue"},
		},
		Host:     "u1",
		Seed:     0xdeadbeefcafe,
		Created:  base,
		Status:   StatusPlaying,
		Messages: map[string]string{"board": "m-42"},
	}
	for i := 0; i < moves; i++ {
		rec.Log = append(rec.Log, LogEntry{
			Seat:        i % 2,
			Action:      fmt.Sprintf("claim Paris-Brest red %d", i),
			At:          base.Add(time.Duration(i) * time.Minute),
			Interaction: fmt.Sprintf("%s-i%d", channel, i),
		})
	}
	return rec
}

func mustPut(t testing.TB, s *Store, rec *GameRecord) {
	t.Helper()
	if err := s.Put(rec); err != nil {
		t.Fatalf("Put(%s): %v", rec.Channel, err)
	}
}

func mustGet(t testing.TB, s *Store, channel string) *GameRecord {
	t.Helper()
	rec, err := s.Get(channel)
	if err != nil {
		t.Fatalf("Get(%s): %v", channel, err)
	}
	return rec
}

func assertSame(t testing.TB, got, want *GameRecord) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("record differs:\n got  %+v\n want %+v", got, want)
	}
}
