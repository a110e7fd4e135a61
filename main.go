// Command conductor runs Ticket to Ride games in Discord channels, and offers
// a few offline tools: maps, score, render, play, selfplay, backup, migrate,
// reshard, hold.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"conductor/data"
)

// exitUsage is the status for bad input, as documented for `conductor score`.
const exitUsage = 2

type command struct {
	name, summary string
	run           func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

func subcommands() []command {
	return []command{
		{"run", "run the Discord bot (the default)", runBot},
		{"doctor", "check the token, the commands and a channel's permissions before inviting players", runDoctor},
		{"maps", "print the boards as JSON", runMaps},
		{"score", "score an end-of-game position given as JSON", runScore},
		{"selfplay", "play bot-only games and print each bot's results as JSON", runSelfplay},
		{"render", "draw a position as the board PNG (or --final: the score sheet)", runRender},
		{"play", "play a game in the terminal: hot-seat players and bots, saved and resumable", runPlay},
		{"backup", "take a hot copy of the database (also while the bot runs)", runBackup},
		{"migrate", "upgrade the database schema, after a backup", runMigrate},
		{"reshard", "move servers' games to their shard's database after the shard count changes", runReshard},
		{"hold", "keep the machine up without serving or opening the database (maintenance)", runHold},
	}
}

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func realMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	for _, c := range subcommands() {
		if c.name == name {
			err := c.run(args, stdin, stdout, stderr)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			}
			fmt.Fprintln(stderr, "conductor "+name+":", err)
			var ue usageError
			if errors.As(err, &ue) {
				return exitUsage
			}
			return 1
		}
	}
	if name == "help" {
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "conductor: unknown command %q\n", name)
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: conductor [command] [flags]\n\ncommands:")
	for _, c := range subcommands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'conductor COMMAND -h' for a command's flags.")
}

// usageError is bad input from the user: exit status 2.
type usageError struct{ error }

func badInput(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// newFlags makes a command's flag set with the options every command shares.
func newFlags(name string, stderr io.Writer) (*flag.FlagSet, *[]string) {
	fs := flag.NewFlagSet("conductor "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var decks []string
	fs.Func("tickets", "replace a board's tickets with a deck `FILE` (repeatable; also CONDUCTOR_TICKETS, comma-separated)", func(s string) error {
		decks = append(decks, s)
		return nil
	})
	return fs, &decks
}

// catalog loads the embedded boards and applies deck files from flags and
// CONDUCTOR_TICKETS.
func catalog(decks []string) (*data.Catalog, error) {
	c := data.Embedded()
	if env := os.Getenv("CONDUCTOR_TICKETS"); env != "" {
		decks = append(strings.Split(env, ","), decks...)
	}
	for _, path := range decks {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, badInput("tickets: %v", err)
		}
		c, err = c.LoadDeckFile(path, src)
		if err != nil {
			return nil, badInput("%v", err)
		}
	}
	return c, nil
}

func runMaps(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs, decks := newFlags("maps", stderr)
	only := fs.String("map", "", "print only this board (usa, europe or marklin)")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	cat, err := catalog(*decks)
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
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

func runBot(args []string, _ io.Reader, _, stderr io.Writer) error {
	fs, decks := newFlags("run", stderr)
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	cfg, err := runConfigFrom(os.Getenv, *decks)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, cfg, stderr)
}

// Unwrap lets errors.Is see flag.ErrHelp through a usageError.
func (u usageError) Unwrap() error { return u.error }
