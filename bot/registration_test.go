package bot_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
)

// TestGatewayAsksForNoIntents: the bot uses no gateway event an intent
// governs (INTERACTION_CREATE and READY come with none), so it asks for
// none, and its interactions are still delivered and answered.
func TestGatewayAsksForNoIntents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if id := e.srv.Identifies()[0]; id.Intents != 0 {
		t.Errorf("IDENTIFY asked for intents %d, want 0", id.Intents)
	}
	a := e.ttr(e.user("alice").ID, e.channel("table").ID, "help")
	if a.cb.Type != fakediscord.CallbackMessage || a.msg.ID == "" {
		t.Errorf("/ttr help answered with %+v", a.cb)
	}
	e.srv.CheckClean(t)
}

func TestServerScopedRegistration(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	defs := commands.Definitions(data.Embedded().IDs())
	if got := e.srv.Commands(e.guild.ID); len(got) != len(defs) {
		t.Errorf("%d commands on the server, want %d", len(got), len(defs))
	}
	if got := e.srv.Commands(""); len(got) != 0 {
		t.Errorf("%d global commands, want none when a server is given", len(got))
	}
	id := e.srv.Identifies()[0]
	// REST and the gateway speak the version of Discord's OpenAPI
	// description.
	for _, r := range e.srv.Requests() {
		if r.APIVersion != bot.APIVersion {
			t.Errorf("%s %s used API version %q", r.Method, r.Path, r.APIVersion)
		}
	}
	if id.Query.Get("v") != bot.APIVersion || id.Query.Get("encoding") != "json" {
		t.Errorf("gateway version %q", id.Query.Get("v"))
	}
	// The gateway address came from GET /gateway/bot.
	if len(e.srv.RequestsTo("GET", "/gateway/bot")) == 0 {
		t.Error("the bot did not ask GET /gateway/bot")
	}
	e.srv.CheckClean(t)
}

func TestGlobalRegistrationIsForServersOnly(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	srv.CreateGuild("Rail Club")
	defs := commands.Definitions(data.Embedded().IDs())
	b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: defs, Logger: logger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background(), nopHandler{}); err != nil {
		t.Fatal(err)
	}
	defer func() {
		b.Stop(context.Background())
		b.Close()
	}()
	got := srv.Commands("")
	if len(got) != len(defs) {
		t.Fatalf("%d global commands, want %d", len(got), len(defs))
	}
	for _, c := range got {
		var raw struct {
			Contexts         []int             `json:"contexts"`
			NameLocalization map[string]string `json:"name_localizations"`
		}
		json.Unmarshal(c.Raw, &raw)
		if len(raw.Contexts) != 1 || raw.Contexts[0] != 0 {
			t.Errorf("/%s contexts %v, want [0] (servers only)", c.Name, raw.Contexts)
		}
		if raw.NameLocalization["fr"] == "" || raw.NameLocalization["de"] == "" || raw.NameLocalization["it"] == "" {
			t.Errorf("/%s names %v, want fr, de and it", c.Name, raw.NameLocalization)
		}
	}
	if h := b.Health(); !h.CommandsRegistered {
		t.Errorf("health %+v", h)
	}
	srv.CheckClean(t)
}

func TestBadTokenFailsAtStart(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	b, err := bot.New(bot.Config{Token: "wrong", APIBase: srv.BaseURL(), Logger: logger(), ReadyTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = b.Start(context.Background(), nopHandler{})
	if err == nil {
		b.Close()
		t.Fatal("a wrong token was accepted")
	}
	if !strings.Contains(err.Error(), "DISCORD_TOKEN") {
		t.Errorf("the error does not say what to check: %v", err)
	}
}

type nopHandler struct{}

func (nopHandler) Handle(context.Context, *commands.Request, commands.Responder) {}

// A 5xx while registering the commands is retried: the bot starts.
func TestRegistrationRetriesDiscordsFailures(t *testing.T) {
	// Not parallel: it sets the package-wide registration retry.
	defer bot.FastRegistrationRetries()()
	srv := fakediscord.New(t)
	srv.CreateGuild("Rail Club")
	srv.InjectFault(fakediscord.Fault{Method: "PUT", Route: "/applications/{application_id}/commands", Times: 2, Status: 500})
	defs := commands.Definitions(data.Embedded().IDs())
	b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: defs, Logger: logger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background(), nopHandler{}); err != nil {
		t.Fatalf("two failures of Discord stopped the start: %v", err)
	}
	defer func() {
		b.Stop(context.Background())
		b.Close()
	}()
	if hits := srv.FaultHits(); hits[0] != 2 || len(srv.Commands("")) != len(defs) {
		t.Fatalf("faults hit %v, %d commands registered", hits, len(srv.Commands("")))
	}
}

// The process told to stop while Discord fails the registration: the
// retries end at once rather than going on after the shutdown.
func TestRegistrationRetriesEndWithTheProcess(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	srv.CreateGuild("Rail Club")
	srv.InjectFault(fakediscord.Fault{Method: "PUT", Route: "/applications/{application_id}/commands", Times: 100, Status: 500})
	b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: commands.Definitions(data.Embedded().IDs()), Logger: logger()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan error, 1)
	go func() { started <- b.Start(ctx, nopHandler{}) }()
	for i := 0; srv.FaultHits()[0] == 0; i++ {
		if i == 2000 {
			t.Fatal("the registration was never tried")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-started; err == nil {
		t.Fatal("Start succeeded while every registration failed")
	}
	// The first retry would come 2 s after the first try.
	time.Sleep(3 * time.Second)
	b.Close()
	if hits := srv.FaultHits()[0]; hits != 1 {
		t.Fatalf("%d registrations tried, want 1: the retries went on after the process was told to stop", hits)
	}
}
