package fakediscord

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// rawRequest sends one request as the bot, without discordgo's rate limiter.
func rawRequest(t *testing.T, srv *Server, method, path, body string) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, srv.APIURL()+strings.TrimPrefix(path, "/"), r)
	req.Header.Set("Authorization", srv.Token())
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp := must[*http.Response](t)(http.DefaultClient.Do(req))
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, b
}

// TestEveryAnswerCarriesItsBucket: each answer names its bucket, the same for every channel
// of a route, and counts down what is left of it; past it the fake answers 429 of scope user.
func TestEveryAnswerCarriesItsBucket(t *testing.T) {
	srv := New(t, Options{RouteLimit: 3, RouteWindow: time.Minute})
	guild := srv.CreateGuild("g")
	a := srv.CreateTextChannel(guild.ID, "a")
	b := srv.CreateTextChannel(guild.ID, "b")
	post := func(ch string) *http.Response {
		resp, _ := rawRequest(t, srv, "POST", "/channels/"+ch+"/messages", `{"content":"hi"}`)
		return resp
	}
	var buckets []string
	for i := range 3 {
		resp := post(a.ID)
		h := resp.Header
		if resp.StatusCode != http.StatusOK || h.Get("X-RateLimit-Limit") != "3" || h.Get("X-RateLimit-Remaining") != strconv.Itoa(2-i) {
			t.Fatalf("post %d: %d %v", i, resp.StatusCode, h)
		}
		after, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64)
		if err != nil || after <= 0 || after > 60 {
			t.Errorf("Reset-After %q", h.Get("X-RateLimit-Reset-After"))
		}
		if _, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset"), 64); err != nil {
			t.Errorf("Reset %q", h.Get("X-RateLimit-Reset"))
		}
		buckets = append(buckets, h.Get("X-RateLimit-Bucket"))
	}
	over := post(a.ID)
	if over.StatusCode != http.StatusTooManyRequests || over.Header.Get("X-RateLimit-Scope") != "user" || over.Header.Get("X-RateLimit-Global") != "" {
		t.Fatalf("past the bucket: %d %v", over.StatusCode, over.Header)
	}
	// Another channel is another top-level resource: a bucket of its own, with the same name.
	other := post(b.ID)
	if other.StatusCode != http.StatusOK || other.Header.Get("X-RateLimit-Bucket") != buckets[0] || other.Header.Get("X-RateLimit-Remaining") != "2" {
		t.Fatalf("other channel: %d %v", other.StatusCode, other.Header)
	}
	resp, _ := rawRequest(t, srv, "GET", "/channels/"+a.ID+"/messages", "")
	if resp.Header.Get("X-RateLimit-Bucket") == buckets[0] || resp.Header.Get("X-RateLimit-Bucket") == "" {
		t.Errorf("listing shares the post's bucket: %v", resp.Header)
	}
	if n := len(srv.Messages(a.ID)); n != 3 {
		t.Errorf("%d messages stored: the refused post was served", n)
	}
	if srv.InvalidRequests() != 1 {
		t.Errorf("%d invalid requests counted, want the one 429", srv.InvalidRequests())
	}
}

// TestDiscordgoWaitsOnExhaustedBuckets: discordgo reads the headers and waits for the reset
// instead of running into the 429.
func TestDiscordgoWaitsOnExhaustedBuckets(t *testing.T) {
	srv := New(t, Options{RouteLimit: 2, RouteWindow: 200 * time.Millisecond})
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg := newSession(t, srv, 0, 1)
	for i := range 7 {
		must[*discordgo.Message](t)(dg.ChannelMessageSend(table.ID, "post "+strconv.Itoa(i)))
	}
	if all, _ := srv.RateLimited(); all != 0 {
		t.Errorf("%d requests answered 429", all)
	}
	if n := len(srv.Messages(table.ID)); n != 7 {
		t.Errorf("%d messages", n)
	}
}

