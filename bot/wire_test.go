package bot

import (
	"encoding/json"
	"slices"
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

// A board goes out as Components V2: one container with the words, the picture with its alt
// text, the status a seat a line, then the buttons; no content, no embeds. A board queued by
// an older release (no IsBoard) and an ephemeral copy go out plain, the status quoted.
func TestBoardWire(t *testing.T) {
	t.Parallel()
	old := `{"Content":"Ann claimed Denver – Omaha.\n<@1>, it's your turn!","Files":[{"Name":"board.png","ContentType":"image/png","Data":"cG5n","Description":"The map"}],` +
		`"Components":[[{"Kind":1,"ID":"draw:g:1:deck","Label":"Deck"}]],"Mentions":["1"],"Status":"▶ 🔴 Ann 12 pts | 🔵 Ben 9 pts"}`
	var m commands.Message
	if err := json.Unmarshal([]byte(old), &m); err != nil {
		t.Fatal(err)
	}
	w, _ := toWire(m)
	if w.Flags != 0 || !strings.HasSuffix(w.Content, "\n> ▶ 🔴 Ann 12 pts | 🔵 Ben 9 pts") {
		t.Errorf("an older release's board: flags %d, content %q", w.Flags, w.Content)
	}
	m.IsBoard = true
	m.Files[0].Description = strings.Repeat("é", 1100)
	w, files := toWire(m)
	raw, _ := json.Marshal(w)
	var doc map[string]any
	json.Unmarshal(raw, &doc)
	if _, ok := doc["content"]; ok || doc["embeds"] != nil || w.Flags != flagComponentsV2 || len(files) != 1 {
		t.Fatalf("a board: %s", raw)
	}
	if len(w.Components) != 1 || w.Components[0].Type != componentContainer {
		t.Fatalf("top level: %+v", w.Components)
	}
	inner := w.Components[0].Components
	types := []int{}
	for _, c := range inner {
		types = append(types, c.Type)
	}
	if want := []int{componentText, componentGallery, componentText, componentRow}; !slices.Equal(types, want) {
		t.Fatalf("container holds %v, want %v", types, want)
	}
	if inner[0].Content != "Ann claimed Denver – Omaha.\n<@1>, it's your turn!" || inner[2].Content != "▶ 🔴 Ann 12 pts\n🔵 Ben 9 pts" {
		t.Errorf("words %q, status %q", inner[0].Content, inner[2].Content)
	}
	item := inner[1].Items[0]
	if item.Media.URL != "attachment://board.png" || utf8.RuneCountInString(item.Description) != 1024 {
		t.Errorf("gallery item %q, alt of %d characters", item.Media.URL, utf8.RuneCountInString(item.Description))
	}
	if u := w.AllowedMentions.Users; len(u) != 1 || u[0] != "1" || len(w.AllowedMentions.Parse) != 0 {
		t.Errorf("allowed mentions %+v", w.AllowedMentions)
	}
	r, _ := toReplacement(m)
	if r.Flags != 0 || r.Content == nil || !strings.Contains(*r.Content, "> ▶ 🔴 Ann 12 pts") {
		t.Errorf("a board with a new picture replacing a message goes plain: %+v", r)
	}
	quiet := m
	quiet.Files = nil
	r, _ = toReplacement(quiet)
	raw, _ = json.Marshal(r)
	doc = nil
	json.Unmarshal(raw, &doc)
	if v, ok := doc["content"]; !ok || v != nil || r.Flags != flagComponentsV2 || len(r.Embeds) != 0 {
		t.Errorf("a board without a picture replacing a message: %s", raw)
	}
	m.Ephemeral = true
	if w, _ := toWire(m); w.Flags&flagComponentsV2 != 0 {
		t.Error("an ephemeral board is components v2")
	}
}
