// Command conductor runs Ticket to Ride games in Discord channels, and offers
// a few offline tools: maps, score, render, play, selfplay, ratings, backup,
// migrate, reshard, hold.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"conductor/ai/arena"
	"conductor/ops"
)

// exitUsage is the status for bad input, as documented for `conductor score`.
const exitUsage = 2

// command is a subcommand. Flags declares its flags and returns what runs
// once they are parsed; the preamble every command shares (the flag set,
// --tickets, help, bad-input exit status, the signal context) is realMain's.
type command struct {
	Name    string
	Summary string // its line in `conductor help`
	Usage   string // printed above the flags by -h; "" for the flag package's
	Tickets bool   // takes --tickets (and CONDUCTOR_TICKETS)
	Signals bool   // Run's context ends on SIGINT or SIGTERM (else they stop the process)
	Flags   func(fs *flag.FlagSet) runFunc
}

// runFunc runs a command once its flags are parsed.
type runFunc func(ctx context.Context, in *invocation) error

// invocation is a command's inputs and outputs, after its flags.
type invocation struct {
	// program is how the user started Conductor ("conductor", "go run ."):
	// hints name it.
	program        string
	fs             *flag.FlagSet
	decks          []string // --tickets
	stdin          io.Reader
	stdout, stderr io.Writer
}

func subcommands() []command {
	return []command{
		{Name: "run", Summary: "run the Discord bot (the default)", Tickets: true, Signals: true, Flags: runCommand},
		{Name: "doctor", Summary: "check the token, the commands and a channel's permissions before inviting players", Usage: doctorUsage, Tickets: true, Flags: doctorCommand},
		{Name: "maps", Summary: "print the boards as JSON", Tickets: true, Flags: mapsCommand},
		{Name: "score", Summary: "score an end-of-game position given as JSON", Usage: scoreUsage, Tickets: true, Flags: scoreCommand},
		{Name: "selfplay", Summary: "play bot-only games and print each bot's results as JSON", Usage: arena.Usage, Tickets: true, Flags: selfplayCommand},
		{Name: "ratings", Summary: "measure the bots' rating anchors, or check the ratings, on bot-only games", Usage: ratingsUsage, Flags: ratingsCommand},
		{Name: "render", Summary: "draw a position as the board PNG (or --final: the score sheet)", Usage: renderUsage, Tickets: true, Flags: renderCommand},
		{Name: "play", Summary: "play a game in the terminal: hot-seat players and bots, saved and resumable", Tickets: true, Flags: playCommand},
		{Name: "backup", Summary: "take a hot copy of the database (also while the bot runs)", Usage: backupUsage, Flags: backupCommand},
		{Name: "migrate", Summary: "upgrade the database schema, after a backup; --to postgres://…: copy the file into PostgreSQL", Usage: migrateUsage, Tickets: true, Flags: migrateCommand},
		{Name: "reshard", Summary: "move servers' games to their shard's database after the shard count changes", Usage: reshardUsage, Flags: reshardCommand},
		{Name: "hold", Summary: "keep the machine up without serving or opening the database (maintenance)", Usage: holdUsage, Signals: true, Flags: holdCommand},
	}
}

func main() {
	os.Exit(runAs(invokedAs(os.Args[0]), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// realMain runs Conductor as an installed `conductor` would run: the
// tests' way in.
func realMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runAs("conductor", args, stdin, stdout, stderr)
}

// runAs runs a command, program being how the user started Conductor
// (invokedAs): the hints it prints name what to type next that way.
func runAs(program string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	for _, c := range subcommands() {
		if c.Name == name {
			err := c.run(program, args, stdin, stdout, stderr)
			if nt := (*ops.NoTokenError)(nil); errors.As(err, &nt) {
				nt.Program = program
			}
			if err == nil || errors.Is(err, flag.ErrHelp) {
				return 0
			}
			fmt.Fprintln(stderr, "conductor "+name+":", err)
			var ue usageError
			var ce ops.ConfigError
			if errors.As(err, &ue) || errors.As(err, &ce) {
				return exitUsage
			}
			return 1
		}
	}
	if name == "help" {
		usage(stdout, program)
		return 0
	}
	fmt.Fprintf(stderr, "conductor: unknown command %q\n", name)
	usage(stderr, program)
	return exitUsage
}

// run is the preamble every command shares, then the command.
func (c command) run(program string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	in := &invocation{program: program, fs: flag.NewFlagSet(program+" "+c.Name, flag.ContinueOnError), stdin: stdin, stdout: stdout, stderr: stderr}
	in.fs.SetOutput(stderr)
	if c.Usage != "" {
		in.fs.Usage = func() {
			fmt.Fprintln(stderr, c.Usage)
			in.fs.PrintDefaults()
		}
	}
	if c.Tickets {
		in.fs.Func("tickets", "replace a board's tickets with a deck `FILE` (repeatable; also CONDUCTOR_TICKETS, comma-separated)", func(s string) error {
			in.decks = append(in.decks, s)
			return nil
		})
	}
	run := c.Flags(in.fs)
	if err := in.fs.Parse(args); err != nil {
		return usageError{err}
	}
	ctx := context.Background()
	if c.Signals {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	return run(ctx, in)
}

func usage(w io.Writer, program string) {
	fmt.Fprintf(w, "usage: %s [command] [flags]\n\ncommands:\n", program)
	for _, c := range subcommands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintf(w, "\nRun '%s COMMAND -h' for a command's flags.\n", program)
}

// usageError is bad input from the user: exit status 2.
type usageError struct{ error }

// Unwrap lets errors.Is see flag.ErrHelp through a usageError.
func (u usageError) Unwrap() error { return u.error }

func badInput(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// logger writes to standard error from level up.
func (in *invocation) logger(level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(in.stderr, &slog.HandlerOptions{Level: level}))
}
