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

func TestRandomSelfPlayKeepsInvariants(t *testing.T) {
	cat := data.Embedded()
	// A hundred games per edition, variant and player count, 2,800 in all
	// (fewer under the race detector or -short); the soak, CONDUCTOR_SOAK=1
	// (.ci/run's last step), plays a thousand of each.
	games := 100
	switch {
	case os.Getenv("CONDUCTOR_SOAK") != "":
		games = 1000
	case testing.Short():
		games = 20
	case raceEnabled:
		games = 40
	}
	for _, b := range cat.Boards() {
		for _, v := range b.Variants {
			for players := 2; players <= 5; players++ {
				t.Run(fmt.Sprintf("%s/%s/%d", b.ID, v.ID, players), func(t *testing.T) {
					for seed := range uint64(games) {
						if _, err := randomGame(b, v.ID, players, seed, true); err != nil {
							t.Fatalf("seed %d: %v", seed, err)
						}
					}
				})
			}
		}
	}
}
