package fakediscord

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// threadEvents forwards the THREAD_CREATE and THREAD_UPDATE events a session receives.
func threadEvents(dg *discordgo.Session) (<-chan *discordgo.ThreadCreate, <-chan *discordgo.ThreadUpdate) {
	created, updated := make(chan *discordgo.ThreadCreate, 16), make(chan *discordgo.ThreadUpdate, 16)
	dg.AddHandler(func(_ *discordgo.Session, e *discordgo.ThreadCreate) { created <- e })
	dg.AddHandler(func(_ *discordgo.Session, e *discordgo.ThreadUpdate) { updated <- e })
	return created, updated
}

func next[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("the session received no %s", what)
		var zero T
		return zero
	}
}

// refused checks that a discordgo call got Discord's error status and code.
func refused(t *testing.T, err error, status, code int) {
	t.Helper()
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response.StatusCode != status || rest.Message == nil || rest.Message.Code != code {
		t.Fatalf("got %v, want %d/%d", err, status, code)
	}
}

func TestStartThreadFromMessage(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("Rail Club")
	table := srv.CreateTextChannel(guild.ID, "table")
	dg := newSession(t, srv, 0, 1)
	created, _ := threadEvents(dg)
	updates := make(chan *discordgo.MessageUpdate, 4)
	dg.AddHandler(func(_ *discordgo.Session, e *discordgo.MessageUpdate) { updates <- e })
	open(t, srv, dg)

	lobby := must[*discordgo.Message](t)(dg.ChannelMessageSend(table.ID, "Europe, 3 seats"))
	th := must[*discordgo.Channel](t)(dg.MessageThreadStartComplex(table.ID, lobby.ID, &discordgo.ThreadStart{Name: "game-1", AutoArchiveDuration: 60}))
	// Discord: the thread has the message's id, is public, and the bot started it.
	if th.ID != lobby.ID || th.Type != discordgo.ChannelTypeGuildPublicThread || th.ParentID != table.ID || th.GuildID != guild.ID ||
		th.OwnerID != srv.Bot().ID || th.Name != "game-1" || th.ThreadMetadata == nil || th.ThreadMetadata.Archived || th.ThreadMetadata.AutoArchiveDuration != 60 {
		t.Fatalf("thread %+v (metadata %+v)", th, th.ThreadMetadata)
	}
	if rec := srv.RequestsTo("POST", "/channels/{channel_id}/messages/{message_id}/threads"); rec[0].Status != http.StatusCreated {
		t.Errorf("status %d", rec[0].Status)
	}
	if e := next(t, created, "THREAD_CREATE"); e.ID != th.ID || !e.NewlyCreated || e.ParentID != table.ID {
		t.Errorf("THREAD_CREATE %+v", e)
	}
	if e := next(t, updates, "MESSAGE_UPDATE"); e.ID != lobby.ID || e.Thread == nil || e.Thread.ID != th.ID {
		t.Errorf("MESSAGE_UPDATE %+v", e.Message)
	}
	if got := must[*discordgo.Message](t)(dg.ChannelMessage(table.ID, lobby.ID)); got.Thread == nil || got.Thread.ID != th.ID {
		t.Errorf("the message has no thread: %+v", got)
	}
	if got := must[*discordgo.Channel](t)(dg.Channel(th.ID)); got.Type != discordgo.ChannelTypeGuildPublicThread || got.ParentID != table.ID || got.ThreadMetadata == nil {
		t.Errorf("GET thread %+v", got)
	}
	if list := srv.Threads(table.ID); len(list) != 1 || list[0].ID != th.ID || list[0].OwnerID != srv.Bot().ID || !list[0].IsThread() {
		t.Errorf("Threads %+v", list)
	}
	// A thread is a channel: posting in it and reading it back.
	posted := must[*discordgo.Message](t)(dg.ChannelMessageSend(th.ID, "Alice's turn"))
	if msgs := srv.Messages(th.ID); len(msgs) != 1 || msgs[0].ID != posted.ID || msgs[0].GuildID != guild.ID || !msgs[0].Public() {
		t.Errorf("thread messages %+v", msgs)
	}
	// Discord lists threads apart from the guild's channels.
	for _, ch := range must[[]*discordgo.Channel](t)(dg.GuildChannels(guild.ID)) {
		if ch.ID == th.ID {
			t.Error("Get Guild Channels lists the thread")
		}
	}

	_, err := dg.MessageThreadStart(table.ID, lobby.ID, "again", 60)
	refused(t, err, http.StatusBadRequest, 160004)
	_, err = dg.MessageThreadStart(th.ID, posted.ID, "nested", 60)
	refused(t, err, http.StatusBadRequest, 50024)
	_, err = dg.MessageThreadStart(table.ID, "1"+strings.Repeat("0", 17), "ghost", 60)
	refused(t, err, http.StatusNotFound, 10008)
	srv.CheckClean(t)
}

