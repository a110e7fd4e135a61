package main

import (
	"context"
	"flag"
	"io"
	"os"

	"conductor/engine"
	"conductor/engine/position"
	"conductor/ops"
	"conductor/present"
)

const scoreUsage = "usage: conductor score [flags] [FILE]\n\n" +
	"Scores an end-of-game position read from FILE, or from standard input\n" +
	"when FILE is absent or \"-\", and prints the scores as JSON. Example position:\n\n  " +
	position.Example + "\n\nflags:"

// scoreCommand scores a position typed as JSON.
func scoreCommand(*flag.FlagSet) runFunc {
	return func(_ context.Context, in *invocation) error {
		if in.fs.NArg() > 1 {
			return badInput("give one position file (or none to read standard input), not %d", in.fs.NArg())
		}
		var src []byte
		var err error
		if path := in.fs.Arg(0); path != "" && path != "-" {
			src, err = os.ReadFile(path)
		} else {
			src, err = io.ReadAll(in.stdin)
		}
		if err != nil {
			return badInput("%v", err)
		}
		pos, err := in.position(src)
		if err != nil {
			return err
		}
		final := engine.Score(pos.Board, pos.Players)
		return writeJSON(in, present.Report(pos.Board, &final))
	}
}

// position reads a position on the boards of the catalog.
func (in *invocation) position(src []byte) (*position.Position, error) {
	cat, err := ops.Catalog(in.decks)
	if err != nil {
		return nil, err
	}
	pos, err := position.Parse(cat, src)
	if err != nil {
		return nil, badInput("%v", err)
	}
	return pos, nil
}
