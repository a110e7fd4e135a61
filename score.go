package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"conductor/engine"
	"conductor/engine/position"
	"conductor/present"
)

func runScore(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, decks := newFlags("score", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conductor score [flags] [FILE]\n\n"+
			"Scores an end-of-game position read from FILE, or from standard input\n"+
			"when FILE is absent or \"-\", and prints the scores as JSON. Example position:\n\n  "+
			position.Example+"\n\nflags:")
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
	pos, err := position.Parse(cat, src)
	if err != nil {
		return badInput("%v", err)
	}
	final := engine.Score(pos.Board, pos.Players)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", " ")
	return enc.Encode(present.Report(pos.Board, &final))
}