// TestGlobalLimitSpareInteractions: with the global limit on, a burst beyond it is answered
// 429 global the way Discord does, while interaction callbacks and follow-ups go through.
func TestGlobalLimitSpareInteractions(t *testing.T) {
	srv := New(t, Options{GlobalLimit: 5})
	alice := srv.CreateUser("alice")
	guild := srv.CreateGuild("g")
	srv.AddMember(guild.ID, alice.ID)
	table := srv.CreateTextChannel(guild.ID, "t")
	dg := newSession(t, srv, 0, 1)
	open(t, srv, dg)
	must[[]*discordgo.ApplicationCommand](t)(dg.ApplicationCommandBulkOverwrite(srv.AppID(), guild.ID, []*discordgo.ApplicationCommand{ttrCommand}))
	in := interactions(dg)
	time.Sleep(globalWindow) // the start's requests leave the window

	var refused *http.Response
	var body []byte
	for i := range 6 {
		resp, b := rawRequest(t, srv, "GET", "/channels/"+table.ID, "")
		if i < 5 && resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d within the limit: %d", i, resp.StatusCode)
		}
		refused, body = resp, b
	}
	h := refused.Header
	if refused.StatusCode != http.StatusTooManyRequests || h.Get("X-RateLimit-Global") != "true" || h.Get("X-RateLimit-Scope") != "global" || h.Get("Retry-After") == "" {
		t.Fatalf("past the global limit: %d %v", refused.StatusCode, h)
	}
	var rl struct {
		Global     bool    `json:"global"`
		RetryAfter float64 `json:"retry_after"`
	}
	if err := json.Unmarshal(body, &rl); err != nil || !rl.Global || rl.RetryAfter <= 0 || rl.RetryAfter > 1 {
		t.Fatalf("body %s", body)
	}
	errs, err := srv.Spec().Schema("RatelimitedResponse", body)
	if err != nil || len(errs) != 0 {
		t.Errorf("429 body %s against RatelimitedResponse: %v %v", body, errs, err)
	}

	// Interaction endpoints are not bound to the global limit.
	h2 := must[*InteractionHandle](t)(srv.RunCommand(alice.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	i := receive(t, in)
	if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "ok", Flags: discordgo.MessageFlagsEphemeral}}); err != nil {
		t.Fatalf("callback past the global limit: %v", err)
	}
	f := must[*discordgo.Message](t)(dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "the board"}))
	must[*discordgo.Message](t)(dg.FollowupMessageEdit(i, f.ID, &discordgo.WebhookEdit{Components: &[]discordgo.MessageComponent{}}))
	if _, ok := h2.Callback(); !ok {
		t.Fatal("no callback recorded")
	}
	if _, global := srv.RateLimited(); global != 1 {
		t.Errorf("%d global 429s, want 1", global)
	}
	if srv.InvalidRequests() != 1 {
		t.Errorf("%d invalid requests", srv.InvalidRequests())
	}
}

// TestListMessagesAfterAndHistory: GET messages with after gives the oldest messages after an
// id (newest first, as Discord lists); without Read Message History it gives none; follow-ups
// name their original response.
func TestListMessagesAfterAndHistory(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg := newSession(t, srv, 0, 1)
	var ids []string
	for i := range 5 {
		ids = append(ids, must[*discordgo.Message](t)(dg.ChannelMessageSend(table.ID, strconv.Itoa(i))).ID)
	}
	got := must[[]*discordgo.Message](t)(dg.ChannelMessages(table.ID, 2, "", ids[1], ""))
	if len(got) != 2 || got[0].ID != ids[3] || got[1].ID != ids[2] {
		t.Fatalf("after %s: %v", ids[1], got)
	}
	srv.SetRolePermissions(guild.ID, guild.ID, EveryonePermissions&^PermReadMessageHistory)
	if got := must[[]*discordgo.Message](t)(dg.ChannelMessages(table.ID, 10, "", "", "")); len(got) != 0 {
		t.Fatalf("without Read Message History: %d messages", len(got))
	}
}
