package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"conductor/ai"
	"conductor/data"
	"conductor/engine"
)

// selfplayJSON is what `conductor selfplay` prints.
type selfplayJSON struct {
	Map            string               `json:"map"`
	Variant        string               `json:"variant"`
	Seed           uint64               `json:"seed"`
	Games          int                  `json:"games"`
	GamesPerSecond float64              `json:"games_per_second"`
	MeanTurns      float64              `json:"mean_turns"`
	Players        []selfplayPlayerJSON `json:"players"`
}

// selfplayPlayerJSON sums up one entry of --players over all games.
type selfplayPlayerJSON struct {
	Bot                  string  `json:"bot"`
	Wins                 float64 `json:"wins"` // a tie for first shares the win
	WinRate              float64 `json:"win_rate"`
	MeanScore            float64 `json:"mean_score"`
	MeanTicketsCompleted float64 `json:"mean_tickets_completed"`
	MeanTicketsFailed    float64 `json:"mean_tickets_failed"`
	Decisions            int     `json:"decisions"`
	DecisionMsP50        float64 `json:"decision_ms_p50"`
	DecisionMsP99        float64 `json:"decision_ms_p99"`
	DecisionMsMax        float64 `json:"decision_ms_max"`
}

// selfplayResult is one game's outcome, by entry of --players.
type selfplayResult struct {
	err       error
	turns     int
	win       []float64
	score     []int
	completed []int
	failed    []int
	decisions [][]time.Duration
}

// maxActions bounds a game: bots that never end one are a bug to report.
const maxActions = 20000

func runSelfplay(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs, decks := newFlags("selfplay", stderr)
	mapID := fs.String("map", "usa", "board to play on (usa, europe or marklin)")
	variant := fs.String("variant", "", "variant of the board (default: its first)")
	players := fs.String("players", "hard,dest", "comma-separated bot `LEVELS`, one per seat (2 to 5): "+
		strings.Join(append(slices.Clone(ai.Levels), ai.Baselines...), ", "))
	games := fs.Int("games", 100, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the first game; the run is deterministic for a seed")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games played at once")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conductor selfplay [flags]\n\n"+
			"Plays games between bots and prints, as JSON, each bot's wins (a tie for\n"+
			"first counts as a shared win), mean score, tickets and decision times.\n"+
			"Seats rotate from game to game so that no bot always starts.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return badInput("unexpected argument %q: selfplay takes only flags", fs.Arg(0))
	}
	levels := strings.Split(*players, ",")
	for i := range levels {
		levels[i] = strings.TrimSpace(levels[i])
		if _, err := ai.New(levels[i], 0); err != nil {
			return badInput("--players: %v", err)
		}
	}
	if len(levels) < 2 || len(levels) > engine.MaxPlayers {
		return badInput("--players: give 2 to %d bots, not %d", engine.MaxPlayers, len(levels))
	}
	if *games < 1 {
		return badInput("--games must be at least 1, not %d", *games)
	}
	if *workers < 1 {
		return badInput("--workers must be at least 1, not %d", *workers)
	}
	cat, err := catalog(*decks)
	if err != nil {
		return err
	}
	board, err := cat.Board(*mapID)
	if err != nil {
		return badInput("--map: %v", err)
	}
	if *variant == "" {
		*variant = board.Variants[0].ID
	}
	if _, ok := board.Variant(*variant); !ok {
		ids := make([]string, len(board.Variants))
		for i, v := range board.Variants {
			ids[i] = v.ID
		}
		return badInput("--variant: the %s board has no variant %q (variants: %s)", board.ID, *variant, strings.Join(ids, ", "))
	}

	start := time.Now()
	results := make([]selfplayResult, *games)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(*workers, *games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = playSelfplayGame(board, *variant, levels, *seed, i)
			}
		}()
	}
	for i := range *games {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)

	out := summarize(results, levels)
	for i, r := range results {
		if r.err != nil {
			return fmt.Errorf("game %d (seed %d): %w", i, *seed, r.err)
		}
	}
	out.Map, out.Variant, out.Seed = board.ID, *variant, *seed
	out.GamesPerSecond = round3(float64(*games) / elapsed.Seconds())
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

