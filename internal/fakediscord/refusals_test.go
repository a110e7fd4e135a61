package fakediscord

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord deduplicates enforce_nonce per author, not per channel, and answers a repeated
// nonce with the message created first, even once it was deleted: it never creates it again.
func TestNoncesAreScopedToTheAuthor(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	a, b := srv.CreateTextChannel(guild.ID, "a"), srv.CreateTextChannel(guild.ID, "b")
	dg := newSession(t, srv, 0, 1)
	send := func(channel, content string) *discordgo.Message {
		t.Helper()
		body := map[string]any{"content": content, "nonce": "n1", "enforce_nonce": true}
		raw := must[[]byte](t)(dg.RequestWithBucketID("POST", discordgo.EndpointChannelMessages(channel), body, channel))
		var m discordgo.Message
		if err := discordgo.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return &m
	}
	first := send(a.ID, "board of table a")
	other := send(b.ID, "board of table b")
	if other.ID != first.ID || other.ChannelID != a.ID || len(srv.Messages(b.ID)) != 0 {
		t.Fatalf("the same nonce in another channel made %s in %s (first %s)", other.ID, other.ChannelID, first.ID)
	}
	if err := dg.ChannelMessageDelete(a.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	if again := send(a.ID, "board of table a"); again.ID != first.ID || len(srv.Messages(a.ID)) != 0 {
		t.Fatalf("a deleted message's nonce created %s", again.ID)
	}
	// Past Discord's window the nonce is free again.
	srv.AdvanceClock(nonceWindow)
	if later := send(b.ID, "board of table b"); later.ID == first.ID || later.ChannelID != b.ID {
		t.Fatalf("the nonce is still taken after %v", nonceWindow)
	}
	srv.CheckClean(t)
}

// The first follow-up after a deferred message edits the loading message and ignores the
// ephemeral flag; the next one is a message of its own.
func TestFollowUpRightAfterADeferralEditsTheOriginal(t *testing.T) {
	srv := New(t)
	carol := srv.CreateUser("carol")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	h := must[*InteractionHandle](t)(srv.RunCommand(carol.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	in := receive(t, got)
	if err := dg.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
		t.Fatal(err)
	}
	private := must[*discordgo.Message](t)(dg.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "your tickets", Flags: discordgo.MessageFlagsEphemeral}))
	orig := original(t, h)
	if private.ID != orig.ID || orig.Loading() || orig.Ephemeral() || orig.Content != "your tickets" || len(h.Followups()) != 0 {
		t.Fatalf("the follow-up after the deferral: %+v, original %+v", private, orig)
	}
	if leaks := srv.PublicLeaks("your tickets"); len(leaks) != 1 {
		t.Fatalf("the private text did not become public as on Discord: %v", leaks)
	}
	second := must[*discordgo.Message](t)(dg.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "more", Flags: discordgo.MessageFlagsEphemeral}))
	if ups := h.Followups(); len(ups) != 1 || ups[0].ID != second.ID || !ups[0].Ephemeral() {
		t.Fatalf("the second follow-up: %+v", ups)
	}
}

// A private thread is seen by its members (and moderators) only: the bot may not post in
// one it was not added to, and people outside it cannot use commands there.
func TestPrivateThreadsNeedMembership(t *testing.T) {
	srv := New(t)
	ann, ben := srv.CreateUser("ann"), srv.CreateUser("ben")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	th := srv.CreatePrivateThread(table.ID, "secret", ann.ID)
	if th.Type != ChannelTypePrivateThread || !srv.ThreadMember(th.ID, ann.ID) || srv.ThreadMember(th.ID, srv.Bot().ID) {
		t.Fatalf("thread %+v", th)
	}
	_, err := dg.ChannelMessageSend(th.ID, "board")
	refused(t, err, http.StatusForbidden, 50001)
	_, err = dg.Channel(th.ID)
	refused(t, err, http.StatusForbidden, 50001)
	if _, err := srv.RunCommand(ben.ID, th.ID, "ttr", Subcommand("new", StringOption("map", "usa"))); err == nil {
		t.Error("ben used a command in a private thread he is not in")
	}
	h := must[*InteractionHandle](t)(srv.RunCommand(ann.ID, th.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	receive(t, got)
	var payload struct {
		Channel struct {
			Type int `json:"type"`
		} `json:"channel"`
	}
	if err := json.Unmarshal(h.Payload(), &payload); err != nil || payload.Channel.Type != ChannelTypePrivateThread {
		t.Fatalf("the interaction does not say the channel is a private thread: %+v %v", payload, err)
	}
	srv.AddThreadMember(th.ID, srv.Bot().ID)
	must[*discordgo.Message](t)(dg.ChannelMessageSend(th.ID, "board"))
	srv.CheckClean(t)
}

// app_permissions is the bot's permissions where the interaction happened, overwrites
// included; in the bot's DM, what Discord documents for DMs.
func TestAppPermissionsFollowTheChannel(t *testing.T) {
	srv := New(t)
	ann := srv.CreateUser("ann")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	srv.SetOverwrite(table.ID, Overwrite{ID: guild.ID, Type: 0, Deny: PermAttachFiles | PermSendMessagesInThreads})
	th := srv.CreateThread(table.ID, "game")
	dg := newSession(t, srv, 0, 1)
	got := interactions(dg)
	open(t, srv, dg)
	cmds := []*discordgo.ApplicationCommand{ttrCommand}
	must[[]*discordgo.ApplicationCommand](t)(dg.ApplicationCommandBulkOverwrite(srv.AppID(), guild.ID, cmds))
	must[[]*discordgo.ApplicationCommand](t)(dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", cmds))
	for _, ch := range []string{table.ID, th.ID} {
		must[*InteractionHandle](t)(srv.RunCommand(ann.ID, ch, "ttr", Subcommand("new", StringOption("map", "usa"))))
		in := receive(t, got)
		if in.AppPermissions&PermAttachFiles != 0 || in.AppPermissions&PermSendMessagesInThreads != 0 || in.AppPermissions&PermSendMessages == 0 {
			t.Errorf("app_permissions in %s: %b", ch, in.AppPermissions)
		}
	}
	must[*InteractionHandle](t)(srv.RunCommand(ann.ID, srv.UserDM(ann.ID).ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	if in := receive(t, got); in.AppPermissions != DMAppPermissions {
		t.Errorf("app_permissions in a DM: %b, want %b", in.AppPermissions, DMAppPermissions)
	}
}

// "Interaction tokens are valid for 15 minutes": later edits and follow-ups are refused.
func TestInteractionTokensExpireAfter15Minutes(t *testing.T) {
	srv := New(t)
	ann := srv.CreateUser("ann")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	must[*InteractionHandle](t)(srv.RunCommand(ann.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	in := receive(t, got)
	if err := dg.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
		t.Fatal(err)
	}
	srv.AdvanceClock(14 * time.Minute)
	text := "still in time"
	must[*discordgo.Message](t)(dg.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &text}))
	srv.AdvanceClock(time.Minute + time.Second)
	_, err := dg.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &text})
	refused(t, err, http.StatusUnauthorized, 50027)
	_, err = dg.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "late"})
	refused(t, err, http.StatusUnauthorized, 50027)
}

