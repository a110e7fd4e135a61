package ops

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/engine/position"
	"conductor/imaging"
	"conductor/present"
)

// Doctor checks, before players are invited, that the bot can work: the
// token, the registered commands, in channel (when not "") the bot's
// permissions, with post a test board posted there and deleted, and the
// live page's settings and address. client fetches the page (nil: one with
// a 10 s timeout).
func Doctor(getenv func(string) string, channel string, post bool, client *http.Client, log *slog.Logger) (bot.Report, error) {
	token := strings.TrimSpace(getenv("DISCORD_TOKEN"))
	if token == "" {
		return nil, &NoTokenError{Command: "doctor"}
	}
	b, err := bot.New(bot.Config{Token: token, GuildID: strings.TrimSpace(getenv("DISCORD_GUILD_ID")),
		APIBase: strings.TrimSpace(getenv("DISCORD_API_URL")), Commands: commands.Definitions(data.Embedded().IDs()),
		Logger: log, Activity: strings.TrimSpace(getenv("DISCORD_CLIENT_SECRET")) != ""})
	if err != nil {
		return nil, err
	}
	opts := bot.DoctorOptions{ChannelID: channel}
	if post {
		if opts.TestBoard, err = testBoard(); err != nil {
			return nil, err
		}
	}
	return append(b.Doctor(opts), DoctorWeb(getenv, client)...), nil
}

// testBoard is the message `doctor --post` sends: an empty USA board, as a
// game's board post has it (picture, embed).
func testBoard() (*commands.Message, error) {
	b, _ := data.Embedded().Board("usa")
	sc, err := present.PositionScene("en", &position.Position{Board: b})
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
