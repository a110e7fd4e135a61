package recorded

import (
	"fmt"
	"slices"
	"strings"

	"conductor/data"
	"conductor/engine"
)

// scoreField is one number of a final count: its name in records, how to
// read it, and whether a board has it at all (the writer leaves out fields
// that are always zero on a board, such as goods outside Märklin).
type scoreField struct {
	name string
	of   func(*engine.PlayerScore) int
	on   func(*data.Board) bool
}

func always(*data.Board) bool { return true }

var scoreFields = []scoreField{
	{"total", func(p *engine.PlayerScore) int { return p.Total }, always},
	{"routes", func(p *engine.PlayerScore) int { return p.RoutePoints }, always},
	{"tickets", func(p *engine.PlayerScore) int { return p.TicketPoints }, always},
	{"completed", func(p *engine.PlayerScore) int { return p.CompletedTickets }, always},
	{"longest", func(p *engine.PlayerScore) int { return p.LongestPath }, always},
	{"bonus", func(p *engine.PlayerScore) int { return p.BonusPoints }, always},
	{"stations", func(p *engine.PlayerScore) int { return p.StationPoints }, func(b *data.Board) bool { return b.Rules.Stations > 0 }},
	{"built", func(p *engine.PlayerScore) int { return p.StationsBuilt }, func(b *data.Board) bool { return b.Rules.Stations > 0 }},
	{"goods", func(p *engine.PlayerScore) int { return p.GoodsPoints }, func(b *data.Board) bool { return b.Rules.Passengers > 0 }},
}

func fieldNames() string {
	var n []string
	for _, f := range scoreFields {
		n = append(n, f.name)
	}
	return strings.Join(n, ", ")
}

// ScoresOf writes a final count as record scores, with the fields board b has.
func ScoresOf(b *data.Board, fs *engine.FinalScore) []Score {
	out := make([]Score, len(fs.Players))
	for i := range fs.Players {
		out[i] = Score{}
		for _, f := range scoreFields {
			if f.on(b) {
				out[i][f.name] = f.of(&fs.Players[i])
			}
		}
	}
	return out
}

// Config is the engine configuration the record describes, with its board
// taken from cat.
func (g *Game) Config(cat *data.Catalog) (engine.Config, error) {
	b, err := cat.Board(g.Board)
	if err != nil {
		return engine.Config{}, fmt.Errorf("%s: %w", g.Name, err)
	}
	return engine.Config{Board: b, Variant: g.Variant, BonusTickets: g.BonusTickets, Players: g.Players, Seed: g.Seed, Revision: g.Rules}, nil
}

// NotatedMoves returns the moves as the engine's replay takes them.
func (g *Game) NotatedMoves() []engine.NotatedMove {
	out := make([]engine.NotatedMove, len(g.Moves))
	for i, m := range g.Moves {
		out[i] = engine.NotatedMove{Seat: m.Seat, Action: m.Action}
	}
	return out
}

// Replay plays the record's moves on a new game through
// engine.ReplayNotation, the path stored games are loaded by; observe, when
// not nil, sees the game and the events after each move. A refused move is
// named by its line in the file.
func (g *Game) Replay(cat *data.Catalog, observe func(*engine.Game, engine.Move, []engine.Event)) (*engine.Game, error) {
	cfg, err := g.Config(cat)
	if err != nil {
		return nil, err
	}
	done := 0
	eg, err := engine.ReplayNotation(cfg, g.NotatedMoves(), func(eg *engine.Game, m engine.Move, ev []engine.Event) {
		done++
		if observe != nil {
			observe(eg, m, ev)
		}
	})
	if err != nil {
		if done < len(g.Moves) {
			return eg, fmt.Errorf("%s:%d: %w", g.Name, g.Moves[done].Line, err)
		}
		return eg, fmt.Errorf("%s: %w", g.Name, err)
	}
	return eg, nil
}

// Check replays the record and lists every way the game departs from it: a
// refused move, and what Compare finds. None means the record holds.
func (g *Game) Check(cat *data.Catalog) []string {
	seen := Corners{}
	eg, err := g.Replay(cat, seen.See)
	if err != nil {
		return []string{err.Error()}
	}
	return g.Compare(eg, seen)
}

// Compare lists how a game, played to the end of the record's moves,
// departs from the record: not over, a score or ranking that differs, or
// (when seen is not nil: the corners its moves showed) a corner named in
// Checks that never happened.
func (g *Game) Compare(eg *engine.Game, seen Corners) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, g.Name+": "+fmt.Sprintf(format, args...)) }
	if eg.Phase() != engine.PhaseOver {
		bad("the game is not over after its %d moves (phase %v)", len(g.Moves), eg.Phase())
		return out
	}
	fs := eg.Final()
	for seat, want := range g.Scores {
		for _, f := range scoreFields {
			if w, listed := want[f.name]; listed {
				if v := f.of(&fs.Players[seat]); v != w {
					bad("seat %d %s: got %d, want %d", seat+1, f.name, v, w)
				}
			}
		}
	}
	if !slices.Equal(fs.Ranking, g.Ranking) {
		bad("ranking (seats, winner first): got %v, want %v", plusOne(fs.Ranking), plusOne(g.Ranking))
	}
	if seen != nil {
		seen.SeeFinal(fs)
		for _, c := range g.Checks {
			if !seen[c] {
				bad("the game never shows %s (%s)", c, corners[c])
			}
		}
	}
	return out
}

func plusOne(seats []int) []int {
	out := make([]int, len(seats))
	for i, s := range seats {
		out[i] = s + 1
	}
	return out
}
