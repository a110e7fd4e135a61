package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// Every entry a log may hold comes back as it was written: times of any
// precision (the zero time too), seats out of the usual range, decimal and
// other interaction ids, any notation.
func TestLogCodecRoundTrip(t *testing.T) {
	ms := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	entries := []LogEntry{
		{Seat: 0, Action: "draw deck", At: ms, Interaction: "1300000000000000123"},
		{Seat: 1, Action: "claim Paris|Frankfurt|white pay=white loco=1", At: ms.Add(1500 * time.Millisecond), Interaction: "i-7"},
		{Seat: 4, Action: "keep 0,2", At: ms.Add(-time.Hour)},
		{Seat: 6, Action: "", At: base, Interaction: "0123"},
		{Seat: 7, Action: "pass", At: time.Time{}, Interaction: "0"},
		{Seat: -1, Action: "tunnel pay loco=1", At: base.Add(time.Nanosecond), Interaction: "18446744073709551615"},
		{Seat: 1000, Action: "ünïcödé Zürich–Wien", At: ms.Add(90 * 24 * time.Hour), Interaction: "18446744073709551616"},
		{Seat: 2, Action: "draw 3", At: time.Date(1969, 7, 20, 20, 17, 40, 0, time.UTC)},
		{Seat: 3, Action: "draw 4", At: time.Date(2300, 1, 1, 0, 0, 0, 1, time.UTC)},
	}
	for _, seal := range []bool{false, true} {
		got, err := decodeChunk(nil, encodeChunk(entries, seal))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, entries) {
			t.Fatalf("sealed %v:\n got  %+v\n want %+v", seal, got, entries)
		}
	}
	// Appending entry by entry gives what encoding them at once does.
	var chunk []byte
	for i := range entries {
		var last *time.Time
		if i > 0 {
			last = &entries[i-1].At
		}
		chunk = appendToChunk(chunk, &entries[i], last)
	}
	if got, err := decodeChunk(nil, chunk); err != nil || !reflect.DeepEqual(got, entries) {
		t.Fatalf("appended: %+v %v", got, err)
	}
}

// A move the service writes (a whole millisecond, a snowflake) costs a few
// bytes more than its notation; a sealed chunk is smaller still.
func TestLogCodecIsCompact(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rng := rand.New(rand.NewPCG(1, 2))
	var entries []LogEntry
	notation := 0
	for i := range chunkLen {
		at = at.Add(time.Duration(rng.IntN(3600_000)) * time.Millisecond)
		e := LogEntry{Seat: i % 3, At: at, Interaction: fmt.Sprint(1300000000000000000 + rng.Uint64N(1e17)), Action: "draw deck"}
		if i%3 == 0 {
			e.Action = "claim Paris|Frankfurt|white pay=white loco=1"
		}
		notation += len(e.Action)
		entries = append(entries, e)
	}
	raw, sealed := len(encodeChunk(entries, false)), len(encodeChunk(entries, true))
	if raw > notation+16*chunkLen {
		t.Errorf("a chunk of %d moves takes %d bytes for %d of notation", chunkLen, raw, notation)
	}
	if sealed >= raw {
		t.Errorf("sealed %d bytes, raw %d", sealed, raw)
	}
	t.Logf("%d moves: notation %d bytes, raw chunk %d, sealed %d", chunkLen, notation, raw, sealed)
}

func TestCorruptChunksAreRefused(t *testing.T) {
	good := encodeChunk([]LogEntry{{Seat: 1, Action: "draw deck", At: base, Interaction: "x"}}, false)
	for name, v := range map[string][]byte{
		"empty":       {},
		"format":      append([]byte{9}, good[1:]...),
		"cut":         good[:len(good)-2],
		"head":        {chunkRaw, 0x80},
		"delta first": {chunkRaw, byte(timeDelta) << 3, 2, 0},
		"flate":       {chunkFlate, 1, 2, 3},
	} {
		if _, err := decodeChunk(nil, v); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

// A long log is kept in chunks: appending touches the last one, cutting it
// (an undo) rewrites from the cut, and a replayed interaction is refused
// across a chunk's edge.
func TestLogChunks(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		rec := sampleGame("c1", "g1", 0)
		mustPut(t, s, rec)
		for i := range 3*chunkLen + 5 {
			e := LogEntry{Seat: i % 2, Action: fmt.Sprint("draw ", i), At: base.Add(time.Duration(i) * time.Second).Truncate(time.Millisecond), Interaction: fmt.Sprint(1000 + i)}
			n, err := s.AppendAction("c1", e)
			if err != nil || n != i {
				t.Fatalf("append %d: %d, %v", i, n, err)
			}
			rec.Log = append(rec.Log, e)
		}
		got := mustGet(t, s, "c1")
		if !reflect.DeepEqual(got.Log, rec.Log) {
			t.Fatalf("log after appends differs")
		}
		chunks := 0
		if err := s.view(func(t2 txn) error {
			cs, err := t2.chunks("c1")
			for _, c := range cs {
				chunks++
				if sealed := c.Data[0] == chunkFlate; sealed != (chunks <= 3) || c.I != chunks-1 {
					t.Errorf("chunk %d: number %d, format %d", chunks-1, c.I, c.Data[0])
				}
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if chunks != 4 {
			t.Fatalf("%d chunks for %d moves", chunks, len(rec.Log))
		}
		// The entry just before the last chunk's edge is still recognised.
		if _, err := s.AppendAction("c1", LogEntry{Action: "again", Interaction: rec.Log[3*chunkLen-1].Interaction}); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("replay across a chunk's edge: %v", err)
		}
		if err := s.Update("c1", func(r *GameRecord) error { r.Log = r.Log[:chunkLen+3]; return nil }); err != nil {
			t.Fatal(err)
		}
		if got := mustGet(t, s, "c1"); !reflect.DeepEqual(got.Log, rec.Log[:chunkLen+3]) {
			t.Fatalf("cut log: %d entries", len(got.Log))
		}
		if n, err := s.AppendAction("c1", LogEntry{Action: "after the cut", Interaction: "later"}); err != nil || n != chunkLen+3 {
			t.Fatalf("append after the cut: %d, %v", n, err)
		}
	})
}