// gameSeed derives game i's seed from the run's seed (splitmix64), so that
// games differ and a run replays exactly.
func gameSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// playSelfplayGame plays game i. Seats rotate: entry k of levels sits at
// seat (k+i) mod n.
func playSelfplayGame(board *data.Board, variant string, levels []string, seed uint64, i int) selfplayResult {
	n := len(levels)
	gs := gameSeed(seed, i)
	res := selfplayResult{win: make([]float64, n), score: make([]int, n), completed: make([]int, n),
		failed: make([]int, n), decisions: make([][]time.Duration, n)}
	g, err := engine.New(engine.Config{Board: board, Variant: variant, Players: n, Seed: gs})
	if err != nil {
		res.err = err
		return res
	}
	entryAt := make([]int, n) // seat -> entry of levels
	bots := make([]ai.Bot, n)
	for k := range levels {
		seat := seatOf(k, i, n)
		entryAt[seat] = k
		bots[seat], _ = ai.New(levels[k], gs^uint64(seat+1)*0x2545f4914f6cdd1d)
	}
	var legal []engine.Action
	for steps := 0; g.Phase() != engine.PhaseOver; steps++ {
		if steps >= maxActions {
			res.err = fmt.Errorf("no end after %d actions", steps)
			return res
		}
		seat := g.Current()
		if g.Phase() == engine.PhaseSetup {
			for s := range n {
				if !g.SetupDone(s) {
					seat = s
					break
				}
			}
		}
		legal = g.LegalActions(seat, legal[:0])
		view := g.View(seat)
		t0 := time.Now()
		a := bots[seat].Choose(view, legal)
		res.decisions[entryAt[seat]] = append(res.decisions[entryAt[seat]], time.Since(t0))
		if err := g.Play(seat, a); err != nil {
			res.err = fmt.Errorf("%s (seat %d) chose %s: %v", levels[entryAt[seat]], seat+1, engine.FormatAction(board, a), err)
			return res
		}
	}
	final := g.Final()
	res.turns = g.Turn()
	winners := tiedForFirst(board, final)
	for seat, ps := range final.Players {
		k := entryAt[seat]
		res.score[k] = ps.Total
		res.completed[k] = ps.CompletedTickets
		res.failed[k] = len(ps.Tickets) - ps.CompletedTickets
		if slices.Contains(winners, seat) {
			res.win[k] = 1 / float64(len(winners))
		}
	}
	return res
}

// seatOf is the seat entry k of --players takes in game i of n seats: the
// seats rotate so that every bot starts as often as the others.
func seatOf(k, i, n int) int { return (k + i) % n }

// tiedForFirst returns the seats that share first place: equal to the
// winner in total and in every tie-break of the board.
func tiedForFirst(b *data.Board, final *engine.FinalScore) []int {
	first := &final.Players[final.Ranking[0]]
	var out []int
	for _, seat := range final.Ranking {
		p := &final.Players[seat]
		if p.Total != first.Total {
			break
		}
		same := true
		for _, rule := range b.Rules.TieBreaks {
			if tieKey(rule, p) != tieKey(rule, first) {
				same = false
				break
			}
		}
		if same {
			out = append(out, seat)
		}
	}
	return out
}

// tieKey is the quantity a tie-break rule compares.
func tieKey(rule string, p *engine.PlayerScore) int {
	switch rule {
	case "tickets":
		return p.CompletedTickets
	case "longest_path":
		return p.LongestPath
	case "fewest_stations":
		return p.StationsBuilt
	case "express":
		if p.LongestBonus {
			return 1
		}
		return 0
	case "goods":
		return p.GoodsPoints
	}
	return 0
}

// summarize adds up the games, in game order.
func summarize(results []selfplayResult, levels []string) selfplayJSON {
	out := selfplayJSON{Games: len(results)}
	n := float64(len(results))
	turns := 0
	for k, level := range levels {
		p := selfplayPlayerJSON{Bot: level}
		var times []time.Duration
		score, completed, failed := 0, 0, 0
		for _, r := range results {
			if r.err != nil {
				continue
			}
			p.Wins += r.win[k]
			score += r.score[k]
			completed += r.completed[k]
			failed += r.failed[k]
			times = append(times, r.decisions[k]...)
		}
		p.WinRate = round3(p.Wins / n)
		p.MeanScore = round3(float64(score) / n)
		p.MeanTicketsCompleted = round3(float64(completed) / n)
		p.MeanTicketsFailed = round3(float64(failed) / n)
		p.Decisions = len(times)
		slices.Sort(times)
		p.DecisionMsP50 = percentileMs(times, 0.50)
		p.DecisionMsP99 = percentileMs(times, 0.99)
		if len(times) > 0 {
			p.DecisionMsMax = round3(float64(times[len(times)-1]) / float64(time.Millisecond))
		}
		out.Players = append(out.Players, p)
	}
	for _, r := range results {
		turns += r.turns
	}
	out.MeanTurns = round3(float64(turns) / n)
	return out
}

// percentileMs is the q-quantile (nearest rank) of sorted durations, in ms.
func percentileMs(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	i = min(max(i, 0), len(sorted)-1)
	return round3(float64(sorted[i]) / float64(time.Millisecond))
}

func round3(x float64) float64 {
	return float64(int64(x*1000+0.5)) / 1000
}
