package bot

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

// The boards remembered are bounded: the oldest is forgotten first.
func TestLayoutBookForgetsTheOldest(t *testing.T) {
	t.Parallel()
	w, _ := toWire(commands.Message{IsBoard: true, Content: "x", Components: []commands.Row{{{Kind: commands.Button, ID: "a", Label: "A"}}}})
	var b layoutBook
	for i := range layoutBookSize + 1 {
		b.posted(fmt.Sprint(i), w, []byte(`{"id":"x","components":[]}`))
	}
	if _, ok := b.take("0"); ok {
		t.Error("the oldest board is still remembered")
	}
	if body, ok := b.take("1"); !ok || !strings.Contains(string(body), `"flags":32768`) {
		t.Errorf("the second board: %v %s", ok, body)
	}
	if _, ok := b.take("1"); ok {
		t.Error("a board's edit is taken once")
	}
}

// The edit made from Discord's copy of a board: a plain message loses its components; a
// components v2 one keeps its layout without rows, its picture named again by attachment://
// (Discord's URL carries the name and a query) and kept by id.
func TestControlsRemovalFromDiscordsCopy(t *testing.T) {
	t.Parallel()
	body, err := controlsRemoval([]byte(`{"flags":0,"content":"old","components":[{"type":1,"components":[]}]}`))
	if err != nil || string(body) != `{"components":[]}` {
		t.Fatalf("plain: %s %v", body, err)
	}
	v2 := `{"flags":32768,"attachments":[],"components":[{"type":17,"id":1,"components":[` +
		`{"type":10,"id":2,"content":"words"},` +
		`{"type":12,"id":3,"items":[{"description":"alt","media":{"url":"https://cdn.discordapp.com/attachments/1/99/board%20v2.png?ex=1&is=2","proxy_url":"p","attachment_id":"99","width":4}}]},` +
		`{"type":1,"id":4,"components":[{"type":2,"id":5,"style":1,"custom_id":"a","label":"A"}]}]}]}`
	body, err = controlsRemoval([]byte(v2))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Flags       int
		Components  []map[string]any
		Attachments []struct{ ID string }
	}
	json.Unmarshal(body, &got)
	inner, _ := got.Components[0]["components"].([]any)
	if got.Flags != flagComponentsV2 || len(inner) != 2 || len(got.Attachments) != 1 || got.Attachments[0].ID != "99" {
		t.Fatalf("v2: %s", body)
	}
	if !strings.Contains(string(body), `"media":{"url":"attachment://board v2.png"}`) || !strings.Contains(string(body), `"description":"alt"`) {
		t.Errorf("the picture: %s", body)
	}
}

// A board sent as a follow-up whose answer was lost is recognised in the channel's history:
// its words (text displays) and its picture's name (a media item's URL) as Discord holds them
// match the message as sent.
func TestAFollowUpBoardIsRecognised(t *testing.T) {
	t.Parallel()
	m := commands.Message{IsBoard: true, Content: "Ann drew.\n<@1>, it's your turn!", Status: "▶ 🔴 Ann 3 pts | 🔵 Ben 0 pts",
		Files: []commands.File{{Name: "board.png", ContentType: "image/png", Data: []byte("png"), Description: "The map"}}}
	w, _ := toWire(m)
	held := `{"id":"7","content":"","attachments":[],"flags":32768,"components":[{"type":17,"id":1,"components":[` +
		`{"type":10,"id":2,"content":"Ann drew.\n<@1>, it's your turn!"},` +
		`{"type":12,"id":3,"items":[{"description":"The map","media":{"url":"https://cdn.discordapp.com/attachments/1/9/board.png?ex=1","attachment_id":"9"}}]},` +
		`{"type":10,"id":4,"content":"▶ 🔴 Ann 3 pts\n🔵 Ben 0 pts"}]}]}`
	var got discordgo.Message
	if err := json.Unmarshal([]byte(held), &got); err != nil {
		t.Fatal(err)
	}
	words, names := messageWords(&got)
	if words != wireWords(w) || len(names) != 1 || names[0] != "board.png" {
		t.Errorf("held %q %v, sent %q", words, names, wireWords(w))
	}
}
