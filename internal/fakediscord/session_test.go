package fakediscord

import (
	"bytes"
	"errors"
	"image"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func TestSessionIdentifiesAndKeepsHeartbeating(t *testing.T) {
	srv := New(t, Options{HeartbeatInterval: 40 * time.Millisecond})
	guild := srv.CreateGuild("Rail Club")
	table := srv.CreateTextChannel(guild.ID, "table")
	dg := newSession(t, srv, 0, 1)
	open(t, srv, dg)

	id := srv.Identifies()[0]
	if id.Token != srv.Token() || id.ShardSent || id.Shard != [2]int{0, 1} {
		t.Errorf("identify = %+v", id)
	}
	if id.Intents != int(discordgo.IntentsAllWithoutPrivileged) || !id.Compress {
		t.Errorf("intents %d compress %v, want discordgo's defaults", id.Intents, id.Compress)
	}
	if id.Query.Get("v") != discordgo.APIVersion || id.Query.Get("encoding") != "json" {
		t.Errorf("gateway query = %v", id.Query)
	}
	if len(id.Guilds) != 1 || id.Guilds[0] != guild.ID {
		t.Errorf("READY guilds = %v, want [%s]", id.Guilds, guild.ID)
	}
	if dg.State.User == nil || dg.State.User.ID != srv.Bot().ID {
		t.Fatalf("state user = %+v, want the bot %s", dg.State.User, srv.Bot().ID)
	}
	// GUILD_CREATE follows READY, with the guild's channels.
	if err := srv.WaitFor("discordgo state has the channel", func() bool {
		_, err := dg.State.Channel(table.ID)
		return err == nil
	}); err != nil {
		t.Fatal(err)
	}
	acks := func() int {
		n := 0
		for _, f := range srv.GatewayFrames() {
			if !f.FromClient && f.Op == opHeartbeatAck {
				n++
			}
		}
		return n
	}
	if err := srv.WaitFor("3 heartbeats and their ACKs", func() bool { return srv.Heartbeats(0) >= 3 && acks() >= 3 }); err != nil {
		t.Fatal(err)
	}
	dg.RLock()
	lastAck := dg.LastHeartbeatAck
	dg.RUnlock()
	if !lastAck.After(id.Time) {
		t.Errorf("discordgo's last ACK %v is not after READY %v", lastAck, id.Time)
	}
	srv.CheckClean(t)
}

func TestWrongTokenIsRefused(t *testing.T) {
	srv := New(t)
	dg, err := discordgo.New("Bot not-the-token")
	if err != nil {
		t.Fatal(err)
	}
	dg.Client = srv.HTTPClient()
	_, err = dg.User("@me")
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET /users/@me with a wrong token: %v, want 401", err)
	}
}

func TestUnimplementedRoutesAreReported(t *testing.T) {
	srv := New(t)
	for _, path := range []string{"api/v10/guilds/1/roles", "api/v8/users/@me", "nowhere"} {
		req, _ := http.NewRequest("GET", srv.BaseURL()+path, nil)
		req.Header.Set("Authorization", srv.Token())
		resp := must[*http.Response](t)(http.DefaultClient.Do(req))
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET /%s: %d", path, resp.StatusCode)
		}
	}
	un := srv.UnhandledRequests()
	if len(un) != 3 || un[0].Route != "/guilds/{guild_id}/roles" {
		t.Fatalf("unhandled %+v", un)
	}
	inner := &recordingTB{}
	srv.CheckClean(inner)
	if inner.errors != 3 {
		t.Error("CheckClean passed with unhandled requests")
	}
}

