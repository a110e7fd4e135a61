package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/present"
)

// errDoctorFailed ends `conductor doctor` with status 1 after its report.
var errDoctorFailed = errors.New("some checks failed")

// runDoctor checks, before players are invited, that the bot can work:
// token, registered commands and, with --channel, its permissions there.
func runDoctor(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs, _ := newFlags("doctor", stderr)
	channel := fs.String("channel", "", "check the bot's permissions in the channel with this `ID` (where games will be played)")
	post := fs.Bool("post", false, "with --channel: post a test board there and delete it")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: DISCORD_TOKEN=... conductor doctor [--channel ID [--post]]\n\n"+
			"Checks the token, the slash commands (globally, or on DISCORD_GUILD_ID) and, in a channel,\n"+
			"each permission Conductor needs. Exit status 0 when all is well, 1 otherwise.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *post && *channel == "" {
		return badInput("--post needs --channel ID")
	}
	token := strings.TrimSpace(os.Getenv("DISCORD_TOKEN"))
	if token == "" {
		return noTokenError("conductor doctor")
	}
	b, err := bot.New(bot.Config{Token: token, GuildID: strings.TrimSpace(os.Getenv("DISCORD_GUILD_ID")),
		APIBase: strings.TrimSpace(os.Getenv("DISCORD_API_URL")), Commands: commands.Definitions(data.Embedded().IDs()),
		Logger:   slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError})),
		Activity: strings.TrimSpace(os.Getenv("DISCORD_CLIENT_SECRET")) != ""})
	if err != nil {
		return err
	}
	opts := bot.DoctorOptions{ChannelID: *channel}
	if *post {
		if opts.TestBoard, err = testBoard(); err != nil {
			return err
		}
	}
	report := append(b.Doctor(opts), doctorWeb(os.Getenv, nil)...)
	report.Write(stdout)
	if !report.OK() {
		return errDoctorFailed
	}
	return nil
}

// testBoard is the message `doctor --post` sends: an empty USA board, as a
// game's board post has it (picture, embed).
func testBoard() (*commands.Message, error) {
	b, _ := data.Embedded().Board("usa")
	sc, err := present.PositionScene("en", &engine.Position{Board: b})
	if err != nil {
		return nil, err
	}
	var png bytes.Buffer
	if err := imaging.NewRenderer().Board(&png, sc); err != nil {
		return nil, err
	}
	return &commands.Message{
		Content: "🩺 conductor doctor: a test board, deleted at once.",
		Embeds:  []commands.Embed{{Title: "Test board", Image: "board.png"}},
		Files:   []commands.File{{Name: "board.png", ContentType: "image/png", Data: png.Bytes()}},
	}, nil
}
