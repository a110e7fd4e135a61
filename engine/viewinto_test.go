package engine

import (
	"fmt"
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
}

// sameView compares two views, an empty slice standing for nil.
func sameView(a, b PlayerView) bool {
	return fmt.Sprint(normalized(reflect.ValueOf(a))) == fmt.Sprint(normalized(reflect.ValueOf(b)))
}

// normalized turns a value into plain nested lists and maps with empty
// slices and nil slices alike, for comparing.
func normalized(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = normalized(v.Index(i))
		}
		return out
	case reflect.Struct:
		out := map[string]any{}
		for i := range v.NumField() {
			out[v.Type().Field(i).Name] = normalized(v.Field(i))
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		if v.Type().Elem() == reflect.TypeOf(data.Board{}) {
			return v.Pointer()
		}
		return normalized(v.Elem())
	}
	return v.Interface()
}