func TestLateCallbackIsRefused(t *testing.T) {
	srv := New(t, Options{CallbackDeadline: time.Nanosecond})
	jo := srv.CreateUser("jo")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	h := must[*InteractionHandle](t)(srv.RunCommand(jo.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	err := dg.InteractionRespond(receive(t, got), &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != 10062 {
		t.Fatalf("late callback: %v, want 10062 Unknown interaction", err)
	}
	if _, ok := h.Callback(); ok {
		t.Error("a refused callback was recorded as the answer")
	}
}

func TestCommandsButtonsAndSelects(t *testing.T) {
	srv := New(t)
	alice := srv.CreateUser("alice")
	srv.SetUserLocale(alice.ID, "fr")
	guild := srv.CreateGuild("Rail Club")
	srv.SetGuildLocale(guild.ID, "de")
	table := srv.CreateTextChannel(guild.ID, "table")
	dg := newSession(t, srv, 0, 1)
	got := interactions(dg)
	open(t, srv, dg)

	created := must[[]*discordgo.ApplicationCommand](t)(dg.ApplicationCommandBulkOverwrite(srv.AppID(), guild.ID, []*discordgo.ApplicationCommand{ttrCommand}))
	stored := srv.Commands(guild.ID)
	if len(created) != 1 || len(stored) != 1 || created[0].ID != stored[0].ID || stored[0].Options[0].Options[0].Name != "map" {
		t.Fatalf("overwrite returned %+v, fake stored %+v", created, stored)
	}
	listed := must[[]*discordgo.ApplicationCommand](t)(dg.ApplicationCommands(srv.AppID(), guild.ID))
	if len(listed) != 1 || listed[0].Name != "ttr" {
		t.Fatalf("listed %+v", listed)
	}
	// The client refuses what a Discord client could not send.
	if _, err := srv.RunCommand(alice.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "mars"))); err == nil {
		t.Error("a value outside the choices was dispatched")
	}
	if _, err := srv.RunCommand(alice.ID, table.ID, "ttr", Subcommand("new")); err == nil {
		t.Error("a missing required option was dispatched")
	}
	if _, err := srv.RunCommand(alice.ID, table.ID, "chess"); err == nil {
		t.Error("an unregistered command was dispatched")
	}

	h := must[*InteractionHandle](t)(srv.RunCommand(alice.ID, table.ID, "ttr",
		Subcommand("new", StringOption("map", "europe"), IntegerOption("players", 3))))
	in := receive(t, got)
	data := in.ApplicationCommandData()
	sub := data.Options[0]
	if in.ID != h.ID || data.Name != "ttr" || sub.Name != "new" || sub.Options[0].StringValue() != "europe" || sub.Options[1].IntValue() != 3 {
		t.Fatalf("received %+v / %+v", in, data)
	}
	if in.Member == nil || in.Member.User.ID != alice.ID || in.GuildID != guild.ID || in.ChannelID != table.ID {
		t.Errorf("member %+v guild %s channel %s", in.Member, in.GuildID, in.ChannelID)
	}
	if in.Locale != "fr" || in.GuildLocale == nil || *in.GuildLocale != "de" {
		t.Errorf("locale %q guild locale %v", in.Locale, in.GuildLocale)
	}
	err := dg.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content: "A game of Europe is open.",
			Embeds:  []*discordgo.MessageEmbed{{Title: "Europe", Description: "3 seats"}},
			Components: []discordgo.MessageComponent{
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Join", Style: discordgo.PrimaryButton, CustomID: "join"},
					discordgo.Button{Label: "Rules", Style: discordgo.SecondaryButton, CustomID: "rules"},
					discordgo.Button{Label: "Closed", Style: discordgo.DangerButton, CustomID: "closed", Disabled: true},
				}},
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.SelectMenu{CustomID: "colour", Placeholder: "Colour", MaxValues: 1, Options: []discordgo.SelectMenuOption{
						{Label: "Red", Value: "red"}, {Label: "Blue", Value: "blue"},
					}},
				}},
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	cb := must[Callback](t)(h.WaitCallback())
	board := original(t, h)
	if cb.Type != CallbackMessage || board.Content != "A game of Europe is open." || board.Embeds[0].Title != "Europe" || board.Ephemeral() || !board.Public() {
		t.Fatalf("callback %+v, board %+v", cb, board)
	}
	if len(board.Buttons()) != 3 {
		t.Fatalf("buttons %+v", board.Buttons())
	}
	if _, err := srv.ClickButton(alice.ID, board.ID, "closed"); err == nil {
		t.Error("a disabled button was clicked")
	}
	if _, err := srv.ClickButton(alice.ID, board.ID, "leave"); err == nil {
		t.Error("a missing button was clicked")
	}

	// A click answered by updating the message.
	click := must[*InteractionHandle](t)(srv.ClickButton(alice.ID, board.ID, "join"))
	in = receive(t, got)
	if in.Type != discordgo.InteractionMessageComponent || in.MessageComponentData().CustomID != "join" || in.Message == nil || in.Message.ID != board.ID {
		t.Fatalf("click received as %+v", in)
	}
	if err := dg.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "alice joined.", Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Start", Style: discordgo.SuccessButton, CustomID: "start"},
			}},
		}},
	}); err != nil {
		t.Fatal(err)
	}
	if cb := must[Callback](t)(click.WaitCallback()); cb.Type != CallbackUpdateMessage || cb.MessageID != board.ID {
		t.Fatalf("click callback %+v", cb)
	}
	board, _ = srv.Message(board.ID)
	// discordgo's InteractionResponseData always sends "embeds": null, which clears them.
	if board.Content != "alice joined." || board.Version != 1 || len(board.Embeds) != 0 || len(board.Buttons()) != 1 {
		t.Fatalf("updated board %+v", board)
	}
	if _, err := srv.ClickButton(alice.ID, board.ID, "join"); err == nil {
		t.Error("a button removed by the update was clicked")
	}
	// Answering twice is refused, as on Discord.
	err = dg.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != 40060 {
		t.Errorf("second callback: %v, want 40060", err)
	}

	// The string select, answered by a deferred update and an edit of the original.
	post := must[*discordgo.Message](t)(dg.ChannelMessageSendComplex(table.ID, &discordgo.MessageSend{
		Content: "Pick a colour",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: "colour", MaxValues: 1, Options: []discordgo.SelectMenuOption{{Label: "Red", Value: "red"}, {Label: "Blue", Value: "blue"}}},
		}}},
	}))
	if _, err := srv.SelectValues(alice.ID, post.ID, "colour", "green"); err == nil {
		t.Error("a value outside the select's options was dispatched")
	}
	pick := must[*InteractionHandle](t)(srv.SelectValues(alice.ID, post.ID, "colour", "blue"))
	in = receive(t, got)
	if v := in.MessageComponentData().Values; len(v) != 1 || v[0] != "blue" {
		t.Fatalf("select values %v", v)
	}
	if err := dg.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
		t.Fatal(err)
	}
	text := "alice is blue"
	if _, err := dg.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &text}); err != nil {
		t.Fatal(err)
	}
	if m := must[Message](t)(pick.WaitOriginal(func(m Message) bool { return m.Version > 0 })); m.ID != post.ID || m.Content != text {
		t.Errorf("after the deferred update the select message is %+v", m)
	}
	srv.CheckClean(t)
}

