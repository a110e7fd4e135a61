package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"conductor/ai/arena"
	"conductor/rating"
)

const ratingsUsage = "usage: conductor ratings --fit FILES | --calibrate FILES | --placings FILES\n\n" +
	"Measures the bots' anchors and checks the ratings on bot-only games\n" +
	"(docs/ratings.md). FILES are comma-separated: `conductor selfplay --log`\n" +
	"files, gzipped or not, or placings (one game a line: EDITION LEVEL:RANK ...).\n\n" +
	"  · --fit        each level's rating by edition, the normal bot at the\n" +
	"                 newcomer's Mu, with bootstrap standard errors\n" +
	"  · --calibrate  the games replayed as a server whose members are secretly\n" +
	"                 bots: how often the ratings name the winner, against the\n" +
	"                 win counts and a coin, and how fast members settle\n" +
	"  · --placings   print the games as placings\n\nflags:"

// The level a newcomer is believed to match: the fit puts the normal bot
// at the newcomer's Mu.
const refLevel = "normal"

func ratingsCommand(fs *flag.FlagSet) runFunc {
	fit := fs.String("fit", "", "fit the levels' anchors on these `FILES`")
	calibrate := fs.String("calibrate", "", "calibrate on these `FILES` (games no fit saw)")
	placings := fs.String("placings", "", "print these `FILES` as placings")
	reps := fs.Int("reps", 1000, "bootstrap draws for the standard errors (--fit)")
	orders := fs.Int("orders", 20, "random orders of the free fold, a check of the fit (--fit; 0: none)")
	members := fs.Int("members", 16, "members a level (--calibrate)")
	botShare := fs.Float64("bot-share", 0.25, "share of seats an anchored bot takes (--calibrate)")
	company := fs.Float64("company", 0, "how strongly members keep to tables where they are the weakest (half of them) or the strongest (the other half): 0 not at all, k: k times as readily (--calibrate)")
	tolerance := fs.Float64("tolerance", 4, "how near in Mu a member's rating must come to its level's anchor (--calibrate)")
	seed := fs.Uint64("seed", 1, "seed of the bootstrap and of the calibration's members")
	servers := fs.Int("servers", 20, "servers the calibration's figures are summed over, seeds --seed, --seed+1, ... (--calibrate)")
	fresh := fs.Int("fresh", rating.ProvisionalGames, "a game is among members' first games when a member at the table had played fewer rated games (--calibrate)")
	modelName := fs.String("model", "default", "the model: default (the ratings'), or openskill (OpenSkill's defaults, gamma sigma/c), for comparison")
	sigma0 := fs.Float64("sigma0", 0, "a newcomer's Sigma instead of the model's, to measure another (0: the model's)")
	tau := fs.Float64("tau", -1, "the model's Tau replaced, to measure another (negative: the model's)")
	return func(_ context.Context, in *invocation) error {
		given := 0
		for _, s := range []string{*fit, *calibrate, *placings} {
			if s != "" {
				given++
			}
		}
		if given != 1 || fs.NArg() > 0 {
			return badInput("give one of --fit, --calibrate or --placings (and nothing else)")
		}
		model := rating.Default()
		switch *modelName {
		case "default":
		case "openskill":
			model = rating.OpenSkill()
		default:
			return badInput("--model: default or openskill, not %q", *modelName)
		}
		if *servers < 1 || *servers > 1000 {
			return badInput("--servers: from 1 to 1000 servers, not %d", *servers)
		}
		if *fresh < 0 {
			return badInput("--fresh: a number of games, 0 or more")
		}
		if *sigma0 < 0 {
			return badInput("--sigma0: a positive Sigma, or 0 for the model's")
		}
		if *sigma0 > 0 {
			model.Sigma0 = *sigma0
		}
		if *tau >= 0 {
			model.Tau = *tau
		}
		switch {
		case *placings != "":
			games, err := readRatingGames(*placings)
			if err != nil {
				return badInput("--placings: %v", err)
			}
			w := bufio.NewWriter(in.stdout)
			for _, ed := range sortedKeys(games) {
				for _, g := range games[ed] {
					if err := rating.WritePlacings(w, ed, g); err != nil {
						return err
					}
				}
			}
			return w.Flush()
		case *fit != "":
			games, err := readRatingGames(*fit)
			if err != nil {
				return badInput("--fit: %v", err)
			}
			for _, ed := range sortedKeys(games) {
				gs := games[ed]
				mu, err := model.Fit(gs, refLevel, model.Mu0)
				if err != nil {
					return fmt.Errorf("%s: %w", ed, err)
				}
				se, err := model.FitSE(gs, refLevel, model.Mu0, *reps, *seed)
				if err != nil {
					return fmt.Errorf("%s: %w", ed, err)
				}
				var folded map[string]float64
				if *orders > 0 {
					folded = model.FoldFree(gs, refLevel, model.Mu0, *orders, *seed)
				}
				fmt.Fprintf(in.stdout, "## %s: %d games (%s)\n\n", ed, len(gs), seatCounts(gs))
				fmt.Fprintln(in.stdout, "| level | games | Mu | standard error | Mu of the free fold | display |")
				fmt.Fprintln(in.stdout, "|---|---|---|---|---|---|")
				for _, l := range levelsByMu(mu) {
					r := rating.Rating{Mu: mu[l], Sigma: se[l]}
					fmt.Fprintf(in.stdout, "| %s | %d | %.2f | %.2f | %.2f | %d |\n", l, gamesOf(gs, l), mu[l], se[l], folded[l], r.Display())
				}
				fmt.Fprintln(in.stdout)
			}
			return nil
		default:
			games, err := readRatingGames(*calibrate)
			if err != nil {
				return badInput("--calibrate: %v", err)
			}
			for _, ed := range sortedKeys(games) {
				anchors := rating.Anchors(ed)
				if anchors == nil {
					return badInput("--calibrate: no anchors for edition %q", ed)
				}
				c := rating.Calibration{Members: *members, BotShare: *botShare, Company: *company, Tolerance: *tolerance, Settled: 0.9, Fresh: *fresh, Servers: *servers, Seed: *seed}
				rep := model.Calibrate(games[ed], anchors, c)
				writeCalibration(in.stdout, ed, games[ed], rep, c)
			}
			return nil
		}
	}
}

