// Command recordgames plays the games kept in engine/testdata/games and
// writes them as records (see internal/testkit/recorded): bot games, at
// least one per edition and variant, and games steered towards rule
// corners (tunnels, ferries, stations, Märklin passengers, ties). Run it
// from the module root:
//
//	go run ./internal/recordgames              # write every record
//	go run ./internal/recordgames -only NAME   # write one
//
// The records are fixtures: the engine's tests replay them and expect the
// scores written here. Rewrite them only when the rules change on purpose,
// and read the scores that move.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"

	"conductor/ai"
	"conductor/ai/match"
	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit/recorded"
)

func main() {
	only := flag.String("only", "", "write only the record of this name")
	out := flag.String("dir", "", "where to write (default: engine/testdata/games)")
	flag.Parse()
	dir := *out
	if dir == "" {
		var err error
		if dir, err = recorded.Dir(); err != nil {
			log.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	cat := data.Embedded()
	found := false
	for _, s := range allSpecs() {
		if *only != "" && s.name != *only {
			continue
		}
		found = true
		g, err := s.record(cat)
		if err != nil {
			log.Fatalf("%s: %v", s.name, err)
		}
		if err := recorded.Write(dir, g); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-24s seed %-6d %4d moves  %s\n", g.Name, g.Seed, len(g.Moves), strings.Join(g.Checks, " "))
	}
	if !found {
		log.Fatalf("no record called %q", *only)
	}
}

// allSpecs returns every record to write: each spec under the latest rules
// revision, named as it is, and under every earlier revision, named
// NAME-rulesN, since stored games started under an old revision replay
// under it for ever.
func allSpecs() []spec {
	var out []spec
	for _, s := range specs {
		s.rules = engine.LatestRevision
		out = append(out, s)
	}
	for r := engine.LatestRevision - 1; r >= 1; r-- {
		for _, s := range specs {
			s.name = fmt.Sprintf("%s-rules%d", s.name, r)
			s.rules = r
			s.about = append(slices.Clone(s.about), fmt.Sprintf("Under rules revision %d, as games started before revision %d replay.", r, r+1))
			out = append(out, s)
		}
	}
	return out
}

// spec describes one record: the table, the bots, how they are steered and
// the corners the game must show. Seeds are tried from seed upwards until a
// game shows every corner wanted.
type spec struct {
	name    string
	about   []string
	board   string
	variant string
	rules   int      // the engine's rules revision
	levels  []string // a bot level per seat
	seed    uint64
	steer   func() steerFunc
	want    []string
}

// steered is a bot whose choices a steerFunc may replace.
type steered struct {
	bot   match.Bot
	g     *engine.Game
	seat  int
	steer steerFunc
}

func (s steered) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	return s.steer(s.g, s.seat, legal, s.bot.Choose(v, slices.Clone(legal)))
}

// steerFunc may replace a bot's choice to lead the game into a rule corner;
// it returns the bot's choice when it has nothing to say. A spec's steer
// makes a fresh one for each game, since some keep count.
type steerFunc func(g *engine.Game, seat int, legal []engine.Action, chosen engine.Action) engine.Action

const maxTries = 400

func (s spec) record(cat *data.Catalog) (*recorded.Game, error) {
	b, err := cat.Board(s.board)
	if err != nil {
		return nil, err
	}
	for seed := s.seed; seed < s.seed+maxTries; seed++ {
		g, err := s.play(b, seed)
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", seed, err)
		}
		if g != nil {
			return g, nil
		}
	}
	return nil, fmt.Errorf("no game from seed %d to %d shows %v", s.seed, s.seed+maxTries-1, s.want)
}

// play plays one game and returns its record, or nil when the game does not
// show every corner wanted.
func (s spec) play(b *data.Board, seed uint64) (*recorded.Game, error) {
	cfg := engine.Config{Board: b, Variant: s.variant, Players: len(s.levels), Seed: seed, Revision: s.rules}
	g, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	var steer steerFunc
	if s.steer != nil {
		steer = s.steer()
	}
	bots := make([]match.Bot, len(s.levels))
	for i, l := range s.levels {
		if bots[i], err = ai.New(l, seed*31+uint64(i)); err != nil {
			return nil, err
		}
		if steer != nil {
			bots[i] = steered{bot: bots[i], g: g, seat: i, steer: steer}
		}
	}
	rec := &recorded.Game{Name: s.name, Board: b.ID, Variant: s.variant, Players: len(s.levels), Seed: seed, Rules: s.rules}
	seen := recorded.Corners{}
	m := match.Match{Game: g, Bots: bots, After: func(d match.Decision, ev []engine.Event) error {
		before := seen.Names()
		seen.See(g, engine.Move{Seat: d.Seat, Action: d.Action}, ev)
		mv := recorded.Move{Seat: d.Seat, Action: engine.FormatAction(b, d.Action)}
		if fresh := newCorners(before, seen); len(fresh) > 0 {
			mv.Notes = append([]string{"first " + strings.Join(fresh, ", ") + ":"}, notes(g, ev)...)
		}
		rec.Moves = append(rec.Moves, mv)
		return nil
	}}
	if err := m.Play(context.Background()); err != nil {
		return nil, err
	}
	fs := g.Final()
	before := seen.Names()
	seen.SeeFinal(fs)
	for _, w := range s.want {
		if !seen[w] {
			return nil, nil
		}
	}
	rec.Checks = seen.Names()
	rec.Scores = recorded.ScoresOf(b, fs)
	rec.Ranking = slices.Clone(fs.Ranking)
	rec.About = append(slices.Clone(s.about),
		fmt.Sprintf("Seats: %s. Written by go run ./internal/recordgames.", strings.Join(s.levels, ", ")),
		"A note above a move marks the first time the game shows a corner.")
	if fresh := newCorners(before, seen); len(fresh) > 0 {
		rec.About = append(rec.About, "The final count shows "+strings.Join(fresh, ", ")+".")
	}
	return rec, nil
}

// newCorners lists the corners seen now that were not in before.
func newCorners(before []string, seen recorded.Corners) []string {
	var out []string
	for _, c := range seen.Names() {
		if !slices.Contains(before, c) {
			out = append(out, c)
		}
	}
	return out
}

// notes describes a move's public events, for the first move that shows a
// corner.
func notes(g *engine.Game, ev []engine.Event) []string {
	var out []string
	for _, e := range ev {
		if e.Private || e.Kind == engine.EvTurn || e.Kind == engine.EvDisplay || e.Kind == engine.EvFaceUp {
			continue
		}
		out = append(out, g.Describe(e))
	}
	return out
}