func TestAutocompleteChoices(t *testing.T) {
	srv := New(t)
	bob := srv.CreateUser("bob")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, "")

	if _, err := srv.Autocomplete(bob.ID, table.ID, "ttr", Subcommand("claim", StringOption("route", "Par"))); err == nil {
		t.Error("autocomplete without a focused option was dispatched")
	}
	h := must[*InteractionHandle](t)(srv.Autocomplete(bob.ID, table.ID, "ttr", Subcommand("claim", Focused(StringOption("route", "Par")))))
	in := receive(t, got)
	opt := in.ApplicationCommandData().Options[0].Options[0]
	if in.Type != discordgo.InteractionApplicationCommandAutocomplete || !opt.Focused || opt.StringValue() != "Par" {
		t.Fatalf("autocomplete received %+v", opt)
	}
	if err := dg.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{
			{Name: "Paris – Bruxelles", Value: "par-bru"}, {Name: "Paris – Pamplona", Value: "par-pam"},
		}},
	}); err != nil {
		t.Fatal(err)
	}
	cb := must[Callback](t)(h.WaitCallback())
	if cb.Type != CallbackAutocompleteResult || len(cb.Choices) != 2 || cb.Choices[1].Value != "par-pam" {
		t.Fatalf("choices %+v", cb)
	}
	srv.CheckClean(t)
}

