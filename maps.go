package main

import (
	"context"
	"encoding/json"
	"flag"
	"strings"

	"conductor/data"
	"conductor/ops"
)

// mapsCommand prints the boards as JSON.
func mapsCommand(fs *flag.FlagSet) runFunc {
	only := fs.String("map", "", "print only this board (usa, europe or marklin)")
	return func(_ context.Context, in *invocation) error {
		cat, err := ops.Catalog(in.decks)
		if err != nil {
			return err
		}
		var out struct {
			Maps []data.MapJSON `json:"maps"`
		}
		for _, b := range cat.Boards() {
			if *only == "" || *only == b.ID {
				out.Maps = append(out.Maps, b.JSON())
			}
		}
		if len(out.Maps) == 0 {
			return badInput("no board %q (boards: %s)", *only, strings.Join(cat.IDs(), ", "))
		}
		return writeJSON(in, out)
	}
}

// writeJSON prints v, indented, on standard output.
func writeJSON(in *invocation, v any) error {
	enc := json.NewEncoder(in.stdout)
	enc.SetIndent("", " ")
	return enc.Encode(v)
}
