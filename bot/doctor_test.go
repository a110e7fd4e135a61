package bot_test

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
)

// doctor runs the checks of `conductor doctor` against the fake.
func doctor(t *testing.T, srv *fakediscord.Server, token, guildID string, opts bot.DoctorOptions) bot.Report {
	t.Helper()
	b, err := bot.New(bot.Config{Token: token, GuildID: guildID, APIBase: srv.BaseURL(),
		Commands: commands.Definitions(data.Embedded().IDs()), Logger: logger()})
	if err != nil {
		t.Fatal(err)
	}
	r := b.Doctor(opts)
	var out bytes.Buffer
	r.Write(&out)
	t.Logf("report:\n%s", out.String())
	return r
}

// finding returns the finding whose check starts with prefix.
func finding(t *testing.T, r bot.Report, prefix string) bot.Finding {
	t.Helper()
	for _, f := range r {
		if strings.HasPrefix(f.Check, prefix) {
			return f
		}
	}
	t.Fatalf("no finding %q in %+v", prefix, r)
	return bot.Finding{}
}

func testBoard(t *testing.T) *commands.Message {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	return &commands.Message{Content: "test board", Embeds: []commands.Embed{{Title: "Test", Image: "board.png"}},
		Files: []commands.File{{Name: "board.png", ContentType: "image/png", Data: buf.Bytes()}}}
}

func TestDoctorFindsAllWell(t *testing.T) {
	t.Parallel()
	e := newEnv(t) // registers the commands on its server
	table := e.channel("table")
	// Inviting the bot with the link's permissions gives it a role with them.
	role := e.srv.CreateRole(e.guild.ID, "Conductor", bot.InvitePermissions())
	e.srv.GiveRole(e.guild.ID, e.srv.Bot().ID, role.ID)
	r := doctor(t, e.srv, e.srv.Token(), e.guild.ID, bot.DoctorOptions{ChannelID: table.ID, TestBoard: testBoard(t)})
	if !r.OK() {
		t.Fatalf("not OK: %+v", r)
	}
	if f := finding(t, r, "Token"); !strings.Contains(f.Detail, e.srv.AppID()) || !strings.Contains(f.Detail, "Conductor") {
		t.Errorf("token finding %+v names no application id and bot name", f)
	}
	for _, p := range []string{"View Channel", "Send Messages", "Attach Files", "Embed Links",
		"Create Public Threads", "Send Messages in Threads"} {
		finding(t, r, p+" in #table")
	}
	if f := finding(t, r, "Games in #table"); !f.OK || !strings.Contains(f.Detail, "thread of its own") {
		t.Errorf("games in #table: %+v", f)
	}
	posts := e.srv.RequestsTo("POST", "/channels/{channel_id}/messages")
	if len(posts) != 1 || len(posts[0].Files) != 1 || len(e.srv.RequestsTo("DELETE", "/channels/{channel_id}/messages/{message_id}")) != 1 {
		t.Errorf("the test board was not posted with its picture and deleted: %d posts", len(posts))
	}
	if len(e.srv.Messages(table.ID)) != 0 {
		t.Error("the test board is still in the channel")
	}
	e.srv.CheckClean(t)
}