func TestResponsesWithFilesDeferralAndFollowups(t *testing.T) {
	srv := New(t)
	carol := srv.CreateUser("carol")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	pic := testPNG(t)

	// Immediate answer with a file, shown in the embed through attachment://.
	h := must[*InteractionHandle](t)(srv.RunCommand(carol.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	in := receive(t, got)
	if err := dg.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Embeds: []*discordgo.MessageEmbed{{Title: "Board", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
			Files:  []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(pic)}},
		},
	}); err != nil {
		t.Fatal(err)
	}
	cb := must[Callback](t)(h.WaitCallback())
	if len(cb.Files) != 1 || cb.Files[0].Field != "files[0]" || !bytes.Equal(cb.Files[0].Data, pic) {
		t.Fatalf("callback files %+v", cb.Files)
	}
	board := original(t, h)
	att, ok := board.Attachment("board.png")
	if !ok || att.Width != 4 || att.Height != 3 {
		t.Fatalf("attachment %+v", board.Attachments)
	}
	img := must[image.Image](t)(att.Image())
	if r, _, _, _ := img.At(1, 2).RGBA(); r>>8 != 200 {
		t.Errorf("decoded pixel red = %d, want 200", r>>8)
	}
	if board.Embeds[0].Image == nil || board.Embeds[0].Image.URL != att.URL {
		t.Errorf("embed image %+v, want the attachment URL %s", board.Embeds[0].Image, att.URL)
	}
	resp := must[*http.Response](t)(http.Get(att.URL))
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(body, pic) {
		t.Error("the attachment URL does not serve the uploaded bytes")
	}
	reqs := srv.RequestsTo("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
	if len(reqs) != 1 || !strings.HasPrefix(reqs[0].ContentType, "multipart/form-data") || reqs[0].APIVersion != "10" {
		t.Fatalf("recorded callback %+v", reqs)
	}

	// Deferred, then edited, then follow-ups (one ephemeral with a file), edited and deleted.
	h = must[*InteractionHandle](t)(srv.RunCommand(carol.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "europe"))))
	in = receive(t, got)
	if err := dg.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
		t.Fatal(err)
	}
	if m := must[Message](t)(h.WaitOriginal(nil)); !m.Loading() {
		t.Errorf("deferred original %+v is not loading", m)
	}
	done := "Dealt."
	if _, err := dg.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &done}); err != nil {
		t.Fatal(err)
	}
	if m := original(t, h); m.Loading() || m.Content != done {
		t.Errorf("edited original %+v", m)
	}
	fetched := must[*discordgo.Message](t)(dg.InteractionResponse(in))
	if fetched.Content != done {
		t.Errorf("GET @original content %q", fetched.Content)
	}
	hand := must[*discordgo.Message](t)(dg.FollowupMessageCreate(in, true, &discordgo.WebhookParams{
		Content: "Your hand", Flags: discordgo.MessageFlagsEphemeral,
		Files: []*discordgo.File{{Name: "hand.png", ContentType: "image/png", Reader: bytes.NewReader(pic)}},
	}))
	public := must[*discordgo.Message](t)(dg.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "carol drew two cards"}))
	ups := must[[]Message](t)(h.WaitFollowups(2))
	if ups[0].ID != hand.ID || !ups[0].Ephemeral() || len(ups[0].Attachments) != 1 || ups[1].ID != public.ID || ups[1].Ephemeral() {
		t.Fatalf("follow-ups %+v", ups)
	}
	edited := "carol drew a locomotive"
	if _, err := dg.FollowupMessageEdit(in, public.ID, &discordgo.WebhookEdit{Content: &edited}); err != nil {
		t.Fatal(err)
	}
	if err := dg.FollowupMessageDelete(in, hand.ID); err != nil {
		t.Fatal(err)
	}
	if m, _ := srv.Message(hand.ID); !m.Deleted {
		t.Error("deleted follow-up still live")
	}
	if m, _ := srv.Message(public.ID); m.Content != edited {
		t.Errorf("edited follow-up %q", m.Content)
	}
	seen := srv.MessagesSeenBy(table.ID, srv.CreateUser("dave").ID)
	for _, m := range seen {
		if m.Ephemeral() {
			t.Errorf("dave sees carol's ephemeral message %s", m.ID)
		}
	}
	srv.CheckClean(t)
}

