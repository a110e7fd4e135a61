package main

import (
	"context"
	"flag"
	"fmt"

	"conductor/ops"
)

const reshardUsage = `usage: conductor reshard --from N --to M [--dry-run] SHARD0.db SHARD1.db ...

Moves every live game, archived game (and so the statistics) and anything
else kept per server or channel to the database of the shard that serves
that server with M shards: Discord sends server G's events to shard
(G >> 22) % M; DM and terminal games stay on shard 0.

Give max(N, M) databases, shard 0's first: those of the N shards (each
shard's CONDUCTOR_DB), then new files for the shards added. Stop every
shard's bot first: a database in use is refused. Before any change each
existing database is copied to FILE.pre-reshard-TIME (0600). Running the
command again is harmless, and finishes a run that was interrupted.
See docs/deploy.md, "Growing: shards".

flags:`

// reshardCommand moves every server's records to the database of the
// shard that serves it after the shard count changes (the bots stopped).
func reshardCommand(fs *flag.FlagSet) runFunc {
	from := fs.Int("from", 0, "the number of shards the databases were served with (required)")
	to := fs.Int("to", 0, "the number of shards they will be served with (required)")
	dry := fs.Bool("dry-run", false, "say what would move, and change nothing")
	return func(_ context.Context, in *invocation) error {
		switch {
		case *from < 1 || *to < 1:
			return badInput("give both shard counts, e.g. conductor reshard --from 1 --to 2 shard0.db shard1.db")
		case fs.NArg() != max(*from, *to):
			return badInput("--from %d --to %d needs %d databases, shard 0's first; got %d", *from, *to, max(*from, *to), fs.NArg())
		}
		paths := fs.Args()
		rep, err := ops.Reshard(ops.ReshardOptions{From: *from, To: *to, Paths: paths, DryRun: *dry})
		if err != nil {
			return err
		}
		fmt.Fprint(in.stdout, rep.Summary(paths))
		if !rep.DryRun {
			fmt.Fprintf(in.stdout, "done: start %d shard(s) with CONDUCTOR_SHARD_COUNT=%d, shard i on the i-th database\n", *to, *to)
		}
		return nil
	}
}
