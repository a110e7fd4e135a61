// Package arena plays bot-only games to measure the bots (`conductor
// selfplay`). It lives beside package ai, not in it: the arena builds and
// plays whole games, which the bots themselves must never touch.
package arena

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"conductor/ai"
	"conductor/ai/match"
	"conductor/data"
	"conductor/engine"
)

// Config is a run of bot-only games: each entry of Levels
// plays every game, the seats rotating from game to game so that no bot
// always starts. A run is deterministic for its Seed, whatever Workers.
type Config struct {
	Board   *data.Board
	Variant string
	Levels  []string // one bot level (or baseline) per seat, 2 to engine.MaxPlayers
	Seed    uint64   // the first game's seed
	Games   int
	Workers int // games played at once
	// NoDeadline lifts the expert's wall clock cap (ai.Settings): a run
	// then plays the same games on a loaded machine as on an idle one.
	NoDeadline bool
	// Record, when set, is given each game as it ends (one call at a time).
	Record func(GameRecord)
}

// Report sums a run up, as `conductor selfplay` prints it.
type Report struct {
	Map            string   `json:"map"`
	Variant        string   `json:"variant"`
	Seed           uint64   `json:"seed"`
	Seats          int      `json:"seats"`
	Games          int      `json:"games"`
	GamesPerSecond float64  `json:"games_per_second"`
	MeanTurns      float64  `json:"mean_turns"`
	Players        []Result `json:"players"`
	// Levels sums the entries of each level together (expert against
	// three hard: the three hard seats as one), in order of first entry.
	Levels []Result `json:"levels"`
}

// Result sums up one entry of Levels (or, in Report.Levels, every entry
// of one level) over all games.
type Result struct {
	Bot string `json:"bot"`
	// Seats is how many seats the result counts (1 for an entry).
	Seats int     `json:"seats"`
	Wins  float64 `json:"wins"` // a tie for first shares the win
	// WinRate is the share of the games won; FairShare is what it would
	// be if every seat were as strong (seats / players), and WinRateSE the
	// standard error of WinRate (the games' spread over the root of their
	// number).
	WinRate              float64 `json:"win_rate"`
	FairShare            float64 `json:"fair_share"`
	WinRateSE            float64 `json:"win_rate_se"`
	MeanScore            float64 `json:"mean_score"` // a seat's, per game
	MeanTicketsCompleted float64 `json:"mean_tickets_completed"`
	MeanTicketsFailed    float64 `json:"mean_tickets_failed"`
	Decisions            int     `json:"decisions"`
	DecisionMsP50        float64 `json:"decision_ms_p50"`
	DecisionMsP99        float64 `json:"decision_ms_p99"`
	DecisionMsMax        float64 `json:"decision_ms_max"`
	// The same in CPU time (Linux): what a decision costs one core,
	// whatever else the machine was doing.
	DecisionCPUMsP50 float64 `json:"decision_cpu_ms_p50"`
	DecisionCPUMsP99 float64 `json:"decision_cpu_ms_p99"`
	DecisionCPUMsMax float64 `json:"decision_cpu_ms_max"`
	// GameWins is its win in each game, in game order: two runs of one seed
	// play the same deals, so two versions of a bot compare game by game.
	GameWins []float64 `json:"game_wins"`
	// Parts is where its points came from, a seat's per game; nil when
	// some game was logged without them (logs written before they were).
	Parts *MeanParts `json:"parts,omitempty"`
}

// arenaGame is one game's outcome, by entry of Levels.
type arenaGame struct {
	err       error
	turns     int
	win       []float64
	score     []int
	completed []int
	failed    []int
	parts     []ScoreParts // nil for a logged game without them
	decisions [][]time.Duration
	cpu       [][]time.Duration
}

