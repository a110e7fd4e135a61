package bot_test

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
	"conductor/internal/testkit"
	"conductor/present"
)

const emojiRoute = "/applications/{application_id}/emojis"

// emojiRequests counts the requests to the application emoji routes since seq (by method).
func emojiRequests(srv *fakediscord.Server, since int) (lists, creates int) {
	for _, r := range srv.Requests() {
		if r.Seq <= since || r.Route != emojiRoute {
			continue
		}
		switch r.Method {
		case http.MethodGet:
			lists++
		case http.MethodPost:
			creates++
		}
	}
	return lists, creates
}

// ids are the application's emojis' ids by name.
func appEmojiIDs(srv *fakediscord.Server) map[string]string {
	ids := map[string]string{}
	for _, e := range srv.AppEmojis() {
		ids[e.Name] = e.ID
	}
	return ids
}

// cardOfEmoji is the set's emoji of a stand-in.
func setEmoji(unicode string) present.AppEmoji {
	for _, e := range present.AppEmojis() {
		if e.Unicode == unicode {
			return e
		}
	}
	return present.AppEmoji{}
}

var mention = regexp.MustCompile(`<:(ttr_[a-z0-9]+_[0-9a-f]{6}):(\d+)>`)

// The first start uploads the whole set with the pictures present drew; the board's card
// buttons and Tickets button, the narration and a hand then carry the application's emojis
// (the fake refuses an emoji id the application lacks); a second start lists the emojis once
// and uploads nothing.
func TestApplicationEmojisUploadedOnceAndShown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	set := present.AppEmojis()
	ids := appEmojiIDs(e.srv)
	if len(ids) != len(set) || e.b.EmojisCreated() != len(set) {
		t.Fatalf("%d emojis in the application, %d created, want %d", len(ids), e.b.EmojisCreated(), len(set))
	}
	for _, em := range e.srv.AppEmojis() {
		if !bytes.Equal(em.Image, setEmoji(unicodeOf(set, em.Name)).PNG) || em.ContentType != "image/png" {
			t.Errorf("%s: not the set's picture", em.Name)
		}
	}
	if lists, creates := emojiRequests(e.srv, 0); lists != 1 || creates != len(set) {
		t.Errorf("first start: %d lists, %d creates; want 1 and %d", lists, creates, len(set))
	}

	tb := startedTable(t, e, "table")
	board, _ := tb.board()
	cards, tickets := 0, 0
	board.Walk(func(c fakediscord.Component) {
		if c.Emoji == nil || !strings.HasPrefix(c.CustomID, "draw:") && !strings.HasPrefix(c.CustomID, "tickets:") {
			return
		}
		if strings.HasSuffix(strings.SplitN(c.CustomID, "@", 2)[0], ":deck") {
			return // the deck has no picture of its own
		}
		if c.Emoji.ID == "" || ids[c.Emoji.Name] != c.Emoji.ID {
			t.Errorf("button %s: emoji %+v is not one of the application's", c.CustomID, *c.Emoji)
		}
		if strings.HasPrefix(c.CustomID, "tickets:") {
			tickets++
			if !strings.HasPrefix(c.Emoji.Name, "ttr_ticket_") {
				t.Errorf("the Tickets button shows %s", c.Emoji.Name)
			}
		} else {
			cards++
		}
	})
	if cards != 5 || tickets != 1 {
		t.Errorf("%d face-up card buttons and %d ticket buttons with custom emojis, want 5 and 1", cards, tickets)
	}
	// The narration of the tickets kept (🎫) reads with the ticket's picture.
	found := false
	for _, m := range e.srv.Messages(tb.ch.ID) {
		found = found || strings.Contains(m.Body(), "<:ttr_ticket_")
		if strings.Contains(m.Body(), present.TicketEmoji) {
			t.Errorf("a public message still writes %s: %q", present.TicketEmoji, m.Body())
		}
	}
	if !found {
		t.Error("no public message shows the ticket's emoji")
	}
	// A hand: its cards and tickets with the application's emojis, no stand-in left.
	p := tb.players[0]
	hand := e.run(p.ID, tb.ch.ID, "hand")
	text := ""
	for _, f := range hand.msg.Text() {
		text += f.Text + "\n"
	}
	got := mention.FindAllStringSubmatch(text, -1)
	if len(got) == 0 {
		t.Fatalf("the hand shows no application emoji: %q", text)
	}
	for _, m := range got {
		if ids[m[1]] != m[2] {
			t.Errorf("the hand shows %s, not an emoji of the application", m[0])
		}
	}
	for _, em := range set {
		if strings.Contains(text, em.Unicode) {
			t.Errorf("the hand still shows %s", em.Unicode)
		}
	}
	if !strings.Contains(text, "<:ttr_ticket_") {
		t.Errorf("the hand's tickets have no ticket emoji: %q", text)
	}

	seq := len(e.srv.Requests())
	e.restart()
	if lists, creates := emojiRequests(e.srv, seq); lists != 1 || creates != 0 {
		t.Errorf("second start: %d lists, %d creates; want 1 and 0", lists, creates)
	}
	if e.b.EmojisCreated() != 0 || len(e.srv.AppEmojis()) != len(set) {
		t.Errorf("second start created %d; the application has %d", e.b.EmojisCreated(), len(e.srv.AppEmojis()))
	}
	// After the restart the emojis are known without uploading: the next board has them.
	before, next := tb.drawTurn()
	tb.oneBoardFollows(before, next)
	latest, _ := tb.board()
	if !strings.Contains(string(latest.RawComponents), `"id":"`+ids[setEmoji(present.TicketEmoji).Name]+`"`) {
		t.Errorf("after the restart the board's Tickets button has no custom emoji: %s", latest.RawComponents)
	}
	e.srv.CheckClean(t)
}

