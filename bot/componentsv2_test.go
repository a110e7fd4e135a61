package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"conductor/commands"
	"conductor/imaging"
	"conductor/internal/fakediscord"
	"conductor/internal/testkit"
	"conductor/internal/testkit/sketch"
)

// checkBoardV2 checks a board post is a Components V2 message as Discord shows it: one
// container with the words, the picture in a media gallery whose alt text is the picture's,
// and the status in short lines.
func checkBoardV2(t *testing.T, m fakediscord.Message) {
	t.Helper()
	if !m.IsComponentsV2() || m.Content != "" || len(m.Embeds) != 0 {
		t.Fatalf("board %s: flags %d, content %q, %d embeds", m.ID, m.Flags, m.Content, len(m.Embeds))
	}
	if len(m.Components) != 1 || m.Components[0].Type != fakediscord.ComponentContainer {
		t.Fatalf("board %s: %d top-level components, want one container", m.ID, len(m.Components))
	}
	if a, ok := m.Attachment("board.png"); ok {
		items := m.MediaItems()
		if len(items) != 1 || items[0].Media.AttachmentID != a.ID || items[0].Description == "" || items[0].Description != a.Description {
			t.Fatalf("board %s: gallery %+v for the picture %s (alt %q)", m.ID, items, a.ID, a.Description)
		}
	}
	if s := statusOf(m); s != "" {
		for _, line := range strings.Split(s, " | ") {
			if n := len([]rune(line)); n > 48 {
				t.Errorf("board %s: a status line of %d characters does not read at 400 px: %q", m.ID, n, line)
			}
		}
	}
}

// Every board of a whole game goes out as Components V2 and Discord (the fake) takes it; the
// next board takes the buttons off the one before and leaves its picture; a restart (the board
// before it posted by another process) costs one read of that board, no more.
func TestBoardsAreComponentsV2(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{bots: true})
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	reads := func() int {
		return len(e.srv.RequestsTo("GET", "/channels/{channel_id}/messages/{message_id}")) + len(e.srv.RequestsTo("GET", followUpEdit))
	}
	for turns := 1; tb.playTurn(); turns++ {
		if turns > 600 {
			t.Fatal("the game does not end")
		}
		if turns == 20 {
			before := reads()
			tb.restart()
			defer func(before int) {
				if n := reads() - before; n > 1 {
					t.Errorf("%d boards read after one restart, want at most 1", n)
				}
			}(before)
		}
		if turns < 20 && reads() != 0 {
			t.Fatalf("turn %d: a board was read to take its buttons off", turns)
		}
		if err := e.srv.WaitFor("one live board", func() bool { return tb.liveBoards() == 1 || tb.over() }); err != nil {
			t.Fatalf("after turn %d: %d boards with buttons", turns, tb.liveBoards())
		}
	}
	boards, pictures := 0, 0
	for _, m := range e.srv.Messages(tb.ch.ID) {
		if !isBoardPost(m) {
			continue
		}
		boards++
		checkBoardV2(t, m)
		if len(m.Buttons()) != 0 {
			t.Errorf("board %s still has buttons after the game", m.ID)
		}
		if _, ok := m.Attachment("board.png"); ok {
			pictures++
		}
	}
	if boards < 20 || pictures < 5 {
		t.Fatalf("%d boards, %d with a picture", boards, pictures)
	}
	// Each board was posted once as V2 and edited at most once (its buttons taken off).
	for _, m := range e.srv.Messages(tb.ch.ID) {
		if isBoardPost(m) && m.Version > 1 {
			t.Errorf("board %s edited %d times", m.ID, m.Version)
		}
	}
	e.srv.CheckClean(t)
}

