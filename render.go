package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"conductor/engine/position"
	"conductor/imaging"
	"conductor/present"
)

// runRender draws a position (the JSON of `conductor score`) as the public
// board, or with --final as the final score sheet, and writes the PNG.
func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, decks := newFlags("render", stderr)
	mapID := fs.String("map", "", "the board (usa, europe or marklin); default: the position's \"map\"")
	final := fs.Bool("final", false, "draw the final scoring sheet instead of the board")
	out := fs.String("o", "-", "write the PNG to this `FILE` (- for standard output)")
	lang := fs.String("lang", "en", "the language of the picture's words: "+strings.Join(present.Languages, ", "))
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conductor render [flags] < position.json > board.png\n\nThe position is the JSON of `conductor score`, players in seat order,\nwith an optional \"face_up\" list of cards. Example:\n\n  "+position.Example+"\n\nflags:")
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
	if l, _, _ := strings.Cut(strings.ToLower(*lang), "-"); !slices.Contains(present.Languages, l) {
		return badInput("--lang %s: the pictures speak %s", *lang, strings.Join(present.Languages, ", "))
	}
	pos, err := position.Parse(cat, src)
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
		err = r.Final(bw, present.PositionFinalScene(*lang, pos))
	} else {
		var sc *imaging.Scene
		if sc, err = present.PositionScene(*lang, pos); err != nil {
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
		return nil, badInput("the position is not JSON: %v (example: %s)", err, position.Example)
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
