package fakediscord

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// newSession makes a discordgo session for the fake without opening it.
func newSession(t *testing.T, srv *Server, shardID, shardCount int) *discordgo.Session {
	t.Helper()
	dg, err := discordgo.New(srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	dg.ShardID, dg.ShardCount = shardID, shardCount
	dg.Client = srv.HTTPClient()
	dg.LogLevel = -1 // the fake's failures are asserted, not logged
	return dg
}

// open opens the session, waits for READY and closes it when the test ends (before the fake
// stops, since clean-ups run in reverse order).
func open(t *testing.T, srv *Server, dg *discordgo.Session) {
	t.Helper()
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// discordgo's heartbeat goroutine can still call reconnect after Close (it races
		// with Close when a tick falls inside Close's one-second wait); that reconnect
		// would outlive the test. Turning reconnection off under the session's lock
		// orders it before any such call.
		dg.Lock()
		dg.ShouldReconnectOnError = false
		dg.Unlock()
		// discordgo's Close sleeps a second after its close frame; the fake seeing the
		// connection go is the end that matters (the bot's Close waits the same way).
		srv.mu.Lock()
		live := len(srv.conns)
		srv.mu.Unlock()
		go dg.Close()
		if err := srv.WaitFor("the session's connection to close", func() bool {
			srv.mu.Lock()
			defer srv.mu.Unlock()
			return len(srv.conns) < live || live == 0
		}); err != nil {
			t.Error(err)
		}
	})
	if _, err := srv.WaitReady(dg.ShardID); err != nil {
		t.Fatal(err)
	}
}

// ttrSession connects a session to srv and registers /ttr in the guild
// (everywhere for ""): the session and the interactions it receives.
func ttrSession(t *testing.T, srv *Server, guildID string) (*discordgo.Session, <-chan *discordgo.Interaction) {
	t.Helper()
	dg := newSession(t, srv, 0, 1)
	got := interactions(dg)
	open(t, srv, dg)
	must[[]*discordgo.ApplicationCommand](t)(dg.ApplicationCommandBulkOverwrite(srv.AppID(), guildID, []*discordgo.ApplicationCommand{ttrCommand}))
	return dg, got
}

// interactions forwards the bot's INTERACTION_CREATE events to a channel.
func interactions(dg *discordgo.Session) <-chan *discordgo.Interaction {
	ch := make(chan *discordgo.Interaction, 16)
	dg.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { ch <- ic.Interaction })
	return ch
}

func receive(t *testing.T, ch <-chan *discordgo.Interaction) *discordgo.Interaction {
	t.Helper()
	select {
	case i := <-ch:
		return i
	case <-time.After(10 * time.Second):
		t.Fatal("the session received no interaction")
		return nil
	}
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// testPNG is a small image with a known pixel, to prove attachments keep their bytes.
func testPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 2, color.RGBA{R: 200, G: 10, B: 30, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var ttrCommand = &discordgo.ApplicationCommand{
	Name:        "ttr",
	Description: "Ticket to Ride",
	Options: []*discordgo.ApplicationCommandOption{
		{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", Description: "Start a game",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "map", Description: "Board", Required: true,
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "USA", Value: "usa"}, {Name: "Europe", Value: "europe"}}},
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "players", Description: "Seats"},
			},
		},
		{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: "claim", Description: "Claim a route",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "route", Description: "Route", Required: true, Autocomplete: true},
			},
		},
	},
}

func original(t *testing.T, h *InteractionHandle) Message {
	t.Helper()
	m, ok := h.Original()
	if !ok {
		t.Fatalf("interaction %s has no original response", h.ID)
	}
	return m
}

// recordingTB counts the errors a check reports, to test the check itself.
type recordingTB struct {
	testing.TB
	errors int
}

func (r *recordingTB) Helper()               {}
func (r *recordingTB) Errorf(string, ...any) { r.errors++ }