// The buttons come off a board the bot does not remember (posted before a restart, or by an
// older release as a plain message) after one read of it: a V2 board keeps its words and
// picture, a plain one its content and file.
func TestRemoveControlsOfABoardNotRemembered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("table")
	pic := pngOf(t)
	post := func(payload map[string]any) string {
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		raw, _ := json.Marshal(payload)
		w.WriteField("payload_json", string(raw))
		part, _ := w.CreateFormFile("files[0]", "board.png")
		part.Write(pic)
		w.Close()
		req, _ := http.NewRequest("POST", e.srv.APIURL()+"channels/"+ch.ID+"/messages", &body)
		req.Header.Set("Authorization", e.srv.Token())
		req.Header.Set("Content-Type", w.FormDataContentType())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m struct{ ID string }
		json.NewDecoder(resp.Body).Decode(&m)
		if resp.StatusCode != http.StatusOK || m.ID == "" {
			t.Fatalf("posting a board: %d", resp.StatusCode)
		}
		return m.ID
	}
	row := map[string]any{"type": 1, "components": []any{map[string]any{"type": 2, "style": 1, "label": "Deck", "custom_id": "draw:g:1:deck"}}}
	v2 := post(map[string]any{"flags": 1 << 15, "components": []any{map[string]any{"type": 17, "components": []any{
		map[string]any{"type": 10, "content": "Ann claimed Denver – Omaha.\n<@1>, it's your turn!"},
		map[string]any{"type": 12, "items": []any{map[string]any{"media": map[string]any{"url": "attachment://board.png"}, "description": "The map"}}},
		map[string]any{"type": 10, "content": "▶ 🔴 Ann 12 pts · 30 trains\n🔵 Ben 9 pts · 41 trains"},
		row}}},
		"attachments": []any{map[string]any{"id": "0", "filename": "board.png", "description": "The map"}}})
	v1 := post(map[string]any{"content": "an older release's board", "components": []any{row}})
	for _, id := range []string{v2, v1} {
		before, _ := e.srv.Message(id)
		if err := e.b.RemoveControls(context.Background(), ch.ID, id); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		m, _ := e.srv.Message(id)
		if len(m.Buttons()) != 0 || m.Body() != before.Body() || len(m.Attachments) != 1 || m.IsComponentsV2() != before.IsComponentsV2() {
			t.Fatalf("after: buttons %d, words %q (were %q), %d files, flags %d", len(m.Buttons()), m.Body(), before.Body(), len(m.Attachments), m.Flags)
		}
		if m.IsComponentsV2() {
			if items := m.MediaItems(); len(items) != 1 || items[0].Media.AttachmentID != m.Attachments[0].ID || items[0].Description != "The map" {
				t.Fatalf("the picture after the edit: %+v", items)
			}
		}
	}
	if n := len(e.srv.RequestsTo("GET", "/channels/{channel_id}/messages/{message_id}")); n != 2 {
		t.Errorf("%d reads, want one a board", n)
	}
	// Where the bot may not read the channel, the buttons stay after one refused read, and
	// the channel is not read again.
	e.srv.SetOverwrite(ch.ID, fakediscord.Overwrite{ID: e.srv.Bot().ID, Type: 1, Deny: fakediscord.PermReadMessageHistory})
	for i := range 2 {
		id := post(map[string]any{"content": fmt.Sprint("board ", i), "components": []any{row}})
		if err := e.b.RemoveControls(context.Background(), ch.ID, id); err == nil {
			t.Fatal("the buttons of a board the bot cannot read came off")
		}
	}
	if n := len(e.srv.RequestsTo("GET", "/channels/{channel_id}/messages/{message_id}")); n != 3 {
		t.Errorf("%d reads, want one refused in the unreadable channel", n-2)
	}
	e.srv.CheckClean(t)
}

