package arena

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// GameRecord is one game of a run as it finished, by entry of the run's
// Levels: a long run's games written one a line as they end (conductor
// selfplay --log) can be summed up later, whole or in part, and runs
// played in pieces (other seeds, other processes) summed up together.
type GameRecord struct {
	Map       string    `json:"map"`
	Variant   string    `json:"variant"`
	Levels    []string  `json:"levels"`
	Seed      uint64    `json:"seed"` // the run's
	Game      int       `json:"game"` // its index in the run
	Turns     int       `json:"turns"`
	Win       []float64 `json:"win"`
	Score     []int     `json:"score"`
	Completed []int     `json:"completed"`
	Failed    []int     `json:"failed"`
	// Parts, by entry, came later: older logs lack them.
	Parts  []ScoreParts `json:"parts,omitempty"`
	WallMs [][]float64  `json:"wall_ms"` // each decision's
	CPUMs  [][]float64  `json:"cpu_ms"`
}

func (a Config) record(i int, r *arenaGame) GameRecord {
	ms := func(ds []time.Duration) []float64 {
		out := make([]float64, len(ds))
		for k, d := range ds {
			out[k] = round3(float64(d) / float64(time.Millisecond))
		}
		return out
	}
	g := GameRecord{Map: a.Board.ID, Variant: a.variant(), Levels: a.Levels, Seed: a.Seed, Game: i, Turns: r.turns,
		Win: r.win, Score: r.score, Completed: r.completed, Failed: r.failed, Parts: r.parts}
	for k := range a.Levels {
		g.WallMs = append(g.WallMs, ms(r.decisions[k]))
		g.CPUMs = append(g.CPUMs, ms(r.cpu[k]))
	}
	return g
}

// variant is the run's variant, the board's first when none is named.
func (a Config) variant() string {
	if a.Variant == "" && len(a.Board.Variants) > 0 {
		return a.Board.Variants[0].ID
	}
	return a.Variant
}

// ReadRecords reads game records, one JSON object a line.
func ReadRecords(r io.Reader) ([]GameRecord, error) {
	var out []GameRecord
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var g GameRecord
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if len(g.Levels) < 2 || len(g.Win) != len(g.Levels) || len(g.Score) != len(g.Levels) ||
			len(g.Completed) != len(g.Levels) || len(g.Failed) != len(g.Levels) ||
			len(g.WallMs) != len(g.Levels) || len(g.CPUMs) != len(g.Levels) || (g.Parts != nil && len(g.Parts) != len(g.Levels)) {
			return nil, fmt.Errorf("line %d: not a game record of a run", line)
		}
		out = append(out, g)
	}
	return out, sc.Err()
}

// Summarize sums game records up, a report per board, variant and lineup
// (in order of first appearance; each report's seed is its first game's
// run's).
func Summarize(records []GameRecord) []Report {
	type key struct{ board, variant, levels string }
	var keys []key
	groups := map[key][]GameRecord{}
	for _, g := range records {
		k := key{g.Map, g.Variant, strings.Join(g.Levels, ",")}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], g)
	}
	var out []Report
	for _, k := range keys {
		gs := groups[k]
		games := make([]arenaGame, len(gs))
		for i, g := range gs {
			games[i] = arenaGame{turns: g.Turns, win: g.Win, score: g.Score, completed: g.Completed, failed: g.Failed, parts: g.Parts}
			for e := range g.Levels {
				games[i].decisions = append(games[i].decisions, durations(g.WallMs[e]))
				games[i].cpu = append(games[i].cpu, durations(g.CPUMs[e]))
			}
		}
		r := summarize(games, gs[0].Levels)
		r.Map, r.Variant, r.Seed, r.Seats = k.board, k.variant, gs[0].Seed, len(gs[0].Levels)
		out = append(out, r)
	}
	return out
}

func durations(ms []float64) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, m := range ms {
		out[i] = time.Duration(m * float64(time.Millisecond))
	}
	return slices.Clip(out)
}

// AppendLog opens a log file (--log) to append each game to, as a JSON
// line, as it ends; failed writes go to errs. The caller closes the file.
// Without a name it records nothing (a nil func) and closes nothing.
func AppendLog(name string, errs io.Writer) (func(GameRecord), io.Closer, error) {
	if name == "" {
		return nil, io.NopCloser(nil), nil
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	enc := json.NewEncoder(f)
	return func(g GameRecord) {
		if err := enc.Encode(g); err != nil {
			fmt.Fprintf(errs, "selfplay: --log: %v\n", err)
		}
	}, f, nil
}

// RunAll plays each run in turn, each game recorded by record (nil: none),
// and returns their reports.
func RunAll(runs []Config, noDeadline bool, record func(GameRecord)) ([]Report, error) {
	var reports []Report
	for _, run := range runs {
		run.NoDeadline, run.Record = noDeadline, record
		out, err := Run(run)
		if err != nil {
			return nil, err
		}
		reports = append(reports, out)
	}
	return reports, nil
}

// ReadLogs reads the game records of log files (--log), in turn; errors
// name the file.
func ReadLogs(names []string) ([]GameRecord, error) {
	var records []GameRecord
	for _, name := range names {
		f, err := os.Open(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		rs, err := ReadRecords(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		records = append(records, rs...)
	}
	if len(records) == 0 {
		return nil, fmt.Errorf("no games in %s", strings.Join(names, ", "))
	}
	return records, nil
}

// Output is the reports as a Markdown table (format "table"), or as JSON:
// the one report alone when one was asked for, else a list.
func Output(w io.Writer, reports []Report, format string, one bool) error {
	if format == "table" {
		_, err := io.WriteString(w, Table(reports))
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	if one {
		return enc.Encode(reports[0])
	}
	return enc.Encode(reports)
}
