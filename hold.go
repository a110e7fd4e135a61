package main

import (
	"context"
	"flag"
	"fmt"
)

const holdUsage = `usage: conductor hold

Waits until stopped (SIGINT, SIGTERM) without connecting to Discord or
opening the database: run a machine with this command to keep it up for
maintenance over fly ssh (see docs/deploy.md, "Growing: shards").`

// holdCommand keeps a machine up for work on its files (no shell idles).
func holdCommand(fs *flag.FlagSet) runFunc {
	return func(ctx context.Context, in *invocation) error {
		if fs.NArg() != 0 {
			return badInput("hold takes no arguments")
		}
		fmt.Fprintln(in.stderr, "conductor hold: not serving Discord, database closed; waiting to be stopped")
		<-ctx.Done()
		fmt.Fprintln(in.stderr, "conductor hold: stopped")
		return nil
	}
}
