package commands

import (
	"strings"
	"testing"
	"time"
)

// Autocomplete answers from the table's snapshot while the table is locked
// (a move being decided), and long input is cut to what a choice can be.
func TestAutocompleteNeverWaitsForTheTable(t *testing.T) {
	w := newWorld(t)
	startedGame(t, w, nil)
	w.svc.mu.Lock()
	tb := w.svc.channels["c1"]
	w.svc.mu.Unlock()
	tb.mu.Lock() // held as by a slow move
	defer tb.mu.Unlock()
	got := make(chan answer, 1)
	go func() {
		got <- w.do(&Request{Type: AutocompleteRequest, User: "u1", Name: "claim", Focused: "route", Options: map[string]string{"route": ""}})
	}()
	select {
	case a := <-got:
		if len(a.choices) == 0 {
			t.Fatal("no routes offered from the snapshot")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("autocomplete waited for the table's lock")
	}
	long := strings.Repeat("Saint Louis ", 500)
	go func() {
		got <- w.do(&Request{Type: AutocompleteRequest, User: "u9", Name: "claim", Focused: "passenger", Options: map[string]string{"route": long, "passenger": long}})
	}()
	select {
	case a := <-got:
		for _, c := range a.choices {
			if len(c.Name) > 100 {
				t.Fatalf("a choice of %d characters", len(c.Name))
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("autocomplete with a long value waited")
	}
}

// BenchmarkAutocompleteLongInput: anyone in the server typing 6,000
// characters into /claim costs a few microseconds, not a table's time.
func BenchmarkAutocompleteLongInput(b *testing.B) {
	w := newWorld(b)
	startedGame(b, w, nil)
	long := strings.Repeat("Saint Louis ", 500)
	for _, bc := range []struct{ name, focused string }{{"route", "route"}, {"passenger", "passenger"}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := &fakeResponder{}
				w.svc.autocomplete(&Request{Type: AutocompleteRequest, Channel: "c1", User: "u9", Name: "claim", Focused: bc.focused,
					Options: map[string]string{"route": long, "passenger": long}}, r)
			}
		})
	}
}