func TestThreadsOnlyInGuildTextChannels(t *testing.T) {
	srv := New(t)
	erin := srv.CreateUser("erin")
	dg := newSession(t, srv, 0, 1)
	dm := must[*discordgo.Channel](t)(dg.UserChannelCreate(erin.ID))
	m := must[*discordgo.Message](t)(dg.ChannelMessageSend(dm.ID, "hi"))
	_, err := dg.MessageThreadStart(dm.ID, m.ID, "dm thread", 60)
	refused(t, err, http.StatusBadRequest, 50024)
	_, err = dg.ThreadStart(dm.ID, "dm thread", discordgo.ChannelTypeGuildPublicThread, 60)
	refused(t, err, http.StatusBadRequest, 50024)
}

func TestStartingThreadsNeedsCreateThreads(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "table")
	dg := newSession(t, srv, 0, 1)
	m := must[*discordgo.Message](t)(dg.ChannelMessageSend(table.ID, "lobby"))
	srv.SetOverwrite(table.ID, Overwrite{ID: guild.ID, Type: 0, Deny: PermCreatePublicThreads | PermCreatePrivateThreads})
	_, err := dg.MessageThreadStart(table.ID, m.ID, "game", 60)
	refused(t, err, http.StatusForbidden, 50013)
	_, err = dg.ThreadStart(table.ID, "game", discordgo.ChannelTypeGuildPublicThread, 60)
	refused(t, err, http.StatusForbidden, 50013)
	// The bot's own overwrite gives it back.
	srv.SetOverwrite(table.ID, Overwrite{ID: srv.Bot().ID, Type: 1, Allow: PermCreatePublicThreads})
	must[*discordgo.Channel](t)(dg.MessageThreadStart(table.ID, m.ID, "game", 60))
	if len(srv.Threads(table.ID)) != 1 {
		t.Error("no thread")
	}
	// Without View Channel the channel is out of reach.
	srv.SetOverwrite(table.ID, Overwrite{ID: srv.Bot().ID, Type: 1, Deny: PermViewChannel})
	_, err = dg.ThreadStart(table.ID, "game-2", discordgo.ChannelTypeGuildPublicThread, 60)
	refused(t, err, http.StatusForbidden, 50001)
}

func TestStartThreadWithoutMessage(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "table")
	dg := newSession(t, srv, 0, 1)
	created, _ := threadEvents(dg)
	open(t, srv, dg)

	th := must[*discordgo.Channel](t)(dg.ThreadStart(table.ID, "game-1", discordgo.ChannelTypeGuildPublicThread, 10080))
	if th.Type != discordgo.ChannelTypeGuildPublicThread || th.ParentID != table.ID || th.OwnerID != srv.Bot().ID || th.ThreadMetadata.AutoArchiveDuration != 10080 {
		t.Fatalf("thread %+v", th)
	}
	if e := next(t, created, "THREAD_CREATE"); e.ID != th.ID || !e.NewlyCreated {
		t.Errorf("THREAD_CREATE %+v", e)
	}
	// Without a type Discord creates a private thread (its documented default).
	rec := send(t, srv, "POST", "/channels/"+table.ID+"/threads", "application/json", []byte(`{"name": "secret"}`))
	var private discordgo.Channel
	if err := json.Unmarshal(rec.Response, &private); err != nil || rec.Status != http.StatusCreated || private.Type != discordgo.ChannelTypeGuildPrivateThread {
		t.Fatalf("no type: %d %s", rec.Status, rec.Response)
	}
	// A private thread needs Create Private Threads.
	srv.SetOverwrite(table.ID, Overwrite{ID: guild.ID, Type: 0, Deny: PermCreatePrivateThreads})
	_, err := dg.ThreadStart(table.ID, "secret-2", discordgo.ChannelTypeGuildPrivateThread, 60)
	refused(t, err, http.StatusForbidden, 50013)
	must[*discordgo.Channel](t)(dg.ThreadStart(table.ID, "public-2", discordgo.ChannelTypeGuildPublicThread, 60))
	// No thread in a thread.
	_, err = dg.ThreadStart(th.ID, "nested", discordgo.ChannelTypeGuildPublicThread, 60)
	refused(t, err, http.StatusBadRequest, 50024)
	if n := len(srv.Threads(table.ID)); n != 3 {
		t.Errorf("%d threads", n)
	}
	srv.CheckClean(t)
}

