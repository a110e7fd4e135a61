package bot

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"conductor/commands"
)

func TestWireMessageForDiscord(t *testing.T) {
	t.Parallel()
	m := commands.Message{
		Content:   "<@1> it's your turn @everyone",
		Ephemeral: true,
		Mentions:  []string{"1", "1", "2"},
		Embeds:    []commands.Embed{{Title: "Hand", Image: "hand.png", Footer: "f", Fields: []commands.Field{{Name: "", Value: ""}}}},
		Files:     []commands.File{{Name: "hand.png", ContentType: "image/png", Data: []byte("png")}},
		Components: []commands.Row{
			{{Kind: commands.Button, ID: "draw:g:1:deck", Label: "Deck", Emoji: "🎴"}},
			{{Kind: commands.Select, ID: "keep:g:1:", Min: 0, Max: 9, Options: []commands.SelectOption{{Label: "A – B (5)", Value: "0"}, {Label: "C – D (7)", Value: "1"}}}},
			{},
		},
	}
	w, files := toWire(m)
	raw, _ := json.Marshal(w)
	var doc map[string]any
	json.Unmarshal(raw, &doc)
	if doc["flags"] != float64(64) {
		t.Errorf("flags = %v, want 64 (ephemeral)", doc["flags"])
	}
	am := doc["allowed_mentions"].(map[string]any)
	if p, ok := am["parse"].([]any); !ok || len(p) != 0 {
		t.Errorf("allowed_mentions.parse = %v, want [] so that nobody else is pinged", am["parse"])
	}
	if u := am["users"].([]any); len(u) != 2 {
		t.Errorf("allowed users = %v", u)
	}
	if img := w.Embeds[0].Image; img == nil || img.URL != "attachment://hand.png" {
		t.Errorf("embed image = %+v", img)
	}
	if f := w.Embeds[0].Fields[0]; f.Name == "" || f.Value == "" {
		t.Error("an empty field name or value would be refused by Discord")
	}
	if len(w.Components) != 2 {
		t.Fatalf("%d rows, want 2 (the empty row dropped)", len(w.Components))
	}
	sel := w.Components[1].Components[0]
	if *sel.MinValues != 0 || *sel.MaxValues != 2 {
		t.Errorf("select takes %d..%d values, want 0..2 (no more than its options)", *sel.MinValues, *sel.MaxValues)
	}
	if b := w.Components[0].Components[0]; b.Style != int(commands.Secondary) || b.Emoji == nil {
		t.Errorf("button = %+v", b)
	}
	if len(files) != 1 || files[0].Name != "hand.png" || files[0].ContentType != "image/png" {
		t.Errorf("files = %+v", files)
	}
}

func TestReplacementListsNewFilesOnly(t *testing.T) {
	t.Parallel()
	r, _ := toReplacement(commands.Message{Content: "x", Files: []commands.File{{Name: "board.png"}}})
	if len(r.Attachments) != 1 || r.Attachments[0].ID != "0" || r.Attachments[0].Filename != "board.png" {
		t.Errorf("attachments = %+v", r.Attachments)
	}
	r, _ = toReplacement(commands.Message{Content: "x"})
	raw, _ := json.Marshal(r)
	if !strings.Contains(string(raw), `"attachments":[]`) {
		t.Errorf("a replacement without files must clear the old ones: %s", raw)
	}
}

func TestLongTextIsCut(t *testing.T) {
	t.Parallel()
	w, _ := toWire(commands.Message{Content: strings.Repeat("é", 2500)})
	if n := utf8.RuneCountInString(w.Content); n != maxContent || !strings.HasSuffix(w.Content, "…") {
		t.Errorf("content has %d characters", n)
	}
}
