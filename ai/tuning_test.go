package ai

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"conductor/ai/match"
	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// TestTuningMatch measures a variant of a bot that `conductor selfplay`
// cannot name: hard with one of its knobs (options) changed, the plan
// keeping roller, or the expert with other search settings. It is a
// measuring tool, not a check, and runs only when asked:
//
//	CONDUCTOR_TUNE="usa 4 1000 201 hard:crowd=1 hard" go test ./ai -run TestTuningMatch -v -timeout 0
//
// plays 1,000 games on USA at 4 seats, seed 201, one "hard:crowd=1"
// against three "hard", seats rotated, and logs the first bot's win share
// with its standard error. The spec is "BOARD[:VARIANT] SEATS GAMES SEED
// LEAD OTHER"; a bot is hard, normal, roller, expert, or
// hard:KNOB=VALUE;... / roller:KNOB=VALUE;... with the knobs of
// tuningKnobs. The expert's settings come from CONDUCTOR_TUNE_EXPERT
// ("end=15,effort=16000,worlds=256,round=8,margin=0.03,contest=0,z=0,
// keeps=0,lpc=1,oracle=0"; see expertKnobs); it has no wall-clock cap, so a
// loaded machine plays the same games. With CONDUCTOR_TUNE_WORKERS games
// run in parallel, and CONDUCTOR_TUNE_LOG names a file that gets a line
// per game ("game win score") as it ends.
func TestTuningMatch(t *testing.T) {
	spec := os.Getenv("CONDUCTOR_TUNE")
	if spec == "" {
		t.Skip(`a measuring tool that checks nothing: set CONDUCTOR_TUNE="BOARD[:VARIANT] SEATS GAMES SEED LEAD OTHER" to run it (see its comment)`)
	}
	m, err := parseTuning(spec)
	if err != nil {
		t.Fatalf("CONDUCTOR_TUNE=%q: %v", spec, err)
	}
	expertSettings := os.Getenv("CONDUCTOR_TUNE_EXPERT")
	for _, name := range []string{m.lead, m.other} {
		if _, err := tuningBot(name, expertSettings, 1, nil); err != nil {
			t.Fatalf("CONDUCTOR_TUNE: %v", err)
		}
	}
	workers := 1
	if w := os.Getenv("CONDUCTOR_TUNE_WORKERS"); w != "" {
		if workers, err = strconv.Atoi(w); err != nil || workers < 1 {
			t.Fatalf("CONDUCTOR_TUNE_WORKERS=%q: want a number of games played at once, 1 or more", w)
		}
	}
	var logMu sync.Mutex
	var logFile *os.File
	if path := os.Getenv("CONDUCTOR_TUNE_LOG"); path != "" {
		if logFile, err = os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err != nil {
			t.Fatal(err)
		}
		defer logFile.Close()
	}

	b := testkit.Board(t, m.board)
	wins := make([]float64, m.games)
	scores := make([]float64, m.games)
	errs := make([]error, m.games)
	var stats struct {
		sync.Mutex
		searchStats
	}
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				gs := m.seed*1000003 + uint64(i)
				g, err := engine.New(engine.Config{Board: b, Variant: m.variant, Players: m.seats, Seed: gs})
				if err != nil {
					errs[i] = err
					continue
				}
				lead := i % m.seats
				bots := make([]match.Bot, m.seats)
				var experts []*expert
				for s := range bots {
					name := m.other
					if s == lead {
						name = m.lead
					}
					bots[s], _ = tuningBot(name, expertSettings, gs*31+uint64(s), g)
					if e, ok := bots[s].(*expert); ok {
						experts = append(experts, e)
					}
				}
				if errs[i] = (&match.Match{Game: g, Bots: bots}).Play(context.Background()); errs[i] != nil {
					continue
				}
				fs := g.Final()
				w := fs.Winners()
				for _, x := range w {
					if x == lead {
						wins[i] = 1 / float64(len(w))
					}
				}
				scores[i] = float64(fs.Players[lead].Total)
				stats.Lock()
				for _, e := range experts {
					stats.Searches += e.stats.Searches
					stats.Worlds += e.stats.Worlds
					stats.Playouts += e.stats.Playouts
					stats.Effort += e.stats.Effort
					stats.Departures += e.stats.Departures
				}
				stats.Unlock()
				if logFile != nil {
					logMu.Lock()
					fmt.Fprintf(logFile, "%d %g %d\n", i, wins[i], fs.Players[lead].Total)
					logMu.Unlock()
				}
			}
		})
	}
	for i := range m.games {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
	}

	var sum, sq, sc float64
	for i, w := range wins {
		sum, sq, sc = sum+w, sq+w*w, sc+scores[i]
	}
	n := float64(m.games)
	mean := sum / n
	se := 0.0
	if m.games > 1 {
		se = math.Sqrt(max(0, sq/n-mean*mean) / (n - 1))
	}
	t.Logf("%s: %s won %.1f%% ± %.1f (fair %.1f%%), mean score %.1f over %d games",
		spec, m.lead, 100*mean, 100*se, 100/float64(m.seats), sc/n, m.games)
	if st := stats.searchStats; st.Searches > 0 {
		k := float64(st.Searches)
		t.Logf("expert (%s): %.1f searches a game; a search: %.0f worlds, %.0f playouts, %.0f effort; departures from hard's move %.0f%%",
			expertSettings, k/n, float64(st.Worlds)/k, float64(st.Playouts)/k, float64(st.Effort)/k, 100*float64(st.Departures)/k)
	}
}

