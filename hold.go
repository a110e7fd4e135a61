package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// runHold keeps a machine up without serving Discord or opening the
// database, so that its files can be worked on over fly ssh (conductor
// reshard, restoring a backup): the image has no shell to idle with.
func runHold(args []string, _ io.Reader, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("conductor hold", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: conductor hold

Waits until stopped (SIGINT, SIGTERM) without connecting to Discord or
opening the database: run a machine with this command to keep it up for
maintenance over fly ssh (see docs/deploy.md, "Growing: shards").`)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() != 0 {
		return badInput("hold takes no arguments")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	hold(ctx, stderr)
	return nil
}

func hold(ctx context.Context, stderr io.Writer) {
	fmt.Fprintln(stderr, "conductor hold: not serving Discord, database closed; waiting to be stopped")
	<-ctx.Done()
	fmt.Fprintln(stderr, "conductor hold: stopped")
}
