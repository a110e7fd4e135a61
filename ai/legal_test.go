package ai

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"conductor/internal/testkit"
)

// allLevels are every bot New knows but the expert, whose searches are too
// slow for these many games; expert_test.go gives it its own, fewer games.
var allLevels = append(append([]string(nil), Levels[:3]...), Baselines...)

// TestBotsPlayOnlyLegalActions plays games on every edition and variant
// with 2 to 5 players, every level taking seats in turn, and checks that
// every action chosen is one of the legal ones and that each game ends.
// Its subtests compute and never wait, so they run one after another:
// in parallel they would gain nothing where go test keeps both cores busy
// with other packages, and would run under the race detector
// (internal/testall) for nothing new, bots playing side by side being
// ai/arena's tests' (Workers: 2).
func TestBotsPlayOnlyLegalActions(t *testing.T) {
	for _, b := range testkit.Catalog().Boards() {
		for _, v := range b.Variants {
			t.Run(b.ID+"/"+v.ID, func(t *testing.T) {
				for players := 2; players <= 5; players++ {
					// Enough games that every level sits at this table.
					games := (len(allLevels) + players - 1) / players
					for g := range games {
						levels := make([]string, players)
						for s := range levels {
							levels[s] = allLevels[(g*players+s)%len(allLevels)]
						}
						seed := uint64(players*100 + g)
						m, err := newMatch(b, v.ID, levels, seed)
						if err != nil {
							t.Fatal(err)
						}
						if err := m.Play(context.Background()); err != nil {
							t.Fatalf("%d players %s, seed %d: %v", players, strings.Join(levels, ","), seed, err)
						}
						if m.Game.Final() == nil {
							t.Fatalf("%d players %s: game not scored", players, strings.Join(levels, ","))
						}
					}
				}
			})
		}
	}
}

func TestNewKnowsEveryLevel(t *testing.T) {
	for _, l := range allLevels {
		if b, err := New(l, 1); err != nil || b == nil {
			t.Errorf("New(%q): %v", l, err)
		}
	}
	_, err := New("grandmaster", 1)
	if err == nil {
		t.Fatal("an unknown level is refused")
	}
	for _, l := range allLevels {
		if !strings.Contains(err.Error(), l) {
			t.Errorf("the error %q should list the level %q", err, l)
		}
	}
}

func ExampleNew() {
	bot, err := New("hard", 42)
	fmt.Println(bot != nil, err)
	// Output: true <nil>
}
