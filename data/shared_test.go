package data

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// factsDir holds a copy of the cross-checked facts the boards were written
// from (see its README.md), so that the comparison runs on every clone.
const factsDir = "testdata"

// TestBoardsMatchSharedFacts compares every route and ticket with the facts,
// so that a typo in a length or a value cannot slip in when positions are
// edited by hand.
func TestBoardsMatchSharedFacts(t *testing.T) {
	c := Embedded()
	for _, id := range []string{"usa", "europe", "marklin"} {
		src, err := os.ReadFile(filepath.Join(factsDir, id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var facts struct {
			Cities []struct {
				Name       string
				Goods      string
				GoodsStack []int `json:"goods_stack"`
			}
			Routes []struct {
				A, B, Color string
				Length      int
				Tunnel      bool
				Locomotives int
			}
			Tickets           []map[string]any
			Tickets1910       []map[string]any `json:"tickets_1910"`
			TicketsSubstitute []map[string]any `json:"tickets_substitute"`
		}
		if err := json.Unmarshal(src, &facts); err != nil {
			t.Fatal(err)
		}
		b, _ := c.Board(id)
		var want, got []string
		for _, r := range facts.Routes {
			want = append(want, routeKey(r.A, r.B, r.Length, r.Color, r.Tunnel, r.Locomotives))
		}
		for _, tr := range b.Tracks {
			got = append(got, routeKey(b.Cities[tr.A].Name, b.Cities[tr.B].Name, tr.Length, tr.Color.String(), tr.Tunnel, tr.Locomotives))
		}
		sameSet(t, id+" routes", got, want)

		want, got = nil, nil
		add := func(list []map[string]any, deck string) {
			for _, m := range list {
				d := deck
				if s, ok := m["set"].(string); ok {
					d = s
				}
				long := m["long"] == true || m["deck"] == "long"
				want = append(want, ticketKey(m["a"].(string), m["b"].(string), int(m["points"].(float64)), d, long, m["big_cities"] == true && id == "europe"))
			}
		}
		switch id {
		case "usa":
			add(facts.Tickets, "usa")
			add(facts.Tickets1910, "1910")
		case "europe":
			add(facts.Tickets, "")
		case "marklin":
			add(facts.TicketsSubstitute, "marklin")
		}
		for _, tk := range b.Tickets {
			got = append(got, ticketKey(b.Cities[tk.A].Name, b.Cities[tk.B].Name, tk.Points, tk.Deck, tk.Long, tk.BigCities && id == "europe"))
		}
		sameSet(t, id+" tickets", got, want)

		for _, fc := range facts.Cities {
			cid, ok := b.City(fc.Name)
			if !ok {
				t.Errorf("%s: city %s missing", id, fc.Name)
				continue
			}
			if got := b.Cities[cid]; got.Goods != fc.Goods || fmt.Sprint(got.GoodsStack) != fmt.Sprint(fc.GoodsStack) {
				t.Errorf("%s: %s goods %s %v, want %s %v", id, fc.Name, got.Goods, got.GoodsStack, fc.Goods, fc.GoodsStack)
			}
		}
	}
}

func routeKey(a, b string, length int, color string, tunnel bool, locos int) string {
	if a > b {
		a, b = b, a
	}
	return fmt.Sprintf("%s|%s|%d|%s|%v|%d", a, b, length, color, tunnel, locos)
}

func ticketKey(a, b string, points int, deck string, long, big bool) string {
	if a > b {
		a, b = b, a
	}
	return fmt.Sprintf("%s|%s|%d|%s|%v|%v", a, b, points, deck, long, big)
}

func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(got)
	sort.Strings(want)
	if fmt.Sprint(got) == fmt.Sprint(want) {
		return
	}
	count := map[string]int{}
	for _, w := range want {
		count[w]++
	}
	for _, g := range got {
		count[g]--
	}
	for k, n := range count {
		switch {
		case n > 0:
			t.Errorf("%s: missing %s", what, k)
		case n < 0:
			t.Errorf("%s: not in the facts: %s", what, k)
		}
	}
}
