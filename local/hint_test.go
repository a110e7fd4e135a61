package local

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"conductor/commands"
	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/store"
)

// lastLegal is a stand-in coach: it plays the last legal action.
type lastLegal struct{}

func (lastLegal) Choose(_ engine.PlayerView, legal []engine.Action) engine.Action {
	return legal[len(legal)-1]
}

// Typing hint at the terminal asks the coach for the player's move.
func TestHintAtTheTerminal(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "play.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	script := strings.Join([]string{"", "a,b", "", "a,b", "", "hint", "/quit"}, "\n") + "\n"
	var out bytes.Buffer
	term := NewTerminal(strings.NewReader(script), &out)
	term.Pictures = dir
	term.Channel = "local:test"
	svc := commands.New(commands.Config{Catalog: data.Embedded(), Store: st, Renderer: imaging.NewRenderer(), Poster: term, BotDelay: time.Millisecond,
		Bots: func(string, uint64) (commands.Bot, error) { return lastLegal{}, nil }})
	defer svc.Close()
	term.Service = svc
	if err := term.Open(context.Background(), st, Setup{Seats: []string{"alice", "bob"}, Map: "usa"}); err != nil {
		t.Fatal(err)
	}
	if err := term.Play(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "💡 The expert would") {
		t.Fatalf("no hint in the transcript:\n%s", out.String())
	}
}
