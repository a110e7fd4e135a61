package engine

import (
	"reflect"
	"testing"

	"conductor/data"
)

// ViewInto, filling one view again and again, gives what View gives (up
// to empty slices standing for nil ones) in every phase of random games
// on every edition, whatever the view held before.
func TestViewIntoMatchesView(t *testing.T) {
	cat := data.Embedded()
	views := 0
	for _, b := range cat.Boards() {
		for players := 2; players <= 5; players++ {
			var into PlayerView
			g, err := New(Config{Board: b, Players: players, Seed: uint64(players)})
			if err != nil {
				t.Fatal(err)
			}
			pick := newRNG(uint64(players) ^ 0x71e)
			var buf []Action
			for steps := 0; g.Phase() != PhaseOver && steps < 3000; steps++ {
				seat := g.ToAct()
				for s := range players {
					g.ViewInto(s, &into)
					if want := g.View(s); !sameView(into, want) {
						t.Fatalf("%s, %d players, step %d, seat %d: ViewInto\n%+v\nView\n%+v", b.ID, players, steps, s, into, want)
					}
					views++
				}
				buf = g.LegalActions(seat, buf[:0])
				if err := g.Play(seat, buf[pick.intn(len(buf))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if views < 1000 {
		t.Fatalf("only %d views compared", views)
	}
	// The comparison itself: nil and empty alike, a change anywhere seen.
	g, err := New(Config{Board: cat.Boards()[0], Players: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	v, w := g.View(1), g.View(1)
	w.LastMoveTracks, v.LastMoveTracks = []data.TrackID{}, nil
	if !sameView(v, w) {
		t.Fatal("sameView tells an empty slice from nil")
	}
	for name, change := range map[string]func(*PlayerView){
		"an owner":         func(w *PlayerView) { w.Owners[3]++ },
		"a seat's count":   func(w *PlayerView) { w.Players[2].Trains-- },
		"a pending ticket": func(w *PlayerView) { w.Pending = append(w.Pending, 0) },
	} {
		w := g.View(1)
		change(&w)
		if sameView(v, w) {
			t.Fatalf("sameView misses a change of %s", name)
		}
	}
}

// sameView compares two views, an empty slice standing for nil.
func sameView(a, b PlayerView) bool {
	return sameValue(reflect.ValueOf(a), reflect.ValueOf(b))
}

// sameValue compares two values of one type: slices and arrays element by
// element (nil and empty alike), structs field by field, maps key by key,
// pointers by what they point to but a board by its address, the rest
// with ==. It walks the values instead of printing them: the test compares
// a view per seat at every step of its games.
func sameValue(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if w := b.MapIndex(k); !w.IsValid() || !sameValue(a.MapIndex(k), w) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() || a.Type().Elem() == reflect.TypeOf(data.Board{}) {
			return a.Pointer() == b.Pointer()
		}
		return sameValue(a.Elem(), b.Elem())
	}
	return a.Interface() == b.Interface()
}