// Run plays the games and sums them up.
func Run(a Config) (Report, error) {
	for _, level := range a.Levels {
		if _, err := ai.New(level, 0); err != nil {
			return Report{}, err
		}
	}
	if n := len(a.Levels); n < 2 || n > engine.MaxPlayers {
		return Report{}, fmt.Errorf("give 2 to %d bots, not %d", engine.MaxPlayers, n)
	}
	if a.Games < 1 || a.Workers < 1 {
		return Report{}, fmt.Errorf("%d games on %d workers: both must be at least 1", a.Games, a.Workers)
	}
	start := time.Now()
	results := make([]arenaGame, a.Games)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var recording sync.Mutex
	for range min(a.Workers, a.Games) {
		wg.Go(func() {
			// One thread for the worker's games, so that its CPU time is theirs.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for i := range jobs {
				results[i] = a.play(i)
				if a.Record != nil && results[i].err == nil {
					recording.Lock()
					a.Record(a.record(i, &results[i]))
					recording.Unlock()
				}
			}
		})
	}
	for i := range a.Games {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)

	for i, r := range results {
		if r.err != nil {
			return Report{}, fmt.Errorf("game %d (seed %d): %w", i, a.Seed, r.err)
		}
	}
	out := summarize(results, a.Levels)
	out.Map, out.Variant, out.Seed, out.Seats = a.Board.ID, a.variant(), a.Seed, len(a.Levels)
	out.GamesPerSecond = round3(float64(a.Games) / elapsed.Seconds())
	return out, nil
}

// gameSeed derives game i's seed from the run's seed (splitmix64), so that
// games differ and a run replays exactly.
func gameSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// play plays game i. Seats rotate: entry k of Levels sits at seat
// arenaSeat(k, i, n).
func (a Config) play(i int) arenaGame {
	n := len(a.Levels)
	gs := gameSeed(a.Seed, i)
	res := arenaGame{win: make([]float64, n), score: make([]int, n), completed: make([]int, n),
		failed: make([]int, n), parts: make([]ScoreParts, n), decisions: make([][]time.Duration, n), cpu: make([][]time.Duration, n)}
	g, err := engine.New(engine.Config{Board: a.Board, Variant: a.Variant, Players: n, Seed: gs})
	if err != nil {
		res.err = err
		return res
	}
	entryAt := make([]int, n) // seat -> entry of Levels
	bots := make([]match.Bot, n)
	for k := range a.Levels {
		seat := arenaSeat(k, i, n)
		entryAt[seat] = k
		bot, _ := ai.NewWith(a.Levels[k], gs^uint64(seat+1)*0x2545f4914f6cdd1d, ai.Settings{NoDeadline: a.NoDeadline})
		bots[seat] = timedBot{bot: bot, wall: &res.decisions[k], cpu: &res.cpu[k]}
	}
	m := match.Match{Game: g, Bots: bots}
	if err := m.Play(context.Background()); err != nil {
		res.err = fmt.Errorf("%s: %w", a.seating(entryAt), err)
		return res
	}
	final := g.Final()
	res.turns = g.Turn()
	public := g.Public()
	winners := final.Winners()
	for seat, ps := range final.Players {
		k := entryAt[seat]
		res.score[k] = ps.Total
		res.completed[k] = ps.CompletedTickets
		res.failed[k] = len(ps.Tickets) - ps.CompletedTickets
		res.parts[k] = partsOf(&ps, public.Players[seat].Trains)
		if slices.Contains(winners, seat) {
			res.win[k] = 1 / float64(len(winners))
		}
	}
	return res
}

// timedBot times its bot's decisions, in wall clock and thread CPU time.
type timedBot struct {
	bot       ai.Bot
	wall, cpu *[]time.Duration
}

func (t timedBot) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	t0, c0 := time.Now(), threadCPU()
	a := t.bot.Choose(v, legal)
	*t.wall = append(*t.wall, time.Since(t0))
	*t.cpu = append(*t.cpu, threadCPU()-c0)
	return a
}

// seating names the bots by seat, for an error.
func (a Config) seating(entryAt []int) string {
	levels := make([]string, len(entryAt))
	for seat, k := range entryAt {
		levels[seat] = a.Levels[k]
	}
	return "seats " + strings.Join(levels, ", ")
}

// arenaSeat is the seat entry k of Levels takes in game i of n seats: the
// seats rotate so that every bot starts as often as the others.
func arenaSeat(k, i, n int) int { return (k + i) % n }

// summarize adds up the games, in game order: each entry of levels, then
// each level over its entries.
func summarize(results []arenaGame, levels []string) Report {
	out := Report{Games: len(results)}
	for k, level := range levels {
		out.Players = append(out.Players, sum(results, levels, level, []int{k}))
	}
	var seen []string
	for _, level := range levels {
		if slices.Contains(seen, level) {
			continue
		}
		seen = append(seen, level)
		var entries []int
		for k, l := range levels {
			if l == level {
				entries = append(entries, k)
			}
		}
		out.Levels = append(out.Levels, sum(results, levels, level, entries))
	}
	turns := 0
	for _, r := range results {
		turns += r.turns
	}
	out.MeanTurns = round3(float64(turns) / float64(len(results)))
	return out
}

