package main

import (
	"context"
	"flag"
	"io"
	"os"
	"slices"
	"strings"

	"conductor/engine/position"
	"conductor/present"
)

const renderUsage = "usage: conductor render [flags] < position.json > board.png\n\n" +
	"The position is the JSON of `conductor score`, players in seat order,\n" +
	"with an optional \"face_up\" list of cards. Example:\n\n  " + position.Example + "\n\nflags:"

// renderCommand draws a position (the JSON of `conductor score`) as the
// public board, or with --final as the final score sheet, as a PNG.
func renderCommand(fs *flag.FlagSet) runFunc {
	mapID := fs.String("map", "", "the board (usa, europe or marklin); default: the position's \"map\"")
	final := fs.Bool("final", false, "draw the final scoring sheet instead of the board")
	out := fs.String("o", "-", "write the PNG to this `FILE` (- for standard output)")
	lang := fs.String("lang", "en", "the language of the picture's words: "+strings.Join(present.Languages, ", "))
	return func(_ context.Context, in *invocation) error {
		src, err := io.ReadAll(in.stdin)
		if err != nil {
			return badInput("%v", err)
		}
		if src, err = position.WithMap(src, *mapID); err != nil {
			return badInput("%v", err)
		}
		if l, _, _ := strings.Cut(strings.ToLower(*lang), "-"); !slices.Contains(present.Languages, l) {
			return badInput("--lang %s: the pictures speak %s", *lang, strings.Join(present.Languages, ", "))
		}
		pos, err := in.position(src)
		if err != nil {
			return err
		}
		w := in.stdout
		if *out != "-" {
			f, err := os.Create(*out)
			if err != nil {
				return err
			}
			defer f.Close()
			w = f
		}
		return present.DrawPosition(w, *lang, pos, *final)
	}
}