// A thread's name and auto_archive_duration are checked as Discord checks them.
var threadLimitCases = []limitCase{
	{"thread name at most 100", "POST", "/channels/1/messages/2/threads",
		jsonOf(map[string]any{"name": x(100)}), jsonOf(map[string]any{"name": x(101)}), "/name", "BASE_TYPE_MAX_LENGTH"},
	{"thread name at least 1", "POST", "/channels/1/messages/2/threads",
		jsonOf(map[string]any{"name": "g"}), jsonOf(map[string]any{"name": ""}), "/name", "BASE_TYPE_MIN_LENGTH"},
	{"thread auto archive duration is 60, 1440, 4320 or 10080", "POST", "/channels/1/messages/2/threads",
		jsonOf(map[string]any{"name": "g", "auto_archive_duration": 4320}), jsonOf(map[string]any{"name": "g", "auto_archive_duration": 30}),
		"/auto_archive_duration", "ENUM_TYPE_COERCE"},
	{"thread without message: name at most 100", "POST", "/channels/1/threads",
		jsonOf(map[string]any{"name": x(100), "type": 11}), jsonOf(map[string]any{"name": x(101), "type": 11}), "/name", "BASE_TYPE_MAX_LENGTH"},
	{"thread without message: auto archive duration", "POST", "/channels/1/threads",
		jsonOf(map[string]any{"name": "g", "type": 11, "auto_archive_duration": 60}), jsonOf(map[string]any{"name": "g", "type": 11, "auto_archive_duration": 120}),
		"/auto_archive_duration", "ENUM_TYPE_COERCE"},
	{"renamed thread name at least 1", "PATCH", "/channels/1",
		jsonOf(map[string]any{"name": "g"}), jsonOf(map[string]any{"name": ""}), "/name", "BASE_TYPE_BAD_LENGTH"},
	{"renamed thread name at most 100", "PATCH", "/channels/1",
		jsonOf(map[string]any{"name": x(100)}), jsonOf(map[string]any{"name": x(101)}), "/name", "BASE_TYPE_BAD_LENGTH"},
	{"modified thread auto archive duration", "PATCH", "/channels/1",
		jsonOf(map[string]any{"auto_archive_duration": 10080}), jsonOf(map[string]any{"auto_archive_duration": 30}),
		"/auto_archive_duration", "ENUM_TYPE_COERCE"},
}

func TestThreadLimits(t *testing.T) {
	srv := New(t)
	for _, c := range threadLimitCases {
		t.Run(c.name, func(t *testing.T) {
			if errs := check(t, srv, c.method, c.path, c.good); len(errs) != 0 {
				t.Errorf("at the limit: refused %v", errs)
			}
			rec := send(t, srv, c.method, c.path, "application/json", []byte(c.bad))
			if !hasError(rec.Invalid, c.pointer, c.code) {
				t.Fatalf("past the limit: want %s at %q, got %v", c.code, c.pointer, rec.Invalid)
			}
			refusedAt(t, rec, c.pointer, c.code)
		})
	}
}

