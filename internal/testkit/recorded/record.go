// Package recorded reads and writes recorded games: whole games in the
// engine's move notation with the final scores they must end with, kept in
// engine/testdata/games. Any package's tests can replay them (the engine's
// check the scores; narration and picture tests can walk the same games).
//
// A record is plain text:
//
//	# Europe, classic rules, three bots.      <- what the game is about
//	board: europe
//	variant: classic
//	players: 3
//	seed: 42
//	rules: 2                                  <- engine rules revision
//	bonus-tickets: on                         <- only when on
//	checks: tunnel-paid station               <- corners the game must show
//
//	1 keep 0,1,2                              <- seat (from 1) and move
//	# a tunnel: two extra cards               <- a note on the next move
//	2 claim Paris|Zurich pay=red loco=0
//	...
//
//	score 1: total=87 routes=40 tickets=35 completed=4 longest=18 bonus=10
//	score 2: total=64 ...
//	ranking: 1 3 2                            <- seats, winner first
//
// Lines starting with # are comments: those before the header describe the
// game, those among the moves annotate the move that follows them. The
// notation itself uses # (parallel tracks of one colour), so comments are
// whole lines only.
package recorded

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Game is one recorded game.
type Game struct {
	Name         string   // the file name without .game
	About        []string // the comment lines before the header
	Board        string
	Variant      string // "" for the board's first variant
	Players      int
	Seed         uint64
	Rules        int // the engine's rules revision (engine.Config.Revision)
	BonusTickets bool
	// Checks names the rule corners the game must show (see Corners).
	Checks  []string
	Moves   []Move
	Scores  []Score // expected, by seat
	Ranking []int   // expected seats (from 0), winner first
}

// Move is one move of a recorded game.
type Move struct {
	Seat   int    // from 0; written from 1
	Action string // the engine's notation
	Notes  []string
	Line   int // in the file, for messages
}

// Score is a seat's expected final count, by field name (see scoreFields).
// Only the fields a record lists are checked; total is always listed.
type Score map[string]int