func unicodeOf(set []present.AppEmoji, name string) string {
	for _, e := range set {
		if e.Name == name {
			return e.Unicode
		}
	}
	return ""
}

// When Discord refuses the uploads (no access, an outage, the application's 2,000 emojis),
// the bot says so once at warn level, keeps serving, and its messages keep the Unicode
// stand-ins, on buttons too.
func TestRefusedEmojiUploadKeepsUnicode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		prepare func(*fakediscord.Server)
	}{
		{"403", func(s *fakediscord.Server) {
			s.InjectFault(fakediscord.Fault{Method: "POST", Route: emojiRoute, Status: 403, Code: 50013, Message: "Missing Permissions"})
		}},
		{"503", func(s *fakediscord.Server) {
			s.InjectFault(fakediscord.Fault{Method: "POST", Route: emojiRoute, Status: 503, Message: "Service Unavailable"})
		}},
		{"2000 emojis", func(s *fakediscord.Server) {
			for i := range 2000 {
				s.AddAppEmoji("someone_elses_" + strings.Repeat("x", i%5) + itoa(i))
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var logs testkit.SyncBuffer
			e := newEnv(t, envOptions{prepare: c.prepare, logs: &logs})
			if n := e.b.EmojisCreated(); n != 0 {
				t.Fatalf("%d created", n)
			}
			if n := strings.Count(logs.String(), "level=WARN msg=\"uploading the application emojis"); n != 1 {
				t.Errorf("%d warnings about the upload, want 1:\n%s", n, logs.String())
			}
			if _, creates := emojiRequests(e.srv, 0); creates > 2 {
				t.Errorf("%d creates after a refusal: the bot went on asking", creates)
			}
			tb := startedTable(t, e, "table")
			board, _ := tb.board()
			board.Walk(func(c fakediscord.Component) {
				if c.Emoji != nil && c.Emoji.ID != "" {
					t.Errorf("button %s has a custom emoji %+v", c.CustomID, *c.Emoji)
				}
			})
			if !strings.Contains(string(board.RawComponents), `"name":"`+present.TicketEmoji+`"`) {
				t.Errorf("the Tickets button lost its Unicode emoji: %s", board.RawComponents)
			}
			for _, m := range e.srv.Messages(tb.ch.ID) {
				if strings.Contains(m.Body(), "<:ttr_") {
					t.Errorf("a message shows a custom emoji: %q", m.Body())
				}
			}
		})
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// Two processes of a fleet (a shard each) start at once and both find the application
// without emojis: each name ends up created once, the process refused as a duplicate reads
// the emoji back, and both show the same emoji.
func TestFleetStartingAtOnceMakesOneEmojiPerName(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.Options{RecommendedShards: 2, IdentifyInterval: 10 * time.Millisecond})
	guild := srv.CreateGuild("Rail Club")
	ch := srv.CreateTextChannel(guild.ID, "table")
	// Both lists answer empty before either process creates anything.
	srv.InjectFault(fakediscord.Fault{Method: "GET", Route: emojiRoute, Times: 2, Delay: 300 * time.Millisecond})
	var bots []*bot.Bot
	var wg sync.WaitGroup
	for shard := range 2 {
		b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), GuildID: guild.ID,
			Commands: commands.Definitions(data.Embedded().IDs()), Logger: logger(), ShardCount: 2,
			Shards: &bot.ShardRange{From: shard, To: shard}, IdentifyInterval: 10 * time.Millisecond, Emojis: present.AppEmojis()})
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.Start(context.Background(), noHandler{}); err != nil {
				t.Error(err)
			}
		}()
		t.Cleanup(func() { b.Close() })
	}
	wg.Wait()
	for _, b := range bots {
		select {
		case <-b.EmojisSettled():
		case <-time.After(60 * time.Second):
			t.Fatal("the emojis did not settle")
		}
	}
	set := present.AppEmojis()
	names := map[string]int{}
	for _, em := range srv.AppEmojis() {
		names[em.Name]++
	}
	for _, em := range set {
		if names[em.Name] != 1 {
			t.Errorf("%s: %d in the application", em.Name, names[em.Name])
		}
	}
	if len(names) != len(set) {
		t.Errorf("%d names in the application, want %d", len(names), len(set))
	}
	a, b := bots[0].EmojisCreated(), bots[1].EmojisCreated()
	t.Logf("created: %d and %d", a, b)
	if a+b != len(set) {
		t.Errorf("the processes created %d and %d, want %d in all", a, b, len(set))
	}
	// Both write the same emoji for the same stand-in.
	var contents []string
	for _, b := range bots {
		id, err := b.Post(context.Background(), ch.ID, commands.Message{Content: "kept " + present.TicketEmoji})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := srv.Message(id)
		contents = append(contents, m.Content)
	}
	if contents[0] != contents[1] || !mention.MatchString(contents[0]) {
		t.Errorf("the processes write %q and %q", contents[0], contents[1])
	}
}

type noHandler struct{}

func (noHandler) Handle(context.Context, *commands.Request, commands.Responder) {}
