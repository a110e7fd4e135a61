package engine

import (
	"fmt"
	"os"
	"testing"

	"conductor/data"
)

// randomGame plays a whole game choosing uniformly among legal actions,
// checking the invariants after every action when check is set.
func randomGame(b *data.Board, variant string, players int, seed uint64, check bool) (*Game, error) {
	g, err := New(Config{Board: b, Variant: variant, Players: players, Seed: seed})
	if err != nil {
		return nil, err
	}
	pick := newRNG(seed ^ 0x5eed)
	var buf []Action
	for steps := 0; g.Phase() != PhaseOver; steps++ {
		if steps > 5000 {
			return g, fmt.Errorf("no end after %d actions (turn %d)", steps, g.turn)
		}
		seat := g.ToAct()
		buf = g.LegalActions(seat, buf[:0])
		if len(buf) == 0 {
			return g, fmt.Errorf("seat %d has no legal action in phase %v", seat, g.Phase())
		}
		a := buf[pick.intn(len(buf))]
		if err := g.Play(seat, a); err != nil {
			return g, fmt.Errorf("legal action %+v refused: %v", a, err)
		}
		if check {
			if err := checkInvariants(g); err != nil {
				return g, fmt.Errorf("after %+v by seat %d: %v", a, seat, err)
			}
		}
	}
	return g, nil
}

// TestRandomSelfPlayKeepsInvariants plays random games on every edition,
// variant and player count, checking the invariants after every action:
// a hundred of each, 2,800 in all (40 of each under the race detector, 20
// with -short).
func TestRandomSelfPlayKeepsInvariants(t *testing.T) {
	games := 100
	switch {
	case testing.Short():
		games = 20
	case raceEnabled:
		games = 40
	}
	forEachTable(t, func(t *testing.T, b *data.Board, variant string, players int) {
		playRandomGames(t, b, variant, players, games)
	})
}

// TestRandomSelfPlaySoak is the soak, .ci/run's last step
// (CONDUCTOR_SOAK=1): the same with a thousand games of each, the tables
// side by side on every core.
func TestRandomSelfPlaySoak(t *testing.T) {
	if os.Getenv("CONDUCTOR_SOAK") == "" {
		t.Skip("the soak of 28,000 games: set CONDUCTOR_SOAK=1 (.ci/run does)")
	}
	forEachTable(t, func(t *testing.T, b *data.Board, variant string, players int) {
		t.Parallel()
		playRandomGames(t, b, variant, players, 1000)
	})
}

// forEachTable runs f as a subtest for every edition, variant and player
// count.
func forEachTable(t *testing.T, f func(t *testing.T, b *data.Board, variant string, players int)) {
	for _, b := range data.Embedded().Boards() {
		for _, v := range b.Variants {
			for players := 2; players <= 5; players++ {
				t.Run(fmt.Sprintf("%s/%s/%d", b.ID, v.ID, players), func(t *testing.T) { f(t, b, v.ID, players) })
			}
		}
	}
}

// playRandomGames plays games random games at one table, seeds 0 on.
func playRandomGames(t *testing.T, b *data.Board, variant string, players, games int) {
	for seed := range uint64(games) {
		if _, err := randomGame(b, variant, players, seed, true); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}