func TestDoctorNamesAMissingPermissionAndHowToGrantIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	table := e.channel("table")
	// The channel's settings take Attach Files away from everyone.
	e.srv.SetOverwrite(table.ID, fakediscord.Overwrite{ID: e.guild.ID, Type: 0, Deny: fakediscord.PermAttachFiles})
	r := doctor(t, e.srv, e.srv.Token(), e.guild.ID, bot.DoctorOptions{ChannelID: table.ID, TestBoard: testBoard(t)})
	if r.OK() {
		t.Fatal("OK without Attach Files")
	}
	f := finding(t, r, "Attach Files in #table")
	if f.OK || !strings.Contains(f.Detail, "deny it for @everyone") || !strings.Contains(f.Fix, "Edit Channel #table → Permissions") {
		t.Errorf("attach files: %+v", f)
	}
	if f := finding(t, r, "Send Messages in #table"); !f.OK {
		t.Errorf("send messages: %+v", f)
	}
	// Discord refuses the upload, and the report says so.
	if f := finding(t, r, "Test board"); f.OK || !strings.Contains(f.Detail, "50013") {
		t.Errorf("test board: %+v", f)
	}

	// Permissions from roles: @everyone may only read; the bot's role adds sending.
	e.srv.SetRolePermissions(e.guild.ID, e.guild.ID, fakediscord.PermViewChannel|fakediscord.PermReadMessageHistory)
	role := e.srv.CreateRole(e.guild.ID, "Conductor", fakediscord.PermSendMessages|fakediscord.PermAttachFiles|fakediscord.PermEmbedLinks)
	e.srv.GiveRole(e.guild.ID, e.srv.Bot().ID, role.ID)
	lobby := e.channel("lobby")
	r = doctor(t, e.srv, e.srv.Token(), e.guild.ID, bot.DoctorOptions{ChannelID: lobby.ID})
	for name, want := range map[string]bool{"Send Messages in #lobby": true, "Attach Files in #lobby": true,
		"Create Public Threads in #lobby": false, "Send Messages in Threads in #lobby": false} {
		if f := finding(t, r, name); f.OK != want || !want && !strings.Contains(f.Fix, "Server Settings → Roles") {
			t.Errorf("%s: %+v", name, f)
		}
	}
	if f := finding(t, r, "Games in #lobby"); f.OK || !strings.Contains(f.Detail, "both Create Public Threads and Send Messages in Threads") {
		t.Errorf("games in #lobby without thread permissions: %+v", f)
	}
	// Create Public Threads alone: the bot could open a thread it cannot post in, so it plays in the channel.
	e.srv.SetRolePermissions(e.guild.ID, role.ID, fakediscord.PermSendMessages|fakediscord.PermAttachFiles|fakediscord.PermEmbedLinks|fakediscord.PermCreatePublicThreads)
	r = doctor(t, e.srv, e.srv.Token(), e.guild.ID, bot.DoctorOptions{ChannelID: lobby.ID})
	if f := finding(t, r, "Games in #lobby"); f.OK || !strings.Contains(f.Detail, "not post in it") {
		t.Errorf("games in #lobby with Create Public Threads alone: %+v", f)
	}
	e.srv.SetRolePermissions(e.guild.ID, role.ID, fakediscord.PermSendMessages|fakediscord.PermAttachFiles|fakediscord.PermEmbedLinks|fakediscord.PermSendMessagesInThreads)

	// A thread takes its channel's settings: denying the bot's role there shows in the thread.
	e.srv.SetOverwrite(lobby.ID, fakediscord.Overwrite{ID: role.ID, Type: 0, Deny: fakediscord.PermSendMessagesInThreads})
	thread := e.srv.CreateThread(lobby.ID, "game-1")
	r = doctor(t, e.srv, e.srv.Token(), e.guild.ID, bot.DoctorOptions{ChannelID: thread.ID})
	if f := finding(t, r, "Send Messages in Threads in #game-1"); f.OK || !strings.Contains(f.Detail, "#lobby's permissions deny it for Conductor") {
		t.Errorf("thread: %+v", f)
	}

	// Without View Channel the bot cannot even read the channel.
	e.srv.SetOverwrite(table.ID, fakediscord.Overwrite{ID: e.guild.ID, Type: 0, Deny: fakediscord.PermViewChannel})
	r = doctor(t, e.srv, e.srv.Token(), e.guild.ID, bot.DoctorOptions{ChannelID: table.ID})
	if f := finding(t, r, "Channel "+table.ID); f.OK || !strings.Contains(f.Detail, "50001") || !strings.Contains(f.Fix, "View Channel") {
		t.Errorf("hidden channel: %+v", f)
	}
}

func TestDoctorRefusedToken(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	r := doctor(t, srv, "Bot not-the-token", "", bot.DoctorOptions{})
	if r.OK() || len(r) != 1 {
		t.Fatalf("report %+v", r)
	}
	if f := r[0]; f.Check != "Token" || !strings.Contains(f.Detail, "401") || !strings.Contains(f.Fix, "Reset Token") {
		t.Errorf("token finding %+v", f)
	}
}

func TestDoctorSeesUnregisteredCommands(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	guild := srv.CreateGuild("Rail Club")
	r := doctor(t, srv, srv.Token(), "", bot.DoctorOptions{})
	if f := finding(t, r, "Commands"); f.OK || !strings.Contains(f.Detail, "not registered globally: /ttr") || strings.Contains(f.Fix, "up to an hour") {
		t.Errorf("global commands: %+v", f)
	}
	other := "1" + strings.Repeat("0", 17)
	r = doctor(t, srv, srv.Token(), other, bot.DoctorOptions{})
	if f := finding(t, r, "Server "+other); f.OK || !strings.Contains(f.Fix, "oauth2/authorize?client_id="+srv.AppID()) {
		t.Errorf("unknown server: %+v", f)
	}
	if r := doctor(t, srv, srv.Token(), guild.ID, bot.DoctorOptions{}); r.OK() {
		t.Error("OK with no commands on the server")
	}
	srv.CheckClean(t)
}
