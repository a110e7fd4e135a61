// Package testkit holds the test helpers several packages share: finding
// boards, cities and tracks by the names printed on the map. It imports
// data only, so the engine's own tests can use it; recorded games, which
// need the engine, are in the sub-package recorded.
package testkit

import (
	"sync"
	"testing"

	"conductor/data"
)

var catalog = sync.OnceValue(data.Embedded)

// Catalog returns the embedded boards, parsed once for the whole test
// binary. Its boards are shared: a test that changes one must copy it.
func Catalog() *data.Catalog { return catalog() }

// Board returns the embedded board id.
func Board(t testing.TB, id string) *data.Board {
	t.Helper()
	b, err := Catalog().Board(id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// City returns the city (or country) printed as name on b.
func City(t testing.TB, b *data.Board, name string) data.CityID {
	t.Helper()
	c, ok := b.City(name)
	if !ok {
		t.Fatalf("no city %q on %s", name, b.ID)
	}
	return c
}

// Tracks returns the tracks of colour col between two cities, lowest id
// first (two when a double route has one colour twice).
func Tracks(t testing.TB, b *data.Board, a, z string, col data.Color) []data.TrackID {
	t.Helper()
	out := between(t, b, a, z, func(tr *data.Track) bool { return tr.Color == col })
	if len(out) == 0 {
		t.Fatalf("no %s track %s – %s on %s", col, a, z, b.ID)
	}
	return out
}

// Track returns the first track of colour col between two cities.
func Track(t testing.TB, b *data.Board, a, z string, col data.Color) data.TrackID {
	t.Helper()
	return Tracks(t, b, a, z, col)[0]
}

// AnyTrack returns the first track between two cities, whatever its colour.
func AnyTrack(t testing.TB, b *data.Board, a, z string) data.TrackID {
	t.Helper()
	out := between(t, b, a, z, func(*data.Track) bool { return true })
	if len(out) == 0 {
		t.Fatalf("no track %s – %s on %s", a, z, b.ID)
	}
	return out[0]
}

func between(t testing.TB, b *data.Board, a, z string, keep func(*data.Track) bool) []data.TrackID {
	t.Helper()
	ca, cz := City(t, b, a), City(t, b, z)
	var out []data.TrackID
	for _, id := range b.Adj[ca] {
		if tr := &b.Tracks[id]; tr.Other(ca) == cz && keep(tr) {
			out = append(out, id)
		}
	}
	return out
}