func TestDirectMessagesAndClosedDMs(t *testing.T) {
	srv := New(t)
	erin := srv.CreateUser("erin")
	frank := srv.CreateUser("frank")
	dg := newSession(t, srv, 0, 1)
	open(t, srv, dg)

	dm := must[*discordgo.Channel](t)(dg.UserChannelCreate(erin.ID))
	again := must[*discordgo.Channel](t)(dg.UserChannelCreate(erin.ID))
	if dm.Type != discordgo.ChannelTypeDM || dm.ID != again.ID || dm.Recipients[0].ID != erin.ID {
		t.Fatalf("DM channel %+v / %+v", dm, again)
	}
	sent := must[*discordgo.Message](t)(dg.ChannelMessageSendComplex(dm.ID, &discordgo.MessageSend{
		Content: "Your tickets", Files: []*discordgo.File{{Name: "tickets.png", ContentType: "image/png", Reader: bytes.NewReader(testPNG(t))}},
	}))
	ch, _ := srv.DMChannel(erin.ID)
	msgs := srv.Messages(ch.ID)
	if len(msgs) != 1 || msgs[0].ID != sent.ID || msgs[0].Public() || msgs[0].Author.ID != srv.Bot().ID || len(msgs[0].Attachments) != 1 {
		t.Fatalf("DM messages %+v", msgs)
	}
	if got := must[*discordgo.Channel](t)(dg.Channel(dm.ID)); got.ID != dm.ID {
		t.Errorf("GET channel %+v", got)
	}
	if got := must[*discordgo.Message](t)(dg.ChannelMessage(dm.ID, sent.ID)); got.Content != "Your tickets" || len(got.Attachments) != 1 {
		t.Errorf("GET message %+v", got)
	}
	if list := must[[]*discordgo.Message](t)(dg.ChannelMessages(dm.ID, 10, "", "", "")); len(list) != 1 || list[0].ID != sent.ID {
		t.Errorf("GET messages %+v", list)
	}

	// A command run in a DM reaches shard 0 with a user instead of a member.
	got := interactions(dg)
	must[[]*discordgo.ApplicationCommand](t)(dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{ttrCommand}))
	h := must[*InteractionHandle](t)(srv.RunCommand(erin.ID, srv.UserDM(erin.ID).ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	in := receive(t, got)
	if in.ID != h.ID || in.GuildID != "" || in.Member != nil || in.User == nil || in.User.ID != erin.ID || in.ChannelID != dm.ID {
		t.Fatalf("DM interaction %+v", in)
	}
	if _, err := srv.RunCommand(frank.ID, dm.ID, "ttr", Subcommand("new", StringOption("map", "usa"))); err == nil {
		t.Error("frank acted in erin's DM channel")
	}

	srv.FailDMsTo(frank.ID)
	closed := must[*discordgo.Channel](t)(dg.UserChannelCreate(frank.ID))
	_, err := dg.ChannelMessageSend(closed.ID, "Your tickets")
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response.StatusCode != http.StatusForbidden || rest.Message == nil || rest.Message.Code != 50007 {
		t.Fatalf("DM to a closed inbox: %v, want 403/50007", err)
	}
	if rest.Message.Message != "Cannot send messages to this user" {
		t.Errorf("message %q", rest.Message.Message)
	}
	if len(srv.Messages(closed.ID)) != 0 {
		t.Error("a refused DM was stored")
	}
	srv.CheckClean(t)
}

func TestRateLimitedRequestIsRetried(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg := newSession(t, srv, 0, 1)
	open(t, srv, dg)
	limited := 0
	dg.AddHandler(func(_ *discordgo.Session, r *discordgo.RateLimit) { limited++ })

	srv.RateLimit("POST", "/channels/{channel_id}/messages", 1, 30*time.Millisecond)
	m := must[*discordgo.Message](t)(dg.ChannelMessageSend(table.ID, "after the wait"))
	reqs := srv.RequestsTo("POST", "/channels/{channel_id}/messages")
	if len(reqs) != 2 || reqs[0].Status != http.StatusTooManyRequests || reqs[0].Fault == "" || reqs[1].Status != http.StatusOK {
		t.Fatalf("requests %+v", reqs)
	}
	if !bytes.Equal(reqs[0].JSON, reqs[1].JSON) {
		t.Error("the retry changed the body")
	}
	if msgs := srv.Messages(table.ID); len(msgs) != 1 || msgs[0].ID != m.ID {
		t.Errorf("stored %d messages", len(msgs))
	}
	if hits := srv.FaultHits(); len(hits) != 1 || hits[0] != 1 {
		t.Errorf("fault hits %v", hits)
	}

	// Without retries discordgo surfaces the limit.
	srv.RateLimit("POST", "/channels/{channel_id}/messages", 1, 20*time.Millisecond)
	_, err := dg.ChannelMessageSend(table.ID, "no retry", discordgo.WithRetryOnRatelimit(false))
	var rl *discordgo.RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter != 20*time.Millisecond {
		t.Fatalf("without retry: %v", err)
	}
	srv.CheckClean(t)
}

func TestRateLimitAnswerLooksLikeDiscords(t *testing.T) {
	srv := New(t)
	srv.RateLimit("GET", "/users/@me", 1, 1500*time.Millisecond)
	req, _ := http.NewRequest("GET", srv.APIURL()+"users/@me", nil)
	req.Header.Set("Authorization", srv.Token())
	resp := must[*http.Response](t)(http.DefaultClient.Do(req))
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "2" ||
		resp.Header.Get("X-RateLimit-Remaining") != "0" || resp.Header.Get("X-RateLimit-Reset-After") != "1.500" {
		t.Errorf("status %d headers %v", resp.StatusCode, resp.Header)
	}
	errs, err := srv.Spec().Schema("RatelimitedResponse", body)
	if err != nil || len(errs) != 0 {
		t.Errorf("429 body %s against RatelimitedResponse: %v %v", body, errs, err)
	}
	// The rule was used up: the next request is served.
	resp = must[*http.Response](t)(http.DefaultClient.Do(req))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("after the fault: %d", resp.StatusCode)
	}
}