// tuningSpec is a parsed CONDUCTOR_TUNE.
type tuningSpec struct {
	board, variant string
	seats, games   int
	seed           uint64
	lead, other    string
}

func parseTuning(spec string) (tuningSpec, error) {
	f := strings.Fields(spec)
	if len(f) != 6 {
		return tuningSpec{}, fmt.Errorf("want 6 fields, BOARD[:VARIANT] SEATS GAMES SEED LEAD OTHER, got %d", len(f))
	}
	var m tuningSpec
	m.board, m.variant, _ = strings.Cut(f[0], ":")
	var err error
	if m.seats, err = strconv.Atoi(f[1]); err != nil || m.seats < 2 || m.seats > 5 {
		return m, fmt.Errorf("SEATS %q: want 2 to 5", f[1])
	}
	if m.games, err = strconv.Atoi(f[2]); err != nil || m.games < 1 {
		return m, fmt.Errorf("GAMES %q: want 1 or more", f[2])
	}
	if m.seed, err = strconv.ParseUint(f[3], 10, 64); err != nil {
		return m, fmt.Errorf("SEED %q: want a number", f[3])
	}
	m.lead, m.other = f[4], f[5]
	return m, nil
}

// tuningKnobs are the options a tuning bot may change: hard's knobs for
// full tables (see options).
var tuningKnobs = map[string]func(o *options, v float64){
	"crowd":  func(o *options, v float64) { o.crowd = v },
	"draw":   func(o *options, v float64) { o.drawPerSeat = v },
	"keep":   func(o *options, v float64) { o.keepPerSeat = v },
	"nodrop": func(o *options, v float64) { o.droppedStopsDraws = v != 0 },
	"turn":   func(o *options, v float64) { o.model.claimTurn = v },
	"train":  func(o *options, v float64) { o.model.perTrain = v },
	"points": func(o *options, v float64) { o.model.routePoints = v },
	"color":  func(o *options, v float64) { o.model.colorPenalty = v },
	"goods":  func(o *options, v float64) { o.model.goods = v },
	"rich":   func(o *options, v float64) { o.richTrip = v },
	"lenpri": func(o *options, v float64) { o.claimLength = v },
}

