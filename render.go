package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
)

// runRender draws a position (the JSON of `conductor score`) as the public
// board, or with --final as the final score sheet, and writes the PNG.
func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, decks := newFlags("render", stderr)
	mapID := fs.String("map", "", "the board (usa, europe or marklin); default: the position's \"map\"")
	final := fs.Bool("final", false, "draw the final scoring sheet instead of the board")
	out := fs.String("o", "-", "write the PNG to this `FILE` (- for standard output)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conductor render [flags] < position.json > board.png\n\nThe position is the JSON of `conductor score`, players in seat order,\nwith an optional \"face_up\" list of cards. Example:\n\n  "+engine.PositionExample+"\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	src, err := io.ReadAll(stdin)
	if err != nil {
		return badInput("%v", err)
	}
	src, err = withMap(src, *mapID)
	if err != nil {
		return err
	}
	cat, err := catalog(*decks)
	if err != nil {
		return err
	}
	pos, err := engine.ParsePosition(cat, src)
	if err != nil {
		return badInput("%v", err)
	}
	w := stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	r := imaging.NewRenderer()
	if *final {
		err = r.Final(bw, finalScene(pos))
	} else {
		var sc *imaging.Scene
		if sc, err = positionScene(pos); err != nil {
			return badInput("%v", err)
		}
		err = r.Board(bw, sc)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// withMap checks or fills the position's "map" with the --map flag.
func withMap(src []byte, mapID string) ([]byte, error) {
	if mapID == "" {
		return src, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(src, &m); err != nil {
		return nil, badInput("the position is not JSON: %v (example: %s)", err, engine.PositionExample)
	}
	if raw, ok := m["map"]; ok {
		var given string
		if json.Unmarshal(raw, &given) == nil && given != mapID {
			return nil, badInput("--map %s but the position is on the %s board", mapID, given)
		}
		return src, nil
	}
	m["map"], _ = json.Marshal(mapID)
	return json.Marshal(m)
}

// positionScene is the public board of a position.
func positionScene(pos *engine.Position) (*imaging.Scene, error) {
	b := pos.Board
	sc := &imaging.Scene{Board: b, Current: -1, Owners: make([]int8, len(b.Tracks)), Stations: make([]int8, len(b.Cities))}
	for i := range sc.Owners {
		sc.Owners[i] = -1
	}
	for i := range sc.Stations {
		sc.Stations[i] = -1
	}
	sc.Goods = make([][]int, len(b.Cities))
	for c := range b.Cities {
		sc.Goods[c] = b.Cities[c].GoodsStack
	}
	for seat, h := range pos.Players {
		p := imaging.PlayerPanel{Name: h.Name, Color: seat, Trains: b.Rules.Trains, Stations: b.Rules.Stations - len(h.Stations),
			Tickets: len(h.Tickets), Score: h.Goods, PassengersLeft: b.Rules.Passengers}
		for _, t := range h.Tracks {
			sc.Owners[t] = int8(seat)
			p.Trains -= b.Tracks[t].Length
			p.Score += b.RoutePoints(b.Tracks[t].Length)
		}
		for _, c := range h.Stations {
			sc.Stations[c] = int8(seat)
		}
		sc.Players = append(sc.Players, p)
	}
	for _, name := range pos.FaceUp {
		c, err := engine.ParseCard(name)
		if err != nil {
			return nil, err
		}
		sc.FaceUp = append(sc.FaceUp, c)
	}
	return sc, nil
}

// finalScene is the score sheet of a position.
func finalScene(pos *engine.Position) *imaging.FinalScene {
	b := pos.Board
	fs := engine.Score(b, pos.Players)
	sc := &imaging.FinalScene{Board: b, Owners: make([]int8, len(b.Tracks))}
	for i := range sc.Owners {
		sc.Owners[i] = -1
	}
	for seat, h := range pos.Players {
		for _, t := range h.Tracks {
			sc.Owners[t] = int8(seat)
		}
	}
	for i, ps := range fs.Players {
		fl := imaging.FinalLine{Name: ps.Name, Color: i, RoutePoints: ps.RoutePoints, StationPoints: ps.StationPoints,
			GoodsPoints: ps.GoodsPoints, Total: ps.Total, Winner: fs.Ranking[0] == i, LongestPath: ps.LongestTracks}
		for _, tk := range ps.Tickets {
			line := imaging.TicketLine{From: b.Cities[tk.A].Name, To: b.Cities[tk.B].Name, Points: tk.Points, Completed: tk.Completed, Cities: []data.CityID{tk.A, tk.B}}
			if tk.Completed {
				fl.TicketsWon = append(fl.TicketsWon, line)
			} else {
				fl.TicketsLost = append(fl.TicketsLost, line)
			}
		}
		if ps.LongestBonus {
			name := "Longest path"
			if b.Rules.Stations > 0 {
				name = "European Express"
			}
			fl.Bonuses = append(fl.Bonuses, imaging.Bonus{Name: name, Points: ps.BonusPoints})
		}
		if ps.TicketsBonus {
			fl.Bonuses = append(fl.Bonuses, imaging.Bonus{Name: "Most tickets", Points: ps.BonusPoints})
		}
		sc.Players = append(sc.Players, fl)
	}
	return sc
}