// sum adds up the given entries of levels (all of one level) over the games.
func sum(results []arenaGame, levels []string, level string, entries []int) Result {
	n := float64(len(results))
	seatGames := n * float64(len(entries))
	p := Result{Bot: level, Seats: len(entries), FairShare: round3(float64(len(entries)) / float64(len(levels)))}
	var times, cpu []time.Duration
	score, completed, failed := 0, 0, 0
	sumSq := 0.0
	parts, partsEverywhere := MeanParts{}, true
	for _, r := range results {
		if r.err != nil {
			continue
		}
		partsEverywhere = partsEverywhere && r.parts != nil
		w := 0.0
		for _, k := range entries {
			if r.parts != nil {
				parts.add(r.parts[k])
			}
			w += r.win[k]
			score += r.score[k]
			completed += r.completed[k]
			failed += r.failed[k]
			times = append(times, r.decisions[k]...)
			cpu = append(cpu, r.cpu[k]...)
		}
		p.Wins += w
		sumSq += w * w
		p.GameWins = append(p.GameWins, w)
	}
	rate := p.Wins / n
	p.WinRate = round3(rate)
	if n > 1 {
		p.WinRateSE = round3(math.Sqrt(max(0, sumSq/n-rate*rate) / (n - 1)))
	}
	p.MeanScore = round3(float64(score) / seatGames)
	p.MeanTicketsCompleted = round3(float64(completed) / seatGames)
	p.MeanTicketsFailed = round3(float64(failed) / seatGames)
	if partsEverywhere && len(results) > 0 {
		parts.mean(seatGames)
		p.Parts = &parts
	}
	p.Decisions = len(times)
	slices.Sort(times)
	p.DecisionMsP50 = percentileMs(times, 0.50)
	p.DecisionMsP99 = percentileMs(times, 0.99)
	if len(times) > 0 {
		p.DecisionMsMax = round3(float64(times[len(times)-1]) / float64(time.Millisecond))
	}
	slices.Sort(cpu)
	p.DecisionCPUMsP50 = percentileMs(cpu, 0.50)
	p.DecisionCPUMsP99 = percentileMs(cpu, 0.99)
	if len(cpu) > 0 {
		p.DecisionCPUMsMax = round3(float64(cpu[len(cpu)-1]) / float64(time.Millisecond))
	}
	return p
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

// Lineup seats one lead bot against seats-1 of another level: the levels
// of a run measuring lead at a table of that size (the seats rotate).
func Lineup(lead, other string, seats int) []string {
	out := []string{lead}
	for range seats - 1 {
		out = append(out, other)
	}
	return out
}

// Table writes reports as a Markdown table, a row per level of each
// report: its seats, win share with its standard error against the fair
// share, mean score, tickets, where the points came from (routes,
// tickets, bonus, other) with the trains left at the end, and decision
// times. Logs written before games recorded their parts show "—" there.
func Table(reports []Report) string {
	var b strings.Builder
	b.WriteString("| board | players | bot | seats | games | wins | win share ± SE | fair share | mean score | tickets done / failed | points: routes / tickets / bonus / other | trains left | decision p50 / p99 / max (ms) | CPU p50 / p99 / max (ms) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range reports {
		board := r.Map
		if r.Variant != "" {
			board += " " + r.Variant
		}
		for _, l := range r.Levels {
			points, left := "—", "—"
			if p := l.Parts; p != nil {
				points = fmt.Sprintf("%.1f / %.1f / %.1f / %.1f", p.Routes, p.Tickets, p.Bonus, p.Other)
				left = fmt.Sprintf("%.2f", p.TrainsLeft)
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %d | %d | %s | %.1f%% ± %.1f | %.1f%% | %.1f | %.2f / %.2f | %s | %s | %s / %s / %s | %s / %s / %s |\n",
				board, r.Seats, l.Bot, l.Seats, r.Games, num(l.Wins), 100*l.WinRate, 100*l.WinRateSE, 100*l.FairShare,
				l.MeanScore, l.MeanTicketsCompleted, l.MeanTicketsFailed, points, left, ms(l.DecisionMsP50), ms(l.DecisionMsP99), ms(l.DecisionMsMax),
				ms(l.DecisionCPUMsP50), ms(l.DecisionCPUMsP99), ms(l.DecisionCPUMsMax))
		}
	}
	return b.String()
}

// num prints a number without trailing zeros.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// ms prints milliseconds to two significant digits or whole ones.
func ms(x float64) string {
	switch {
	case x >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case x >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}
