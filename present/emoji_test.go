package present

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/forPelevin/gomoji"

	"conductor/engine"
	"conductor/imaging"
)

// The set: names Discord takes (2-32 letters, digits, _), each name and
// stand-in once, every stand-in a Unicode emoji (a button may carry it),
// 128×128 PNGs under Discord's 256 KiB, every card's stand-in with a picture.
func TestAppEmojiSet(t *testing.T) {
	set := AppEmojis()
	if len(set) != 13 {
		t.Errorf("%d emojis, want 13: 8 colours, the locomotive, Locomotive +4, Passenger, a ticket, a station", len(set))
	}
	names, unicodes := map[string]bool{}, map[string]bool{}
	valid := regexp.MustCompile(`^ttr_[a-z0-9]+_[0-9a-f]{6}$`)
	for _, e := range set {
		if !valid.MatchString(e.Name) || len(e.Name) > 32 {
			t.Errorf("name %q", e.Name)
		}
		if names[e.Name] || unicodes[e.Unicode] {
			t.Errorf("%s (%s) is there twice", e.Name, e.Unicode)
		}
		names[e.Name], unicodes[e.Unicode] = true, true
		if _, err := gomoji.GetInfo(e.Unicode); err != nil {
			t.Errorf("%s: %q is not a Unicode emoji", e.Name, e.Unicode)
		}
		im, err := png.Decode(bytes.NewReader(e.PNG))
		if err != nil || im.Bounds().Dx() != imaging.EmojiSize || im.Bounds().Dy() != imaging.EmojiSize || len(e.PNG) > 256<<10 {
			t.Errorf("%s: %v, %d bytes", e.Name, err, len(e.PNG))
		}
	}
	for c := engine.Card(1); c < engine.NumCards; c++ {
		if !unicodes[CardEmoji(c)] {
			t.Errorf("%s: its stand-in %s has no picture", c, CardEmoji(c))
		}
	}
	if !unicodes[TicketEmoji] || !unicodes[StationEmoji] {
		t.Error("no picture for the ticket or the station")
	}
	// The same set, the same names: a second start finds them.
	again := AppEmojis()
	for i := range set {
		if again[i].Name != set[i].Name || !bytes.Equal(again[i].PNG, set[i].PNG) {
			t.Errorf("%s is %s the second time", set[i].Name, again[i].Name)
		}
	}
}

// A card's stand-in means its card and nothing else: no text of any
// language writes it (the cards come in through CardEmoji), nor does any
// code of present/ or commands/ but labels.go. A picture put in its place
// then never shows a card where something else was meant (🚂 told claims
// while it was the Locomotive +4's; ⬜ marked an open ticket).
func TestCardStandInsMeanOnlyTheirCard(t *testing.T) {
	var cards []string
	for c := engine.Card(1); c < engine.NumCards; c++ {
		cards = append(cards, CardEmoji(c))
	}
	for _, lang := range Languages {
		raw, err := localeFiles.ReadFile("locales/" + lang + ".json")
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range cards {
			if strings.Contains(string(raw), s) {
				t.Errorf("locales/%s.json writes %s, the stand-in of a card", lang, s)
			}
		}
	}
	for _, dir := range []string{".", "../commands"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "labels.go" {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range cards {
				if strings.Contains(string(src), s) {
					t.Errorf("%s writes %s, the stand-in of a card: use CardEmoji, or another symbol", f, s)
				}
			}
		}
	}
}