// tuningBot builds a bot of TestTuningMatch by name; expertSettings tunes
// the expert, whose oracle reads g (nil: the settings are only checked).
func tuningBot(name, expertSettings string, seed uint64, g *engine.Game) (Bot, error) {
	switch name {
	case "hard":
		return newPlannerBot(hardOptions), nil
	case "normal":
		return newPlannerBot(normalOptions), nil
	case "roller":
		return newRoller(), nil
	case "expert":
		return tuningExpert(expertSettings, seed, g)
	}
	base, params, _ := strings.Cut(name, ":")
	var o options
	switch base {
	case "hard":
		o = hardOptions
	case "roller":
		o = rollerOptions
	default:
		return nil, fmt.Errorf("bot %q: want hard, normal, roller, expert, or hard:KNOB=VALUE;... / roller:KNOB=VALUE;...", name)
	}
	for _, kv := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(kv, "=")
		set, ok := tuningKnobs[k]
		f, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("bot %q: %q is not KNOB=NUMBER with a knob among %s", name, kv, strings.Join(slices.Sorted(maps.Keys(tuningKnobs)), ", "))
		}
		set(&o, f)
	}
	p := newPlannerBot(o)
	if base == "roller" {
		p.keep = newPlanKeeper(0)
	}
	return p, nil
}

// oracle deals the other seats the tickets they really hold in g (a
// weight a million times the others'): the expert of TestTuningMatch with
// "oracle=1" searches worlds where only the cards and decks are unknown,
// which bounds what better ticket inference could gain.
func oracle(g *engine.Game) engine.TicketOdds {
	return func(seat int, t data.TicketID) float64 {
		if slices.Contains(g.Player(seat).Tickets, t) {
			return 1e6
		}
		return 1
	}
}

// expertKnobs are the expert's settings a tuning run may change:
// its fields endTrains, effort, maxWorlds, round, margin, contest,
// departZ, allKeeps, setupEffort (the setup search's budget for the whole
// table, searching it at any size when above 0), secondDraw, pathClaim,
// tableKnobs, and oracle(g) as its peek (g nil: the settings are only
// checked).
var expertKnobs = map[string]func(e *expert, v float64, g *engine.Game){
	"end":     func(e *expert, v float64, _ *engine.Game) { e.endTrains = int(v) },
	"effort":  func(e *expert, v float64, _ *engine.Game) { e.effort = int(v) },
	"worlds":  func(e *expert, v float64, _ *engine.Game) { e.maxWorlds = int(v) },
	"round":   func(e *expert, v float64, _ *engine.Game) { e.round = int(v) },
	"margin":  func(e *expert, v float64, _ *engine.Game) { e.margin = v },
	"contest": func(e *expert, v float64, _ *engine.Game) { e.contest = int(v) },
	"z":       func(e *expert, v float64, _ *engine.Game) { e.departZ = v },
	"keeps":   func(e *expert, v float64, _ *engine.Game) { e.allKeeps = v != 0 },
	"setup": func(e *expert, v float64, _ *engine.Game) {
		e.setup, e.setupEffort, e.setupAnySize = v > 0, int(v), v > 0
	},
	"second": func(e *expert, v float64, _ *engine.Game) { e.secondDraw = v != 0 },
	"lpc":    func(e *expert, v float64, _ *engine.Game) { e.pathClaim = v != 0 },
	"table":  func(e *expert, v float64, _ *engine.Game) { e.tableKnobs = v != 0 },
	"oracle": func(e *expert, v float64, g *engine.Game) {
		if v != 0 && g != nil {
			e.peek = oracle(g)
		}
	},
}

// tuningExpert is an expert without a wall-clock cap, with the settings
// "key=value,..." of expertKnobs.
func tuningExpert(settings string, seed uint64, g *engine.Game) (*expert, error) {
	e := newExpert(seed)
	e.deadline = 0
	if settings == "" {
		return e, nil
	}
	for _, kv := range strings.Split(settings, ",") {
		k, v, _ := strings.Cut(kv, "=")
		set, ok := expertKnobs[k]
		f, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("CONDUCTOR_TUNE_EXPERT %q: %q is not KEY=NUMBER with a key among %s", settings, kv, strings.Join(slices.Sorted(maps.Keys(expertKnobs)), ", "))
		}
		set(e, f, g)
	}
	return e, nil
}
