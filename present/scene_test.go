package present

import "testing"

func TestPictureTextHasNoEmoji(t *testing.T) {
	got := plainText("🂠 **Bot 2** drew a card ♻️ from the deck – Zürich → 🟥 red")
	if got != "Bot 2 drew a card from the deck – Zürich → red" {
		t.Fatalf("got %q", got)
	}
}