// A global command is offered only in the contexts it names.
func TestCommandContexts(t *testing.T) {
	srv := New(t)
	ann := srv.CreateUser("ann")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg := newSession(t, srv, 0, 1)
	open(t, srv, dg)
	serversOnly := *ttrCommand
	serversOnly.Contexts = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	anywhere := *ttrCommand
	anywhere.Name = "play"
	must[[]*discordgo.ApplicationCommand](t)(dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{&serversOnly, &anywhere}))
	dm := srv.UserDM(ann.ID).ID
	new := Subcommand("new", StringOption("map", "usa"))
	if _, err := srv.RunCommand(ann.ID, dm, "ttr", new); err == nil {
		t.Error("a servers-only command was run in a DM")
	}
	for _, run := range []struct{ channel, name string }{{table.ID, "ttr"}, {dm, "play"}, {table.ID, "play"}} {
		if _, err := srv.RunCommand(ann.ID, run.channel, run.name, new); err != nil {
			t.Errorf("/%s in %s: %v", run.name, run.channel, err)
		}
	}
}

// The fake's clock may run apart from the machine's: its ids and its Date header follow it.
func TestClockOffsetMovesIDsAndTheDateHeader(t *testing.T) {
	srv := New(t, Options{ClockOffset: -5 * time.Second})
	before := time.Now()
	u := srv.CreateUser("ann")
	at := must[time.Time](t)(discordgo.SnowflakeTimestamp(u.ID))
	if d := before.Sub(at); d < 4*time.Second || d > 6*time.Second {
		t.Errorf("a new id is %v behind the machine's clock, want 5s", d)
	}
	resp := must[*http.Response](t)(srv.HTTPClient().Get("https://discord.com/api/v10/gateway"))
	resp.Body.Close()
	date, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(date); d < 4*time.Second || d > 7*time.Second {
		t.Errorf("Date %s is %v behind the machine's clock, want 5s", resp.Header.Get("Date"), d)
	}
}

// Reading one message of a guild channel needs View Channel and Read Message History (Get
// Channel Message).
func TestGetMessageNeedsReadMessageHistory(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	rec := send(t, srv, "POST", "/channels/"+table.ID+"/messages", "application/json", []byte(`{"content": "board"}`))
	var posted struct{ ID string }
	json.Unmarshal(rec.Response, &posted)
	path := "/channels/" + table.ID + "/messages/" + posted.ID
	if rec := send(t, srv, "GET", path, "", nil); rec.Status != http.StatusOK {
		t.Fatalf("with the permissions: %d %s", rec.Status, rec.Response)
	}
	srv.SetOverwrite(table.ID, Overwrite{ID: srv.Bot().ID, Type: 1, Deny: PermReadMessageHistory})
	if rec := send(t, srv, "GET", path, "", nil); rec.Status != http.StatusForbidden || !strings.Contains(string(rec.Response), `"code":50013`) {
		t.Fatalf("without Read Message History: %d %s", rec.Status, rec.Response)
	}
	srv.SetOverwrite(table.ID, Overwrite{ID: srv.Bot().ID, Type: 1, Deny: PermViewChannel})
	if rec := send(t, srv, "GET", path, "", nil); rec.Status != http.StatusForbidden || !strings.Contains(string(rec.Response), `"code":50001`) {
		t.Fatalf("without View Channel: %d %s", rec.Status, rec.Response)
	}
}