// Parse reads a record; name is used in errors and kept as Game.Name.
func Parse(name string, src []byte) (*Game, error) {
	g := &Game{Name: name}
	var notes []string
	inMoves, inScores := false, false
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<20)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "":
			continue
		case strings.HasPrefix(text, "#"):
			c := strings.TrimSpace(strings.TrimPrefix(text, "#"))
			if !inMoves && len(seen) == 0 {
				g.About = append(g.About, c)
			} else {
				notes = append(notes, c)
			}
			continue
		}
		if strings.HasPrefix(text, "score ") || strings.HasPrefix(text, "ranking:") {
			inScores = true
		}
		switch {
		case inScores:
			if err := g.parseScoreLine(text); err != nil {
				return nil, fail("%v", err)
			}
		case text[0] >= '0' && text[0] <= '9':
			inMoves = true
			seat, action, ok := strings.Cut(text, " ")
			n, err := strconv.Atoi(seat)
			if !ok || err != nil || n < 1 || (g.Players > 0 && n > g.Players) {
				return nil, fail("want \"SEAT MOVE\" with a seat from 1 to %d, got %q", g.Players, text)
			}
			g.Moves = append(g.Moves, Move{Seat: n - 1, Action: strings.TrimSpace(action), Notes: notes, Line: line})
			notes = nil
		case inMoves:
			return nil, fail("header line %q among the moves", text)
		default:
			key, value, ok := strings.Cut(text, ":")
			key, value = strings.TrimSpace(key), strings.TrimSpace(value)
			if !ok {
				return nil, fail("want \"key: value\" in the header, got %q", text)
			}
			if seen[key] {
				return nil, fail("%s given twice", key)
			}
			seen[key] = true
			if err := g.setHeader(key, value); err != nil {
				return nil, fail("%v", err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case g.Board == "":
		return nil, fmt.Errorf("%s: no board in the header", name)
	case g.Players < 2:
		return nil, fmt.Errorf("%s: no players in the header", name)
	case g.Rules == 0:
		return nil, fmt.Errorf("%s: no rules revision in the header", name)
	case len(g.Moves) == 0:
		return nil, fmt.Errorf("%s: no moves", name)
	case g.Scores == nil:
		return nil, fmt.Errorf("%s: no score lines", name)
	case len(g.Ranking) != g.Players:
		return nil, fmt.Errorf("%s: the ranking lists %d seats for %d players", name, len(g.Ranking), g.Players)
	}
	for i, s := range g.Scores {
		if _, ok := s["total"]; !ok {
			return nil, fmt.Errorf("%s: no score line for seat %d", name, i+1)
		}
	}
	return g, nil
}

func (g *Game) setHeader(key, value string) error {
	var err error
	switch key {
	case "board":
		g.Board = value
	case "variant":
		g.Variant = value
	case "players":
		g.Players, err = strconv.Atoi(value)
		if err == nil && (g.Players < 2 || g.Players > 5) {
			err = fmt.Errorf("%d players: a game has 2 to 5", g.Players)
		}
	case "seed":
		g.Seed, err = strconv.ParseUint(value, 10, 64)
	case "rules":
		g.Rules, err = strconv.Atoi(value)
		if err == nil && g.Rules < 1 {
			err = fmt.Errorf("revision %d: revisions count from 1", g.Rules)
		}
	case "bonus-tickets":
		if value != "on" && value != "off" {
			return fmt.Errorf("bonus-tickets is on or off, not %q", value)
		}
		g.BonusTickets = value == "on"
	case "checks":
		g.Checks = strings.Fields(value)
		for _, c := range g.Checks {
			if _, ok := corners[c]; !ok {
				return fmt.Errorf("unknown check %q (known: %s)", c, strings.Join(CornerNames(), " "))
			}
		}
	default:
		return fmt.Errorf("unknown header %q (board, variant, players, seed, rules, bonus-tickets, checks)", key)
	}
	if err != nil {
		return fmt.Errorf("%s: %v", key, err)
	}
	return nil
}

func (g *Game) parseScoreLine(text string) error {
	if rest, ok := strings.CutPrefix(text, "ranking:"); ok {
		if g.Ranking != nil {
			return fmt.Errorf("ranking given twice")
		}
		for _, f := range strings.Fields(rest) {
			n, err := strconv.Atoi(f)
			if err != nil || n < 1 || n > g.Players || slices.Contains(g.Ranking, n-1) {
				return fmt.Errorf("ranking: %q is not a seat from 1 to %d listed once", f, g.Players)
			}
			g.Ranking = append(g.Ranking, n-1)
		}
		return nil
	}
	head, rest, ok := strings.Cut(strings.TrimPrefix(text, "score "), ":")
	seat, err := strconv.Atoi(strings.TrimSpace(head))
	if !ok || err != nil || seat < 1 || seat > g.Players {
		return fmt.Errorf("want \"score SEAT: total=N ...\" with a seat from 1 to %d, got %q", g.Players, text)
	}
	if g.Scores == nil {
		g.Scores = make([]Score, g.Players)
	}
	if g.Scores[seat-1] != nil {
		return fmt.Errorf("seat %d scored twice", seat)
	}
	s := Score{}
	for _, f := range strings.Fields(rest) {
		k, v, ok := strings.Cut(f, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || !slices.ContainsFunc(scoreFields, func(sf scoreField) bool { return sf.name == k }) {
			return fmt.Errorf("score %d: %q is not FIELD=NUMBER with a field of %s", seat, f, fieldNames())
		}
		s[k] = n
	}
	if _, ok := s["total"]; !ok {
		return fmt.Errorf("score %d: no total", seat)
	}
	g.Scores[seat-1] = s
	return nil
}

// Format writes the record in the form Parse reads.
func (g *Game) Format() []byte {
	var b bytes.Buffer
	for _, c := range g.About {
		comment(&b, c)
	}
	fmt.Fprintf(&b, "board: %s\n", g.Board)
	if g.Variant != "" {
		fmt.Fprintf(&b, "variant: %s\n", g.Variant)
	}
	fmt.Fprintf(&b, "players: %d\nseed: %d\nrules: %d\n", g.Players, g.Seed, g.Rules)
	if g.BonusTickets {
		b.WriteString("bonus-tickets: on\n")
	}
	if len(g.Checks) > 0 {
		fmt.Fprintf(&b, "checks: %s\n", strings.Join(g.Checks, " "))
	}
	b.WriteByte('\n')
	for _, m := range g.Moves {
		for _, n := range m.Notes {
			comment(&b, n)
		}
		fmt.Fprintf(&b, "%d %s\n", m.Seat+1, m.Action)
	}
	b.WriteByte('\n')
	for i, s := range g.Scores {
		fmt.Fprintf(&b, "score %d:", i+1)
		for _, f := range scoreFields {
			if v, ok := s[f.name]; ok {
				fmt.Fprintf(&b, " %s=%d", f.name, v)
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("ranking:")
	for _, seat := range g.Ranking {
		fmt.Fprintf(&b, " %d", seat+1)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

func comment(b *bytes.Buffer, c string) {
	if c == "" {
		b.WriteString("#\n")
		return
	}
	fmt.Fprintf(b, "# %s\n", c)
}