func TestArchivingLockingAndPostingInThreads(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "table")
	dg := newSession(t, srv, 0, 1)
	_, updated := threadEvents(dg)
	open(t, srv, dg)
	th := must[*discordgo.Channel](t)(dg.ThreadStart(table.ID, "game-1", discordgo.ChannelTypeGuildPublicThread, 1440))
	yes, no := true, false

	// The creator may rename and archive its thread without Manage Threads.
	got := must[*discordgo.Channel](t)(dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Name: "game-1 (ended)", Archived: &yes, AutoArchiveDuration: 60}))
	if !got.ThreadMetadata.Archived || got.Name != "game-1 (ended)" || got.ThreadMetadata.AutoArchiveDuration != 60 {
		t.Fatalf("edited %+v %+v", got, got.ThreadMetadata)
	}
	if e := next(t, updated, "THREAD_UPDATE"); e.ID != th.ID || !e.ThreadMetadata.Archived {
		t.Errorf("THREAD_UPDATE %+v", e.Channel)
	}
	if c, _ := srv.Channel(th.ID); !c.Archived || c.Locked {
		t.Errorf("fake's thread %+v", c)
	}
	// An archived thread is changed only by unarchiving it; its messages cannot be edited.
	_, err := dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Name: "renamed"})
	refused(t, err, http.StatusBadRequest, 50083)
	// Posting unarchives it.
	m := must[*discordgo.Message](t)(dg.ChannelMessageSend(th.ID, "rematch?"))
	if c, _ := srv.Channel(th.ID); c.Archived {
		t.Error("posting did not unarchive the thread")
	}
	if e := next(t, updated, "THREAD_UPDATE"); e.ID != th.ID || e.ThreadMetadata.Archived {
		t.Errorf("THREAD_UPDATE on unarchiving %+v", e.ThreadMetadata)
	}
	srv.ArchiveThread(th.ID, false) // Discord's inactivity timer
	next(t, updated, "THREAD_UPDATE")
	_, err = dg.ChannelMessageEdit(th.ID, m.ID, "edited")
	refused(t, err, http.StatusBadRequest, 50083)
	must[*discordgo.Channel](t)(dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &no}))
	next(t, updated, "THREAD_UPDATE")

	// Locking needs Manage Threads, which @everyone does not grant.
	_, err = dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &yes, Locked: &yes})
	refused(t, err, http.StatusForbidden, 50013)
	// A moderator closes and locks it: no post unarchives it any more.
	srv.ArchiveThread(th.ID, true)
	next(t, updated, "THREAD_UPDATE")
	_, err = dg.ChannelMessageSend(th.ID, "anyone?")
	refused(t, err, http.StatusBadRequest, 50083)
	_, err = dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &no})
	refused(t, err, http.StatusForbidden, 50013)
	if c, _ := srv.Channel(th.ID); !c.Archived || !c.Locked || len(srv.Messages(th.ID)) != 1 {
		t.Errorf("locked thread %+v, messages %d", c, len(srv.Messages(th.ID)))
	}
	// With Manage Threads the bot may unarchive and unlock it.
	role := srv.CreateRole(guild.ID, "mod", PermManageThreads)
	srv.GiveRole(guild.ID, srv.Bot().ID, role.ID)
	got = must[*discordgo.Channel](t)(dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &no, Locked: &no}))
	if got.ThreadMetadata.Archived || got.ThreadMetadata.Locked {
		t.Errorf("unlocked %+v", got.ThreadMetadata)
	}
}

func TestThreadsOthersStarted(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "table")
	th := srv.CreateThread(table.ID, "chat")
	dg := newSession(t, srv, 0, 1)
	yes, no := true, false
	// Someone else's thread: archiving needs Manage Threads.
	_, err := dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &yes})
	refused(t, err, http.StatusForbidden, 50013)
	// Unarchiving one that is not locked does not.
	srv.ArchiveThread(th.ID, false)
	must[*discordgo.Channel](t)(dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &no}))
	// A locked thread that is still open takes no posts without Manage Threads.
	srv.ArchiveThread(th.ID, true)
	role := srv.CreateRole(guild.ID, "mod", PermManageThreads)
	srv.GiveRole(guild.ID, srv.Bot().ID, role.ID)
	must[*discordgo.Channel](t)(dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &no}))
	srv.SetRolePermissions(guild.ID, role.ID, 0)
	_, err = dg.ChannelMessageSend(th.ID, "hello")
	refused(t, err, http.StatusForbidden, 160005)
}

func TestPostingInThreadsNeedsSendMessagesInThreads(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "table")
	dg := newSession(t, srv, 0, 1)
	th := must[*discordgo.Channel](t)(dg.ThreadStart(table.ID, "game", discordgo.ChannelTypeGuildPublicThread, 60))
	// Send Messages does not count in threads, Send Messages in Threads does not count outside.
	srv.SetOverwrite(table.ID, Overwrite{ID: guild.ID, Type: 0, Deny: PermSendMessages})
	must[*discordgo.Message](t)(dg.ChannelMessageSend(th.ID, "in the thread"))
	_, err := dg.ChannelMessageSend(table.ID, "in the channel")
	refused(t, err, http.StatusForbidden, 50013)
	srv.SetOverwrite(table.ID, Overwrite{ID: guild.ID, Type: 0, Deny: PermSendMessagesInThreads})
	must[*discordgo.Message](t)(dg.ChannelMessageSend(table.ID, "in the channel"))
	_, err = dg.ChannelMessageSend(th.ID, "in the thread")
	refused(t, err, http.StatusForbidden, 50013)
}

