package main

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
)

type ignoreRequests struct{}

func (ignoreRequests) Handle(context.Context, *commands.Request, commands.Responder) {}

func TestDoctorCommandExitStatus(t *testing.T) {
	srv := fakediscord.New(t)
	guild := srv.CreateGuild("Rail Club")
	table := srv.CreateTextChannel(guild.ID, "table")
	t.Setenv("DISCORD_API_URL", srv.BaseURL())
	t.Setenv("DISCORD_GUILD_ID", guild.ID)
	doctor := func(args ...string) (int, string) {
		var out, errs bytes.Buffer
		code := realMain(append([]string{"doctor"}, args...), nil, &out, &errs)
		return code, out.String() + errs.String()
	}

	t.Setenv("DISCORD_TOKEN", "not-the-token")
	if code, out := doctor("--channel", table.ID); code != 1 || !strings.Contains(out, "✗ Token: Discord refused the token") {
		t.Fatalf("bad token: exit %d\n%s", code, out)
	}
	t.Setenv("DISCORD_TOKEN", srv.Token())
	if code, out := doctor(); code != 1 || !strings.Contains(out, "✗ Commands") {
		t.Fatalf("commands never registered: exit %d\n%s", code, out)
	}
	if code, out := doctor("--post"); code != exitUsage || !strings.Contains(out, "--post needs --channel") {
		t.Fatalf("--post alone: exit %d\n%s", code, out)
	}

	// The bot ran once (registering its commands) and was invited with the link's permissions.
	b, err := bot.New(bot.Config{Token: srv.Token(), GuildID: guild.ID, APIBase: srv.BaseURL(),
		Commands: commands.Definitions(data.Embedded().IDs()), ReadyTimeout: 20 * time.Second,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background(), ignoreRequests{}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	role := srv.CreateRole(guild.ID, "Conductor", bot.InvitePermissions())
	srv.GiveRole(guild.ID, srv.Bot().ID, role.ID)
	code, out := doctor("--channel", table.ID, "--post")
	if code != 0 || !strings.Contains(out, "✓ Test board in #table: posted and deleted") || !strings.Contains(out, "All checks passed") {
		t.Fatalf("all well: exit %d\n%s", code, out)
	}
	posts := srv.RequestsTo("POST", "/channels/{channel_id}/messages")
	if len(posts) != 1 || len(posts[0].Files) != 1 {
		t.Fatalf("test board posts: %+v", posts)
	}
	if _, err := png.Decode(bytes.NewReader(posts[0].Files[0].Data)); err != nil {
		t.Errorf("the test board is not a picture: %v", err)
	}
	srv.CheckClean(t)
}
