package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"conductor/data"
	"conductor/engine"
)

// scoreJSON is what `conductor score` prints.
type scoreJSON struct {
	Map     string            `json:"map"`
	Players []playerScoreJSON `json:"players"`
	Ranking []string          `json:"ranking"` // names, winner first
	// Shared is true when several players share the first place.
	Shared bool `json:"shared_victory"`
}

type playerScoreJSON struct {
	Name string `json:"name"`
	// Place is 1 for the winners; players tied after every tie-break share it.
	Place            int          `json:"place"`
	RoutePoints      int          `json:"route_points"`
	Tickets          []ticketJSON `json:"tickets"`
	TicketPoints     int          `json:"ticket_points"`
	CompletedTickets int          `json:"completed_tickets"`
	LongestPath      int          `json:"longest_path"`
	LongestRoutes    [][3]string  `json:"longest_routes"` // [end, end, colour], end to end
	LongestBonus     bool         `json:"longest_bonus"`
	TicketsBonus     bool         `json:"tickets_bonus"`
	BonusPoints      int          `json:"bonus_points"`
	StationsBuilt    int          `json:"stations_built"`
	StationPoints    int          `json:"station_points"`
	GoodsPoints      int          `json:"goods_points"`
	Total            int          `json:"total"`
	BorrowedRoutes   [][2]string  `json:"borrowed_routes"` // [end, end] of the opponent routes stations use
}

type ticketJSON struct {
	A         string `json:"a"`
	B         string `json:"b"`
	Points    int    `json:"points"`
	Completed bool   `json:"completed"`
}

func runScore(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, decks := newFlags("score", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conductor score [flags] [FILE]\n\n"+
			"Scores an end-of-game position read from FILE, or from standard input\n"+
			"when FILE is absent or \"-\", and prints the scores as JSON. Example position:\n\n  "+
			engine.PositionExample+"\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err // realMain exits 0 for help
		}
		return usageError{err}
	}
	if fs.NArg() > 1 {
		return badInput("give one position file (or none to read standard input), not %d", fs.NArg())
	}
	var src []byte
	var err error
	if path := fs.Arg(0); path != "" && path != "-" {
		src, err = os.ReadFile(path)
	} else {
		src, err = io.ReadAll(stdin)
	}
	if err != nil {
		return badInput("%v", err)
	}
	cat, err := catalog(*decks)
	if err != nil {
		return err
	}
	pos, err := engine.ParsePosition(cat, src)
	if err != nil {
		return badInput("%v", err)
	}
	final := engine.Score(pos.Board, pos.Players)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", " ")
	return enc.Encode(scoreOutput(pos.Board, final))
}

func scoreOutput(b *data.Board, final engine.FinalScore) scoreJSON {
	city := func(c data.CityID) string { return b.Cities[c].Name }
	out := scoreJSON{Map: b.ID, Players: []playerScoreJSON{}, Ranking: []string{}}
	for i, ps := range final.Players {
		p := playerScoreJSON{Name: ps.Name, Place: final.Places[i], RoutePoints: ps.RoutePoints, Tickets: []ticketJSON{},
			TicketPoints: ps.TicketPoints, CompletedTickets: ps.CompletedTickets,
			LongestPath: ps.LongestPath, LongestRoutes: [][3]string{},
			LongestBonus: ps.LongestBonus, TicketsBonus: ps.TicketsBonus, BonusPoints: ps.BonusPoints,
			StationsBuilt: ps.StationsBuilt, StationPoints: ps.StationPoints, GoodsPoints: ps.GoodsPoints,
			Total: ps.Total, BorrowedRoutes: [][2]string{}}
		for _, t := range ps.Tickets {
			p.Tickets = append(p.Tickets, ticketJSON{city(t.A), city(t.B), t.Points, t.Completed})
		}
		for _, id := range ps.LongestTracks {
			t := &b.Tracks[id]
			p.LongestRoutes = append(p.LongestRoutes, [3]string{city(t.A), city(t.B), t.Color.String()})
		}
		for _, id := range ps.Borrowed {
			t := &b.Tracks[id]
			p.BorrowedRoutes = append(p.BorrowedRoutes, [2]string{city(t.A), city(t.B)})
		}
		out.Players = append(out.Players, p)
	}
	for _, i := range final.Ranking {
		out.Ranking = append(out.Ranking, final.Players[i].Name)
	}
	out.Shared = len(final.Winners()) > 1
	return out
}