func TestInteractionsInAThread(t *testing.T) {
	srv := New(t)
	alice := srv.CreateUser("alice")
	guild := srv.CreateGuild("Rail Club")
	table := srv.CreateTextChannel(guild.ID, "table")
	dg, got := ttrSession(t, srv, guild.ID)
	th := must[*discordgo.Channel](t)(dg.ThreadStart(table.ID, "game-1", discordgo.ChannelTypeGuildPublicThread, 1440))

	srv.SetOverwrite(table.ID, Overwrite{ID: srv.Bot().ID, Type: 1, Deny: PermEmbedLinks})
	h := must[*InteractionHandle](t)(srv.RunCommand(alice.ID, th.ID, "ttr", Subcommand("claim", StringOption("route", "paris-wien"))))
	in := receive(t, got)
	if in.ID != h.ID || in.ChannelID != th.ID || in.GuildID != guild.ID {
		t.Fatalf("interaction %+v", in)
	}
	// discordgo does not decode the interaction's channel object: read the payload.
	if c := payloadChannel(t, h); c.ID != th.ID || c.Type != discordgo.ChannelTypeGuildPublicThread || c.ParentID != table.ID || c.GuildID != guild.ID ||
		c.ThreadMetadata == nil || c.ThreadMetadata.Archived || c.Permissions == "" {
		t.Errorf("channel %+v", c)
	}
	// app_permissions are the bot's in the thread: its parent's overwrites apply.
	if in.AppPermissions&discordgo.PermissionEmbedLinks != 0 || in.AppPermissions&discordgo.PermissionSendMessagesInThreads == 0 {
		t.Errorf("app_permissions %b", in.AppPermissions)
	}
	if err := dg.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "Claim?", Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Yes", Style: discordgo.PrimaryButton, CustomID: "yes"}}},
		}},
	}); err != nil {
		t.Fatal(err)
	}
	answer := original(t, h)
	if answer.ChannelID != th.ID {
		t.Errorf("the answer went to %s", answer.ChannelID)
	}
	h2 := must[*InteractionHandle](t)(srv.ClickButton(alice.ID, answer.ID, "yes"))
	in2 := receive(t, got)
	if c := payloadChannel(t, h2); in2.ID != h2.ID || in2.ChannelID != th.ID || c.ParentID != table.ID || c.Type != discordgo.ChannelTypeGuildPublicThread {
		t.Errorf("click %+v channel %+v", in2, c)
	}
	// Discord's clients offer no commands in an archived thread.
	srv.ArchiveThread(th.ID, false)
	if _, err := srv.RunCommand(alice.ID, th.ID, "ttr", Subcommand("claim", StringOption("route", "x"))); err == nil {
		t.Error("a command ran in an archived thread")
	}
}

// payloadChannel decodes the "channel" object of an interaction as dispatched.
func payloadChannel(t *testing.T, h *InteractionHandle) struct {
	discordgo.Channel
	Permissions string `json:"permissions"`
} {
	t.Helper()
	var p struct {
		Channel struct {
			discordgo.Channel
			Permissions string `json:"permissions"`
		} `json:"channel"`
	}
	if err := json.Unmarshal(h.Payload(), &p); err != nil {
		t.Fatal(err)
	}
	return p.Channel
}

func TestGuildCreateListsActiveThreads(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "table")
	active := srv.CreateThread(table.ID, "active")
	archived := srv.CreateThread(table.ID, "old")
	srv.ArchiveThread(archived.ID, false)
	dg := newSession(t, srv, 0, 1)
	ready := make(chan *discordgo.GuildCreate, 1)
	dg.AddHandler(func(_ *discordgo.Session, e *discordgo.GuildCreate) { ready <- e })
	open(t, srv, dg)
	g := next(t, ready, "GUILD_CREATE")
	if len(g.Threads) != 1 || g.Threads[0].ID != active.ID {
		t.Errorf("threads %+v", g.Threads)
	}
	for _, c := range g.Channels {
		if c.ID == active.ID || c.ID == archived.ID {
			t.Errorf("channels list thread %s", c.ID)
		}
	}
	if active.OwnerID == srv.Bot().ID || active.OwnerID == "" {
		t.Errorf("CreateThread's owner %q", active.OwnerID)
	}
}
