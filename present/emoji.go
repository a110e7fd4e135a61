package present

import (
	"crypto/sha256"
	"encoding/hex"
	"image"
	"sync"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
)

// The Unicode emoji that stand for the tickets and stations in texts: a
// transport with pictures of its own (Discord's application emojis) shows
// AppEmojis' pictures in their place.
const (
	TicketEmoji  = "🎫"
	StationEmoji = "🚉"
)

// AppEmoji is one of the pictures a transport may show in place of a
// Unicode emoji of the texts (Discord: an application emoji). Each Unicode
// stand-in means only its thing in every text, so that replacing it is
// exact.
type AppEmoji struct {
	// Name is the emoji's name where it is uploaded: "ttr_pink_1a2b3c",
	// ending with a hash of the picture, so that changed art is uploaded
	// under a new name and never mistaken for the old one.
	Name string
	// Unicode is the stand-in the texts write, and what is shown where the
	// picture is not available.
	Unicode string
	// PNG is the picture, 128×128 (imaging.EmojiSize).
	PNG []byte
}

// emojiArtVersion is part of every name's hash: raising it renames the
// whole set (when the pixels stay but their meaning changes).
const emojiArtVersion = "1"

var (
	appEmojisOnce sync.Once
	appEmojis     []AppEmoji
)

// AppEmojis is the set: the cards' colours, the locomotive, the Märklin
// Locomotive +4 and Passenger cards, a destination ticket and a station.
// The pictures are drawn once per process.
func AppEmojis() []AppEmoji {
	appEmojisOnce.Do(func() {
		add := func(key, unicode string, im *image.RGBA) {
			h := sha256.New()
			h.Write([]byte(emojiArtVersion))
			h.Write(im.Pix)
			appEmojis = append(appEmojis, AppEmoji{Name: "ttr_" + key + "_" + hex.EncodeToString(h.Sum(nil))[:6], Unicode: unicode, PNG: imaging.EncodeEmoji(im)})
		}
		for _, c := range emojiCards {
			add(emojiKey(c), CardEmoji(c), imaging.CardEmojiArt(c))
		}
		add("ticket", TicketEmoji, imaging.TicketEmojiArt())
		add("station", StationEmoji, imaging.StationEmojiArt())
	})
	return append([]AppEmoji(nil), appEmojis...)
}

// emojiCards are the kinds of card with an emoji of their own.
var emojiCards = []engine.Card{
	engine.ColorCard(data.Pink), engine.ColorCard(data.Blue), engine.ColorCard(data.Orange), engine.ColorCard(data.White),
	engine.ColorCard(data.Green), engine.ColorCard(data.Yellow), engine.ColorCard(data.Black), engine.ColorCard(data.Red),
	engine.Locomotive, engine.Locomotive4, engine.Passenger,
}

// emojiKey is a card's part of its emoji's name: letters and digits only.
func emojiKey(c engine.Card) string {
	switch c {
	case engine.Locomotive:
		return "loco"
	case engine.Locomotive4:
		return "loco4"
	case engine.Passenger:
		return "passenger"
	}
	return c.Color().String()
}
