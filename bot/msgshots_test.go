package bot_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"conductor/imaging"
	"conductor/internal/fakediscord"
	"conductor/internal/msgshots"
)

// TestBoardMessagePictures writes the documentation's pictures of the
// thread's latest board message as Discord's client shows it in a window
// 400 px wide (docs/images/thread-board.{en,fr,de}.png), when
// CONDUCTOR_MSGSHOTS names the directory to write them to:
// `go run ./internal/webshots board`. Each is a game well under way (English
// USA, French Europe, German Märklin; two people and a bot), its boards
// drawn for real, shot at the first board with the map's picture on a
// person's turn once the thread holds 100 board messages. The games are
// seeded and the time shown is fixed: a run draws the same pictures as the
// last unless what the bot sends or how it is drawn changed.
func TestBoardMessagePictures(t *testing.T) {
	dir := os.Getenv("CONDUCTOR_MSGSHOTS")
	if dir == "" {
		t.Skip("writes docs/images/thread-board.*.png when CONDUCTOR_MSGSHOTS is set: go run ./internal/webshots board")
	}
	browser, err := msgshots.NewBrowser(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer browser.Close()
	// Seeded games play the same on every run: a picture changes when what
	// the bot sends or how it is drawn changes.
	var seed atomic.Uint64
	e := newEnv(t, envOptions{bots: true, pictures: imaging.NewRenderer(), newSeed: func() uint64 { return 4500 + seed.Add(1) }})
	for _, c := range []struct {
		lang, mapID, variant string
		names                []string
	}{
		{"en", "usa", "", []string{"Ada", "Bo"}},
		{"fr", "europe", "classic", []string{"Amélie", "Benoît"}},
		{"de", "marklin", "", []string{"Anja", "Bernd"}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			e := e.as(t)
			tb := localeTable(e, c.lang, c.mapID, c.variant, c.names...)
			// The first board that carries the map's picture and waits on a
			// person (the bot has finished: nothing moves until they play)
			// once the thread holds 100 board messages.
			for turns := 0; ; turns++ {
				b, ok := tb.board()
				if _, pic := b.Attachment("board.png"); ok && pic && boardPosts(e, tb) >= 100 {
					if _, person := tb.user(lastMention(words(b))); person {
						break
					}
				}
				if turns == 300 || !tb.playTurn() {
					t.Fatalf("the game ended after %d turns, before the picture", turns)
				}
			}
			b, _ := tb.board()
			png := shootMessage(t, e, browser, b)
			name := filepath.Join(dir, "thread-board."+c.lang+".png")
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes), message %s:\n%s", name, len(png), b.ID, words(b))
		})
	}
}

// words is what a message says: its content, then its text displays
// (Components V2).
func words(m fakediscord.Message) string {
	parts := []string{m.Content}
	m.Walk(func(c fakediscord.Component) {
		if c.Type == fakediscord.ComponentTextDisplay {
			parts = append(parts, c.Content)
		}
	})
	return strings.Join(parts, "\n")
}

// boardPosts counts the table's board messages so far.
func boardPosts(e *env, tb *table) int {
	n := 0
	for _, m := range e.srv.Messages(tb.ch.ID) {
		if isBoardPost(m) {
			n++
		}
	}
	return n
}

// shootMessage draws a message the fake recorded as a client 400 px wide
// shows it, at two device pixels a CSS pixel.
func shootMessage(t *testing.T, e *env, browser *msgshots.Browser, m fakediscord.Message) []byte {
	t.Helper()
	doc, ok := e.srv.MessageJSON(m.ID)
	if !ok {
		t.Fatalf("no message %s", m.ID)
	}
	msg, err := msgshots.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	// The time shown is fixed, so that a picture changes only with the
	// message.
	msg.Timestamp = "2026-11-28T20:45:00Z"
	page := msgshots.Render(msg, msgshots.Options{Width: 400, Assets: msgshots.Assets{
		Media: func(url string) ([]byte, bool) {
			for _, a := range m.Attachments {
				if a.URL == url {
					return a.Data, true
				}
			}
			return nil, false
		},
		Emoji: func(id string) ([]byte, bool) {
			for _, em := range e.srv.AppEmojis() {
				if em.ID == id {
					return em.Image, true
				}
			}
			return nil, false
		},
		User: func(id string) (string, bool) {
			u, ok := e.srv.User(id)
			if !ok {
				return "", false
			}
			if u.GlobalName != "" {
				return u.GlobalName, true
			}
			return u.Username, true
		},
	}})
	png, err := browser.Shoot(page, 400, 2)
	if err != nil {
		t.Fatal(err)
	}
	return png
}