func TestDroppedConnectionResumesAndReplaysMissedEvents(t *testing.T) {
	srv := New(t)
	gina := srv.CreateUser("gina")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	first := srv.Identifies()[0]

	if err := srv.DropConnection(0); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitFor("the fake to notice the drop", func() bool { return !srv.Connected(0) }); err != nil {
		t.Fatal(err)
	}
	// Dispatched while the bot is away: kept for RESUME.
	h := must[*InteractionHandle](t)(srv.RunCommand(gina.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	resumes := must[[]ResumeRecord](t)(srv.WaitResumes(1))
	if resumes[0].SessionID != first.SessionID || resumes[0].Replayed != 1 || resumes[0].Shard != 0 {
		t.Fatalf("resume %+v, want session %s with 1 replayed event", resumes[0], first.SessionID)
	}
	in := receive(t, got)
	if in.ID != h.ID {
		t.Fatalf("received %s, want the missed interaction %s", in.ID, h.ID)
	}
	if err := dg.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
		t.Fatal(err)
	}
	must[Callback](t)(h.WaitCallback())
	if n := len(srv.Identifies()); n != 1 {
		t.Errorf("%d IDENTIFYs, want 1: the session must resume, not start over", n)
	}

	// Op 7 RECONNECT also leads to a RESUME.
	if err := srv.SendReconnect(0); err != nil {
		t.Fatal(err)
	}
	must[[]ResumeRecord](t)(srv.WaitResumes(2))
	if n := len(srv.Identifies()); n != 1 {
		t.Errorf("%d IDENTIFYs after op 7", n)
	}
	// discordgo resumes on the URL it first dialled, never on READY's resume_gateway_url:
	// the fake records both resumes as faults (the bot has its own gateway client).
	if faults := srv.GatewayFaults(); len(faults) != 2 || !strings.Contains(faults[0].What, "resume_gateway_url") {
		t.Errorf("gateway faults %v, want discordgo's two resumes on the wrong URL", faults)
	}
	for _, r := range srv.Resumes() {
		if r.OnResumeURL {
			t.Errorf("resume %+v on the resume URL: discordgo has learnt to use it; the bot's gateway client may be reconsidered", r)
		}
	}
}

// After op 9 discordgo identifies again at once, on the same connection: within the 5 s
// Discord allows a bucket, so the fake refuses it with op 9 again, and discordgo goes on until
// the interval has passed (shortened here). This is why the bot has its own gateway client.
func TestInvalidatedSessionIdentifiesAgain(t *testing.T) {
	const interval = 300 * time.Millisecond
	srv := New(t, Options{IdentifyInterval: interval})
	dg := newSession(t, srv, 0, 1)
	open(t, srv, dg)
	if err := srv.InvalidateSession(0); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitFor("a second IDENTIFY", func() bool { return len(srv.Identifies()) == 2 }); err != nil {
		t.Fatal(err)
	}
	ids := srv.Identifies()
	if ids[0].SessionID == ids[1].SessionID {
		t.Error("the new session reused the invalidated id")
	}
	if gap := ids[1].Time.Sub(ids[0].Time); gap < interval {
		t.Errorf("the second session started %v after the first; the bucket allows one per %v", gap, interval)
	}
	if faults := srv.GatewayFaults(); len(faults) == 0 || !strings.Contains(faults[0].What, "op 9") {
		t.Errorf("gateway faults %v, want discordgo's immediate IDENTIFYs refused", faults)
	}
}

func TestTwoShardsIdentifySeparately(t *testing.T) {
	// Two buckets: discordgo opens both sessions at once (it paces nothing).
	srv := New(t, Options{MaxConcurrency: 2})
	hal := srv.CreateUser("hal")
	g1, g2 := srv.CreateGuild("one"), srv.CreateGuild("two")
	if ShardFor(g1.ID, 2) == ShardFor(g2.ID, 2) {
		t.Fatalf("consecutive guilds %s and %s share a shard", g1.ID, g2.ID)
	}
	byShard := map[int]Guild{ShardFor(g1.ID, 2): g1, ShardFor(g2.ID, 2): g2}
	sessions := make([]*discordgo.Session, 2)
	received := make([]<-chan *discordgo.Interaction, 2)
	for shard := 0; shard < 2; shard++ {
		sessions[shard] = newSession(t, srv, shard, 2)
		received[shard] = interactions(sessions[shard])
		open(t, srv, sessions[shard])
	}
	for shard := 0; shard < 2; shard++ {
		rec := must[IdentifyRecord](t)(srv.WaitReady(shard))
		if !rec.ShardSent || rec.Shard != [2]int{shard, 2} || len(rec.Guilds) != 1 || rec.Guilds[0] != byShard[shard].ID {
			t.Errorf("shard %d identify %+v, want guild %s", shard, rec, byShard[shard].ID)
		}
	}
	must[[]*discordgo.ApplicationCommand](t)(sessions[0].ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{ttrCommand}))
	table := srv.CreateTextChannel(byShard[1].ID, "t")
	h := must[*InteractionHandle](t)(srv.RunCommand(hal.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	in := receive(t, received[1])
	if in.ID != h.ID {
		t.Fatalf("shard 1 received %s", in.ID)
	}
	select {
	case other := <-received[0]:
		t.Errorf("shard 0 also received interaction %s", other.ID)
	default:
	}
	srv.CheckClean(t)
}

func TestInvalidBodiesAreRecordedAndRefused(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg := newSession(t, srv, 0, 1)
	_, err := dg.ChannelMessageSend(table.ID, strings.Repeat("x", 2001))
	fails := srv.ValidationFailures()
	if len(fails) != 1 || fails[0].Errors[0].Pointer != "/content" || fails[0].Errors[0].Code != "BASE_TYPE_MAX_LENGTH" {
		t.Fatalf("failures %v", fails)
	}
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != 50035 {
		t.Fatalf("send returned %v, want 50035", err)
	}
	// Discord's shape: the field path, then _errors with a code and a message.
	want := `{"code":50035,"errors":{"content":{"_errors":[{"code":"BASE_TYPE_MAX_LENGTH","message":"Must be 2000 or fewer in length (got 2001)."}]}},"message":"Invalid Form Body"}`
	if got := string(rest.ResponseBody); got != want {
		t.Errorf("answer\n%s\nwant\n%s", got, want)
	}
	if len(srv.Messages(table.ID)) != 0 {
		t.Error("a refused message was stored")
	}
}

func TestPublicLeaksFindSecretsInEveryVersion(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	ivy := srv.CreateUser("ivy")
	dg := newSession(t, srv, 0, 1)
	m := must[*discordgo.Message](t)(dg.ChannelMessageSendComplex(table.ID, &discordgo.MessageSend{
		Embeds: []*discordgo.MessageEmbed{{Fields: []*discordgo.MessageEmbedField{{Name: "ivy", Value: "holds Berlin–Roma"}}}},
	}))
	// The edit drops the embed: only the first version leaked.
	must[*discordgo.Message](t)(dg.ChannelMessageEditComplex(discordgo.NewMessageEdit(table.ID, m.ID).
		SetContent("nothing to see").SetEmbeds([]*discordgo.MessageEmbed{})))
	dm := must[*discordgo.Channel](t)(dg.UserChannelCreate(ivy.ID))
	must[*discordgo.Message](t)(dg.ChannelMessageSend(dm.ID, "your ticket: Lisboa–Danzig"))

	leaks := srv.PublicLeaks("Berlin–Roma", "Lisboa–Danzig")
	if len(leaks) != 1 || leaks[0].Secret != "Berlin–Roma" || leaks[0].Version != 0 || leaks[0].Where != "embeds/0/fields/0/value" {
		t.Fatalf("leaks %v: the edited-away embed must be found, the DM must not", leaks)
	}
}
