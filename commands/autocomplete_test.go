package commands

import (
	"strings"
	"testing"
	"time"
)

// Autocomplete answers from the table's snapshot while the table is locked
// (a move being decided), and long input is cut to what a choice can be.
func TestAutocompleteNeverWaitsForTheTable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, nil)
	tb, _ := w.svc.tables.loaded("c1")
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
				w.svc.autocomplete(&Request{Type: AutocompleteRequest, Channel: "c1", User: "u9", Name: "claim", Focused: bc.focused,
					Options: map[string]string{"route": long, "passenger": long}})
			}
		})
	}
}

// /ttr new's variants follow the map typed so far, named in the player's
// language; bot levels say what they are.
func TestNewTableVariantsFollowTheMap(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.configure(func(c *Config) { c.BotLevels = []string{"easy", "normal", "hard", "expert"} })
	ask := func(loc string, opts map[string]string, focused string) []Choice {
		opts[focused] = ""
		return w.do(&Request{Type: AutocompleteRequest, User: "u1", Name: "ttr", Sub: "new", Locale: loc, Focused: focused, Options: opts}).choices
	}
	m := ask("en-US", map[string]string{"map": "marklin"}, "variant")
	if len(m) != 1 || m[0].Value != "standard" {
		t.Errorf("Märklin's variants: %+v", m)
	}
	eu := ask("fr", map[string]string{"map": "europe"}, "variant")
	names := map[string]string{}
	for _, c := range eu {
		names[c.Value] = c.Name
	}
	if len(eu) != 4 || names["classic"] != "Classique" || names["mega"] == "" {
		t.Errorf("Europe's variants in French: %+v", eu)
	}
	if us := ask("en-US", map[string]string{}, "variant"); len(us) != 2 {
		t.Errorf("without a map, USA's variants: %+v", us)
	}
	lv := w.do(&Request{Type: AutocompleteRequest, User: "u1", Name: "ttr", Sub: "addbot", Locale: "de", Focused: "level", Options: map[string]string{"level": ""}}).choices
	if len(lv) != 4 || lv[3].Value != "expert" || !strings.Contains(lv[3].Name, "Experte") {
		t.Errorf("levels in German: %+v", lv)
	}
}
