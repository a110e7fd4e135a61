package commands

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"conductor/engine"
)

// deckButtonCount reads the number on a message's deck button, -1 for none.
func deckButtonCount(m Message) int {
	for _, row := range m.Components {
		for _, c := range row {
			if strings.HasPrefix(c.ID, "draw:") && strings.HasSuffix(c.ID, ":deck") {
				if s := regexp.MustCompile(`\d+`).FindString(c.Label); s != "" {
					n, _ := strconv.Atoi(s)
					return n
				}
			}
		}
	}
	return -1
}

// TestOneDeckCountEverywhere: once cards are discarded, the deck button,
// the board picture and /score still show one and the same deck count
// (the draw pile; the discards are counted apart).
func TestOneDeckCountEverywhere(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	g, _ := w.game("c1")
	for moves := 0; g.DiscardSize() == 0; moves++ {
		if moves > 60 {
			t.Fatal("no card was discarded in 60 moves")
		}
		seat := g.Current()
		legal := g.LegalActions(seat, nil)
		a := legal[0]
		for _, l := range legal {
			if l.Kind == engine.ActClaim {
				a = l
				break
			}
			if l.Kind == engine.ActDraw && l.Slot == engine.DeckSlot {
				a = l
			}
		}
		w.playRequest(g, gid, []string{"u1", "u2"}[seat], a)
	}
	posts := w.poster.all("c1")
	board := posts[len(posts)-1]
	button := deckButtonCount(board)
	tb, _ := w.svc.tables.loaded("c1")
	tb.mu.Lock()
	piles := tb.scene(tb.locale()).Text.Piles
	tb.mu.Unlock()
	footer := w.cmd("u3", "score", "", nil).msg.Embeds[0].Footer
	counts := regexp.MustCompile(`Deck (\d+) · discards (\d+)`)
	m := counts.FindStringSubmatch(footer)
	if m == nil {
		t.Fatalf("/score footer %q names no deck and discards", footer)
	}
	score, _ := strconv.Atoi(m[1])
	pm := regexp.MustCompile(`^Deck (\d+)$`).FindStringSubmatch(piles[0])
	if pm == nil {
		t.Fatalf("the board picture's piles %q name no deck and discards", piles)
	}
	picture, _ := strconv.Atoi(pm[1])
	if discards, _ := strconv.Atoi(m[2]); discards != g.DiscardSize() || discards == 0 {
		t.Fatalf("/score shows %d discards, the game has %d", discards, g.DiscardSize())
	}
	if button != g.DeckSize() || picture != g.DeckSize() || score != g.DeckSize() {
		t.Errorf("deck: button %d, picture %d, /score %d; the draw pile holds %d (and %d discards)", button, picture, score, g.DeckSize(), g.DiscardSize())
	}
}
