package bot

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"conductor/commands"
	"conductor/present"
)

// testRewrite knows every emoji of the set, with ids as long as Discord's.
func testRewrite(t *testing.T) *emojiRewrite {
	set := present.AppEmojis()
	ids := map[string]string{}
	for i, e := range set {
		ids[e.Name] = "13170000000000000" + strings.Repeat("0", 2-len(itoa(i))) + itoa(i)
	}
	r := newEmojiRewrite(set, ids)
	if r == nil {
		t.Fatal("no rewrite")
	}
	return r
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

var (
	wholeMention = regexp.MustCompile(`<:ttr_[a-z0-9]+_[0-9a-f]{6}:\d+>`)
	anyMention   = regexp.MustCompile(`<:`)
)

// A stand-in in text becomes the application's emoji, with its variation selector; a button's
// emoji becomes the custom emoji Discord takes as {"id", "name"}; labels and alt text (where
// Discord shows no custom emoji) keep the Unicode.
func TestEmojiRewrite(t *testing.T) {
	t.Parallel()
	r := testRewrite(t)
	pink, ticket := r.mention["🟪"], r.mention[present.TicketEmoji]
	m := r.apply(commands.Message{
		Content: "drew 🟪 pink and 🟪\uFE0F", Status: "🎫 3",
		Embeds:     []commands.Embed{{Title: "🟪", Description: "2× 🟪 pink", Footer: "🟪", Fields: []commands.Field{{Name: "🟪", Value: "🎫 Paris – Wien"}}}},
		Files:      []commands.File{{Name: "hand.png", Description: "1× 🟪 pink"}},
		Components: []commands.Row{{{Kind: commands.Button, ID: "a", Label: "🟪 pink", Emoji: "🟪"}, {Kind: commands.Button, ID: "b", Emoji: "🎴"}}},
	})
	if m.Content != "drew "+pink+" pink and "+pink || m.Status != ticket+" 3" {
		t.Errorf("content %q, status %q", m.Content, m.Status)
	}
	e := m.Embeds[0]
	if e.Description != "2× "+pink+" pink" || e.Fields[0].Value != ticket+" Paris – Wien" || e.Title != "🟪" || e.Footer != "🟪" || e.Fields[0].Name != "🟪" {
		t.Errorf("embed %+v", e)
	}
	if m.Files[0].Description != "1× 🟪 pink" || m.Components[0][0].Label != "🟪 pink" {
		t.Error("alt text or a label was rewritten")
	}
	if m.Components[0][0].Emoji != pink || m.Components[0][1].Emoji != "🎴" {
		t.Errorf("button emojis %q, %q", m.Components[0][0].Emoji, m.Components[0][1].Emoji)
	}
	w, _ := toWire(m)
	b := w.Components[0].Components[0].Emoji
	name := strings.TrimPrefix(strings.Split(pink, ":")[1], "")
	if b == nil || b.ID == "" || b.Name != name || w.Components[0].Components[1].Emoji.ID != "" {
		t.Errorf("wire emojis %+v %+v", b, w.Components[0].Components[1].Emoji)
	}
	// Rewriting twice changes nothing more.
	if again := r.apply(m); again.Content != m.Content || again.Components[0][0].Emoji != m.Components[0][0].Emoji {
		t.Error("a second rewrite changed the message")
	}
}

// Whatever the message, the rewritten one sent to Discord keeps every limit (content 2000
// with its status line, description 4096, field value 1024, 6000 for the embeds together)
// and no mention is cut: a text that would pass its limit keeps its Unicode.
func TestEmojiRewriteKeepsDiscordsLimits(t *testing.T) {
	t.Parallel()
	r := testRewrite(t)
	set := present.AppEmojis()
	rng := rand.New(rand.NewPCG(1, 2))
	text := func(n int) string {
		var b strings.Builder
		for b.Len() < 4*n && utf8.RuneCountInString(b.String()) < n {
			if rng.IntN(12) == 0 {
				b.WriteString(set[rng.IntN(len(set))].Unicode)
			} else {
				b.WriteString("Zürich ")
			}
		}
		s := []rune(b.String())
		return string(s[:min(len(s), n)])
	}
	sizes := []int{0, 10, 100, 300, 600, 900, 1000, 1500, 1900, 1990, 2000, 2100}
	rewritten := 0
	for i := range 400 {
		m := commands.Message{Content: text(sizes[rng.IntN(len(sizes))])}
		if i%2 == 0 {
			m.Status = text(sizes[rng.IntN(5)])
		}
		if i%3 == 0 {
			m.Embeds = []commands.Embed{{Title: text(100), Description: text([]int{100, 3000, 4000, 4096}[rng.IntN(4)]),
				Fields: []commands.Field{{Name: "a", Value: text([]int{10, 900, 1000, 1024}[rng.IntN(4)])}, {Name: "b", Value: text(800)}}}}
		}
		before := embedsLength(m.Embeds)
		out := r.apply(m)
		if out.Content != m.Content || (len(m.Embeds) > 0 && out.Embeds[0].Description != m.Embeds[0].Description) {
			rewritten++
		}
		w, _ := toWire(out)
		if n := utf8.RuneCountInString(w.Content); n > maxContent {
			t.Fatalf("content of %d characters", n)
		}
		if len(anyMention.FindAllString(w.Content, -1)) != len(wholeMention.FindAllString(w.Content, -1)) {
			t.Fatalf("a mention was cut: %q", w.Content[max(0, len(w.Content)-80):])
		}
		total := 0
		for _, e := range w.Embeds {
			total += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
			if utf8.RuneCountInString(e.Description) > maxEmbedDesc {
				t.Fatal("description past 4096")
			}
			for _, f := range e.Fields {
				total += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
				if utf8.RuneCountInString(f.Value) > maxFieldValue || len(anyMention.FindAllString(f.Value, -1)) != len(wholeMention.FindAllString(f.Value, -1)) {
					t.Fatalf("field value past 1024 or cut through a mention")
				}
			}
		}
		if before <= maxEmbedsTotal && total > maxEmbedsTotal {
			t.Fatalf("the embeds grew from %d to %d characters", before, total)
		}
	}
	if rewritten < 100 {
		t.Errorf("only %d of 400 messages were rewritten: the test proves little", rewritten)
	}
}
