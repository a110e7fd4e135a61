package engine_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"conductor/engine"
	"conductor/internal/testkit"
	"conductor/internal/testkit/recorded"
)

// A game restored from its snapshot is the game replayed, field for field,
// at every move of every recorded game, and plays on to the same end.
func TestSnapshotRestoresTheReplayedGame(t *testing.T) {
	cat := testkit.Catalog()
	for _, rg := range recorded.All(t) {
		t.Run(rg.Name, func(t *testing.T) {
			cfg, err := rg.Config(cat)
			if err != nil {
				t.Fatal(err)
			}
			moves := rg.NotatedMoves()
			g, err := engine.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for k := 0; k < len(moves); k++ {
				state := g.MarshalState()
				restored, err := engine.Restore(cfg, state, g.Log())
				if err != nil {
					t.Fatalf("move %d: %v", k, err)
				}
				if !reflect.DeepEqual(restored, g) {
					t.Fatalf("move %d: the restored game differs from the replayed one", k)
				}
				a, err := engine.ParseAction(cfg.Board, moves[k].Action)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Play(moves[k].Seat, a); err != nil {
					t.Fatalf("move %d: %v", k, err)
				}
				if k%37 == 0 {
					// The restored game plays on to the recorded end.
					for _, m := range moves[k:] {
						a, _ := engine.ParseAction(cfg.Board, m.Action)
						if err := restored.Play(m.Seat, a); err != nil {
							t.Fatalf("restored at move %d: %s: %v", k, m.Action, err)
						}
					}
					for _, p := range rg.Compare(restored, nil) {
						t.Errorf("restored at move %d: %s", k, p)
					}
				}
			}
			if g.MarshalState() != nil {
				t.Error("a finished game has a snapshot")
			}
		})
	}
}

func TestSnapshotRefusesWhatDoesNotFit(t *testing.T) {
	cat := testkit.Catalog()
	b, _ := cat.Board("europe")
	g, err := engine.New(engine.Config{Board: b, Players: 3, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	state := g.MarshalState()
	other, _ := cat.Board("usa")
	for name, tc := range map[string]struct {
		cfg   engine.Config
		state []byte
		want  error
	}{
		"version":   {engine.Config{Board: b, Players: 3, Seed: 4}, append([]byte{99}, state[1:]...), engine.ErrSnapshotVersion},
		"empty":     {engine.Config{Board: b, Players: 3, Seed: 4}, nil, engine.ErrSnapshotVersion},
		"cut short": {engine.Config{Board: b, Players: 3, Seed: 4}, state[:len(state)/2], nil},
		"players":   {engine.Config{Board: b, Players: 4, Seed: 4}, state, nil},
		"board":     {engine.Config{Board: other, Players: 3, Seed: 4}, state, nil},
		"trailing":  {engine.Config{Board: b, Players: 3, Seed: 4}, append(state[:len(state):len(state)], 1), nil},
	} {
		_, err := engine.Restore(tc.cfg, tc.state, nil)
		if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Every field a move can change is in the snapshot: a field added to the
// game's state must be added to snapshot.go too (and snapshotVersion
// raised), or restored games would silently lose it.
func TestSnapshotKnowsEveryField(t *testing.T) {
	known := map[string]string{
		"Game": "board variant cfg rng players phase current turn deck discard faceUp tickets owner station passenger goods " +
			"setupReturned tunnel finalTurns passes final log logBuf events narrate lastMove",
		"Player":      "Hand Tickets Pending Trains Stations Score Goods PassengersLeft PassengersUsed setupStep setupKept setupNeedMx givenBack shown gaveUp gaveUpSet",
		"tunnelState": "claim revealed extra",
		"lastMove":    "seat tracks cities",
		"givenBack":   "ticket boxed waiting above",
		"Action":      "Kind Slot Track City Color Locos Locos4 Passenger Long Keep Path",
	}
	seen := map[string]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || ty.PkgPath() != "conductor/engine" || seen[ty.Name()] {
			return
		}
		seen[ty.Name()] = true
		want, ok := known[ty.Name()]
		if !ok {
			return // not part of the state (FinalScore: over games have no snapshot)
		}
		fields := map[string]bool{}
		for _, f := range strings.Fields(want) {
			fields[f] = true
		}
		for i := range ty.NumField() {
			f := ty.Field(i)
			if !fields[f.Name] {
				t.Errorf("%s.%s is not in the snapshot: write it in engine/snapshot.go and raise snapshotVersion", ty.Name(), f.Name)
			}
			delete(fields, f.Name)
			walk(f.Type)
		}
		for f := range fields {
			t.Errorf("%s.%s is listed but gone", ty.Name(), f)
		}
	}
	walk(reflect.TypeOf(engine.Game{}))
}
