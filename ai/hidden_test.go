package ai

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"

	"conductor/ai/match"
	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// TestBotsNeverReadHiddenState plays into many positions, then rewrites
// what the bot to move cannot see (opponents' hands, tickets and pending
// tickets) in a copy of the game. The two games look the same from the
// seat to move, so every bot must choose the same action in both.
func TestBotsNeverReadHiddenState(t *testing.T) {
	positions := 0
	for _, b := range testkit.Catalog().Boards() {
		for players := 2; players <= 4; players++ {
			m, err := newMatch(b, "", repeatLevel("hard", players), uint64(players))
			if err != nil {
				t.Fatal(err)
			}
			step := 0
			m.Before = func(d match.Decision) error {
				g, seat, v, legal := m.Game, d.Seat, d.View, d.Legal
				step++
				if step%7 != 0 || g.Phase() == engine.PhaseSetup {
					return nil
				}
				positions++
				other := g.Clone()
				scramble(other, seat)
				w := other.View(seat)
				if !reflect.DeepEqual(v, w) {
					t.Fatalf("%s: scrambling hidden state changed the view of seat %d", b.ID, seat)
				}
				if hiddenEqual(g, other, seat) {
					t.Fatalf("%s: scramble left the hidden state as it was", b.ID)
				}
				wl := other.LegalActions(seat, nil)
				for _, level := range allLevels {
					x, _ := New(level, 9)
					y, _ := New(level, 9)
					ax, ay := x.Choose(v, legal), y.Choose(w, wl)
					if !ax.Equal(ay) {
						t.Fatalf("%s %s: %s with the real hidden state, %s with another", b.ID, level,
							engine.FormatAction(b, ax), engine.FormatAction(b, ay))
					}
				}
				return nil
			}
			if err := m.Play(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if positions < 100 {
		t.Fatalf("only %d positions compared", positions)
	}
}

func repeatLevel(level string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = level
	}
	return out
}

// scramble rewrites the hidden state of every seat but seat: the colours
// of their cards (same count), their tickets and pending tickets (same
// count, other tickets). The engine's Player accessor is not meant for
// writing; this test does so on a copy, on purpose.
func scramble(g *engine.Game, seat int) {
	b := g.Board()
	for s := range g.NumPlayers() {
		if s == seat {
			continue
		}
		p := g.Player(s)
		total := p.Hand.Total()
		p.Hand = engine.Hand{}
		for i := range total {
			p.Hand[engine.ColorCard(data.CardColors[(i*3+s)%len(data.CardColors)])]++
		}
		for i := range p.Tickets {
			p.Tickets[i] = data.TicketID((int(p.Tickets[i]) + 7*(i+1)) % len(b.Tickets))
		}
		for i := range p.Pending {
			p.Pending[i] = data.TicketID((int(p.Pending[i]) + 5) % len(b.Tickets))
		}
	}
}

// hiddenEqual reports whether two games agree on every opponent's hand and tickets.
func hiddenEqual(g, h *engine.Game, seat int) bool {
	for s := range g.NumPlayers() {
		if s == seat {
			continue
		}
		p, q := g.Player(s), h.Player(s)
		if p.Hand != q.Hand || !reflect.DeepEqual(p.Tickets, q.Tickets) {
			return false
		}
	}
	return true
}

// TestBotsNeverTouchAGame checks the package's source: bots work from the
// view alone, so nothing outside the tests may name engine.Game or build
// or replay a game (which would give a bot the decks). The expert's search
// (expert.go, rollout.go, inference.go) plays out games, but only games it
// determinised from its view: engine.Determinize (or DeterminizeWeighted)
// is the one way it gets them.
func TestBotsNeverTouchAGame(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	search := map[*ast.File]bool{}
	determinized := false
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
			search[f] = name == "expert.go" || name == "rollout.go" || name == "inference.go"
		}
	}
	forbidden := map[string]bool{"Game": true, "New": true, "Replay": true, "ReplayNotation": true}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok || id.Name != "engine" {
				return true
			}
			if sel.Sel.Name == "Determinize" || sel.Sel.Name == "DeterminizeWeighted" {
				determinized = true
			}
			if sel.Sel.Name == "Game" && search[f] {
				return true
			}
			if forbidden[sel.Sel.Name] {
				t.Errorf("%s uses engine.%s; bots must play from the PlayerView alone", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
	if len(files) < 5 {
		t.Fatalf("only %d source files found", len(files))
	}
	if !determinized {
		t.Fatal("the expert's search does not build its games with engine.Determinize")
	}
}
