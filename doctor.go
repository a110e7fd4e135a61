package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"os"

	"conductor/ops"
)

var errDoctorFailed = errors.New("some checks failed") // status 1, after the report

const doctorUsage = "usage: DISCORD_TOKEN=... conductor doctor [--channel ID [--post]]\n\n" +
	"Checks the token, the slash commands (globally, or on DISCORD_GUILD_ID) and, in a channel,\n" +
	"each permission Conductor needs. Exit status 0 when all is well, 1 otherwise."

// doctorCommand checks, before players are invited, that the bot can work.
func doctorCommand(fs *flag.FlagSet) runFunc {
	channel := fs.String("channel", "", "check the bot's permissions in the channel with this `ID` (where games will be played)")
	post := fs.Bool("post", false, "with --channel: post a test board there and delete it")
	return func(_ context.Context, in *invocation) error {
		if *post && *channel == "" {
			return badInput("--post needs --channel ID")
		}
		report, err := ops.Doctor(os.Getenv, *channel, *post, nil, in.logger(slog.LevelError))
		if err != nil {
			return err
		}
		report.Write(in.stdout)
		if !report.OK() {
			return errDoctorFailed
		}
		return nil
	}
}