func pngOf(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 2, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A board that answers a command after its deferral replaces the "thinking" message: Discord
// does not show a file uploaded by an edit in a media gallery (discord-api-docs#7529), so that
// board goes plain, its status quoted, and is taken with its picture. An answer without a
// deferral is a new message, laid out as V2.
func TestABoardAnsweringAfterADeferralIsTaken(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name       string
		deferAfter time.Duration
		v2         bool
	}{{"deferred", 100 * time.Millisecond, false}, {"at once", 0, true}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envOptions{deferAfter: c.deferAfter, pictures: slowBoards{&sketch.Renderer{}, 3 * c.deferAfter}})
			tb := newTable(e, "table", "usa", "", "alice", "bob")
			tb.setup()
			tb.playTurn()
			a := tb.do(e.run(tb.host.ID, tb.ch.ID, "board"))
			if c.deferAfter > 0 && a.cb.Type != fakediscord.CallbackDeferredMessage {
				t.Fatalf("the answer was not deferred: callback %d", a.cb.Type)
			}
			m := a.msg
			if _, ok := m.Attachment("board.png"); !ok || m.Ephemeral() || m.Loading() || m.IsComponentsV2() != c.v2 || !strings.Contains(m.Body(), " · ") {
				t.Fatalf("the board: v2 %v, %d files, %q", m.IsComponentsV2(), len(m.Attachments), m.Body())
			}
			e.srv.CheckClean(t)
		})
	}
}

// slowBoards draws boards no sooner than after a pause: an answer that waits on one is
// deferred.
type slowBoards struct {
	*sketch.Renderer
	pause time.Duration
}

func (r slowBoards) Board(w io.Writer, s *imaging.Scene) error {
	time.Sleep(r.pause)
	return r.Renderer.Board(w, s)
}

// A board Discord refuses as Components V2 (a 400: should Discord read its documents otherwise
// than the bot does) goes out plain, with its picture and its status quoted, rather than not at
// all; the way it was refused (a channel's posts, an interaction's follow-ups) then sends its
// boards plain at once for the rest of the process, and it is said once at warn level.
func TestARefusedLayoutGoesOutPlain(t *testing.T) {
	t.Parallel()
	var logs testkit.SyncBuffer
	e := newEnv(t, envOptions{logs: &logs})
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	// A person's move posts its board as a follow-up of the move's interaction.
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: "/webhooks/{webhook_id}/{webhook_token}", Status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body", Times: 1})
	posts := func() int { return len(e.srv.RequestsTo("POST", "/webhooks/{webhook_id}/{webhook_token}")) }
	for turn := 1; turn <= 4; turn++ {
		before := posts()
		if !tb.playTurn() {
			t.Fatal("the game ended")
		}
		if err := e.srv.WaitFor("one live board", func() bool { return tb.liveBoards() == 1 }); err != nil {
			t.Fatalf("after turn %d: %d boards with buttons", turn, tb.liveBoards())
		}
		board, _ := tb.board()
		if board.IsComponentsV2() || statusOf(board) == "" {
			t.Fatalf("turn %d: the board after the refusal: flags %d, words %q", turn, board.Flags, board.Body())
		}
		if n := posts() - before; turn > 1 && n > 1 {
			t.Errorf("turn %d: %d follow-ups, want the board's alone (no refused layout first)", turn, n)
		}
	}
	// A channel's post: refused once as V2, then plain at once.
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: "/channels/{channel_id}/messages", Status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body", Times: 1})
	board := commands.Message{IsBoard: true, Content: "Ann claimed Denver – Omaha.", Status: "▶ 🔴 Ann 12 pts | 🔵 Ben 9 pts",
		Files: []commands.File{{Name: "board.png", ContentType: "image/png", Data: pngOf(t), Description: "The map"}}}
	for i := range 2 {
		id, err := e.b.Post(context.Background(), tb.ch.ID, board)
		if err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
		m, _ := e.srv.Message(id)
		if _, pic := m.Attachment("board.png"); m.IsComponentsV2() || !pic || !strings.Contains(m.Content, "> ▶ 🔴 Ann 12 pts") {
			t.Fatalf("post %d: flags %d, picture %v, content %q", i, m.Flags, pic, m.Content)
		}
	}
	if n := strings.Count(logs.String(), "level=WARN msg=\"Discord refused a board laid out as components v2"); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}
}
