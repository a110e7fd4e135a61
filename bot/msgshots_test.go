package bot_test

import (
	"os"
	"path/filepath"
	"testing"

	"conductor/imaging"
	"conductor/internal/fakediscord"
	"conductor/internal/msgshots"
)

// TestBoardMessagePictures writes the documentation's pictures of the
// thread's latest board message as Discord's client shows it in a window
// 400 px wide (docs/images/thread-board.{en,fr,de}.png), when
// CONDUCTOR_MSGSHOTS names the directory to write them to:
// `go run ./internal/boardshots`. Each is a game well under way (English
// USA, French Europe, German Märklin; two people and a bot), its boards
// drawn for real, shot at the first board with the map's picture after
// the 60th turn.
func TestBoardMessagePictures(t *testing.T) {
	dir := os.Getenv("CONDUCTOR_MSGSHOTS")
	if dir == "" {
		t.Skip("writes docs/images/thread-board.*.png when CONDUCTOR_MSGSHOTS is set: go run ./internal/boardshots")
	}
	browser, err := msgshots.NewBrowser(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer browser.Close()
	e := newEnv(t, envOptions{bots: true, pictures: imaging.NewRenderer()})
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
			turns := 0
			for ; turns < 60 && tb.playTurn(); turns++ {
			}
			// On to the next board that carries the map's picture, a round
			// at most.
			for more := 0; more < 12; more++ {
				if b, ok := tb.board(); ok {
					if _, pic := b.Attachment("board.png"); pic {
						break
					}
				}
				if !tb.playTurn() {
					t.Fatalf("the game ended after %d turns, before the picture", turns+more)
				}
			}
			b, ok := tb.board()
			if !ok {
				t.Fatal("no board message")
			}
			png := shootMessage(t, e, browser, b)
			name := filepath.Join(dir, "thread-board."+c.lang+".png")
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s (%d bytes), message %s:\n%s", name, len(png), b.ID, b.Content)
		})
	}
}

// shootMessage draws a message the fake recorded as a client 400 px wide
// shows it, at two device pixels a CSS pixel.
func shootMessage(t *testing.T, e *env, browser *msgshots.Browser, m fakediscord.Message) []byte {
	t.Helper()
	doc, ok := e.srv.MessageJSON(m.ID)
	if !ok {
		t.Fatalf("no message %s", m.ID)
	}
	page, err := msgshots.HTML(doc, msgshots.Options{Width: 400, Assets: msgshots.Assets{
		Media: func(url string) ([]byte, bool) {
			for _, a := range m.Attachments {
				if a.URL == url {
					return a.Data, true
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
	if err != nil {
		t.Fatal(err)
	}
	png, err := browser.Shoot(page, 400, 2)
	if err != nil {
		t.Fatal(err)
	}
	return png
}
