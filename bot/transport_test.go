package bot

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestTransportSendsDiscordgoToTheBase checks that discordgo, untouched,
// reaches DISCORD_API_URL under API version 10, and that other addresses are
// left alone.
func TestTransportSendsDiscordgoToTheBase(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.EscapedPath()+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id": "1", "username": "Conductor"}`))
	}))
	defer srv.Close()
	tr, err := newAPITransport(srv.URL+"/prefix/", nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := discordgo.New("Bot tok")
	s.Client = &http.Client{Transport: tr}
	if u, err := s.User("@me"); err != nil || u.Username != "Conductor" {
		t.Fatalf("GET /users/@me: %v %v", u, err)
	}
	s.ChannelMessageDelete("12", "34")
	want := []string{"GET /prefix/api/v10/users/@me Bot tok", "DELETE /prefix/api/v10/channels/12/messages/34 Bot tok"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("the base received %q, want %q", got, want)
	}
	if discordgo.EndpointDiscord != DefaultAPIBase || discordgo.APIVersion != "9" {
		t.Errorf("discordgo's variables changed: %s v%s", discordgo.EndpointDiscord, discordgo.APIVersion)
	}
	// Not Discord's API (the CDN here): unchanged.
	req, _ := http.NewRequest("GET", srv.URL+"/elsewhere", nil)
	if resp, err := tr.RoundTrip(req); err != nil || resp.Request.URL.Path != "/elsewhere" {
		t.Errorf("a request to another address was rewritten: %v", err)
	}
	for _, bad := range []string{"discord.com", "ftp://x/", "http://"} {
		if _, err := newAPITransport(bad, nil); err == nil {
			t.Errorf("DISCORD_API_URL %q accepted", bad)
		}
	}
}