func writeCalibration(w io.Writer, ed string, gs []rating.FitGame, rep rating.CalibrationReport, c rating.Calibration) {
	company := "every member takes any seat of their level"
	if c.Company > 1 {
		company = fmt.Sprintf("members keep to the stronger or the weaker tables (%g to 1)", c.Company)
	}
	fmt.Fprintf(w, "## %s: %d games (%s), %d members a level, %.0f%% of seats anchored bots, %s; %d servers (seeds %d to %d)\n\n",
		ed, rep.Games, seatCounts(gs), c.Members, 100*c.BotShare, company, rep.Servers, c.Seed, c.Seed+uint64(rep.Servers)-1)
	mixed := c.Company > 1
	fmt.Fprintf(w, "| the winner named by | every game | after the first fifth | a member's first %d games (%d) |", c.Fresh, rep.Fresh.Games)
	if mixed {
		fmt.Fprintf(w, " where the two circles met (%d) |", rep.Mixed.Games)
	}
	fmt.Fprint(w, "\n|---|---|---|---|")
	if mixed {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for _, row := range []struct {
		name string
		of   func(rating.Predictions) float64
	}{
		{"the ratings (highest Mu)", func(p rating.Predictions) float64 { return p.Rating }},
		{"the records of wins ((wins+1)/(games+2))", func(p rating.Predictions) float64 { return p.Counts }},
		{"a coin", func(p rating.Predictions) float64 { return p.Coin }},
		{"the true levels (the best possible)", func(p rating.Predictions) float64 { return p.Truth }},
	} {
		fmt.Fprintf(w, "| %s | %.1f%% | %.1f%% | %.1f%% |", row.name, 100*row.of(rep.All), 100*row.of(rep.Warm), 100*row.of(rep.Fresh))
		if mixed {
			fmt.Fprintf(w, " %.1f%% |", 100*row.of(rep.Mixed))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nThe ratings' lead over the records of wins, server by server: every game %s; a member's first games %s.\n\n", spread(rep.Leads), spread(rep.FreshLeads))
	fmt.Fprintln(w, "| level | anchor Mu | members' Mu at the end |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, l := range levelsByMu(rep.Anchor) {
		if mu, ok := rep.MeanMu[l]; ok {
			fmt.Fprintf(w, "| %s | %.2f | %.2f |\n", l, rep.Anchor[l], mu)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "| after n games (%d at most) |", len(rep.Within))
	ns := []int{1, 5, 10, 15, 20, 30, 40, 50, 75, 100}
	for _, n := range ns {
		if n <= len(rep.Within) {
			fmt.Fprintf(w, " %d |", n)
		}
	}
	fmt.Fprint(w, "\n|---|")
	for _, n := range ns {
		if n <= len(rep.Within) {
			fmt.Fprint(w, "---|")
		}
	}
	for _, row := range []struct {
		name  string
		curve []float64
	}{{fmt.Sprintf("members within %.1f of their level's Mu", c.Tolerance), rep.Within}, {"pairs of members of two levels in the right order", rep.Ordered}} {
		fmt.Fprintf(w, "\n| %s |", row.name)
		for _, n := range ns {
			if n <= len(row.curve) {
				fmt.Fprintf(w, " %.0f%% |", 100*row.curve[n-1])
			}
		}
	}
	fmt.Fprintln(w)
	for _, row := range []struct {
		what string
		n    int
	}{{fmt.Sprintf("%.0f%% of members within %.1f", 100*c.Settled, c.Tolerance), rep.SettledAfter}, {fmt.Sprintf("%.0f%% of pairs in order", 100*c.Settled), rep.OrderedAfter}} {
		if row.n > 0 {
			fmt.Fprintf(w, "\n%s from game %d on.", row.what, row.n)
		} else {
			fmt.Fprintf(w, "\n%s: not for good.", row.what)
		}
	}
	fmt.Fprint(w, "\n\n")
	fmt.Fprintln(w, "| the favourite's predicted chance to place above | pairs | predicted | observed |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, b := range rep.Bins {
		if b.Pairs > 0 {
			fmt.Fprintf(w, "| %.1f–%.1f | %d | %.3f | %.3f |\n", b.From, b.To, b.Pairs, b.Predicted, b.Observed)
		}
	}
	fmt.Fprintln(w)
}

// spread says how a figure, one a server, varies: its mean, its least
// and its greatest, in points.
func spread(xs []float64) string {
	if len(xs) == 0 {
		return "none"
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return fmt.Sprintf("%+.1f points on average, %+.1f to %+.1f", 100*sum/float64(len(xs)), 100*slices.Min(xs), 100*slices.Max(xs))
}

// readRatingGames reads selfplay logs or placings, by edition.
func readRatingGames(list string) (map[string][]rating.FitGame, error) {
	out := map[string][]rating.FitGame{}
	for _, name := range strings.Split(list, ",") {
		raw, err := os.ReadFile(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		if len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b {
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if raw, err = io.ReadAll(zr); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		var games map[string][]rating.FitGame
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
			records, err := arena.ReadRecords(bytes.NewReader(raw))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			games = map[string][]rating.FitGame{}
			for _, r := range records {
				games[r.Map] = append(games[r.Map], placingsOf(r))
			}
		} else if games, err = rating.ReadPlacings(bytes.NewReader(raw)); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for ed, gs := range games {
			out[ed] = append(out[ed], gs...)
		}
	}
	return out, nil
}

// placingsOf ranks a selfplay game's seats as the final sheet would: by
// score, then by tickets completed (every edition's first tie-break), a
// winner (the engine's every tie-break applied) before the rest; seats
// still tied share their place. The record lacks the later tie-breaks
// (longest path, stations, goods) below the first place.
func placingsOf(r arena.GameRecord) rating.FitGame {
	n := len(r.Levels)
	better := func(i, j int) bool {
		switch {
		case r.Score[i] != r.Score[j]:
			return r.Score[i] > r.Score[j]
		case r.Completed[i] != r.Completed[j]:
			return r.Completed[i] > r.Completed[j]
		}
		return r.Win[i] > 0 && r.Win[j] == 0
	}
	g := make(rating.FitGame, n)
	for i := range n {
		rank := 1
		for j := range n {
			if better(j, i) {
				rank++
			}
		}
		g[i] = rating.Placing{Player: r.Levels[i], Rank: rank}
	}
	return g
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func levelsByMu(mu map[string]float64) []string {
	ls := sortedKeys(mu)
	slices.SortStableFunc(ls, func(a, b string) int {
		switch {
		case mu[a] < mu[b]:
			return -1
		case mu[a] > mu[b]:
			return 1
		}
		return 0
	})
	return ls
}

func gamesOf(gs []rating.FitGame, level string) int {
	n := 0
	for _, g := range gs {
		if slices.ContainsFunc(g, func(p rating.Placing) bool { return p.Player == level }) {
			n++
		}
	}
	return n
}

func seatCounts(gs []rating.FitGame) string {
	by := map[int]int{}
	for _, g := range gs {
		by[len(g)]++
	}
	var parts []string
	for k := 2; k <= 5; k++ {
		if by[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d at %d seats", by[k], k))
		}
	}
	return strings.Join(parts, ", ")
}
