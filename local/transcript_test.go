package local

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"conductor/ai"
	"conductor/data"
	"conductor/internal/testkit"
	"conductor/present"
)

// go test ./local -run TestTerminalPlaysToTheEnd -update writes the
// transcripts of docs/local-transcript.md again.
var update = flag.Bool("update", false, "write docs/local-transcript.md from the games played")

// discordWords are what the terminal must never say, per language: words
// for lists picked from as you type, messages, clicks and lobbies.
var discordWords = map[string][]string{
	"en": {"as you type", "board message", "click", "Join", "per turn", "The host presses"},
	"fr": {"pendant la saisie", "message du plateau", "cliquez", "Rejoindre", "par tour", "L'hôte appuie"},
}

// The French terminal, typed as a person types it, some forty lines
// into a Europe game (tunnels, stations): numbers click the board after a
// ticket menu, one board a bot's turn, a status line with each board, no
// word of Discord's. (TestTerminalPlaysToTheEnd plays a whole game so.)
func TestFrenchTranscript(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	coach, _ := ai.New("easy", 7)
	p := &player{t: t, channel: "local:test", seat: 0, coach: coach, numbers: true, quitAfter: 40,
		asides: []string{"/prendre Pariss Frankfurt", "/rail regles"}}
	tr, err := playEcho(t, filepath.Join(dir, "play.db"), dir, p,
		Setup{Seats: []string{"moi", "easy"}, Map: "europe", Lang: "fr", Given: map[string]bool{"map": true, "players": true, "lang": true}}, &testkit.SyncBuffer{})
	if err != nil {
		t.Fatal(err)
	}
	checkTranscript(t, tr, "moi", "fr", p, false)
	if !strings.Contains(tr, "Vouliez-vous dire Paris – Frankfurt\u202f?") {
		t.Errorf("no French did-you-mean:\n%s", tr)
	}
}

// checkTranscript checks a whole game's transcript against what the
// terminal promises.
func checkTranscript(t *testing.T, tr, name, lang string, p *player, whole bool) {
	t.Helper()
	prompt := name + "> "
	if whole && (!strings.Contains(tr, "🏁") || !strings.HasSuffix(strings.TrimSpace(tr), sayIn(lang, "term.again", "command", "conductor play"))) {
		t.Fatalf("the game did not play to its end:\n%s", tail(tr, 2000))
	}
	// One board a bot's turn: between two lines typed, a board at most.
	turns := strings.Split(tr, "\n"+prompt)
	for i, turn := range turns {
		if n := strings.Count(turn, "board.png]"); n > 1 {
			t.Errorf("%d boards between two lines typed (turn %d):\n%s", n, i, turn)
		}
	}
	// A status line with each board of a turn, pictured (once a round at
	// most) or not.
	status := regexp.MustCompile(`(?m)^(▶ )?🔴 .* \| (▶ )?🔵 `)
	boards, statuses := strings.Count(tr, "board.png]"), len(status.FindAllString(tr, -1))
	if statuses < boards-1 { // the first board is the first tickets'
		t.Errorf("%d status lines for %d board pictures after the first", statuses, boards-1)
	}
	// Numbers click: no number went to an answered prompt, and one was
	// typed right after a ticket choice.
	for _, refusal := range []string{"term.no_button", "term.bad_letter", "term.how", "term.stale"} {
		if found := present.FindMessage(lang, refusal, tr); len(found) > 0 {
			t.Errorf("a number or letters typed were refused: %q", tr[found[0].Start:found[0].End])
		}
	}
	afterTickets := regexp.MustCompile(prompt + `[a-d](,[a-d])*\n(?s:.*?)\n` + prompt + `[1-6]\n`)
	if !afterTickets.MatchString(tr) {
		t.Errorf("no card was drawn by its number right after a ticket choice")
	}
	if p.typed["number"] == 0 || p.typed["letters"] < 2 || p.typed["claim"] < 2 {
		t.Errorf("the game typed too little of each kind: %v", p.typed)
	}
	for _, w := range discordWords[lang] {
		if i := strings.Index(tr, w); i >= 0 {
			t.Errorf("the terminal speaks Discord: %q in …%s…", w, tr[max(0, i-200):min(len(tr), i+100)])
		}
	}
}

func sayIn(lang, key string, kv ...any) string {
	t := NewTerminal(strings.NewReader(""), nil)
	t.Locale = lang
	return t.say(key, kv...)
}

// writeTranscripts writes docs/local-transcript.md: the game typed, and,
// when given, the game watched.
func writeTranscripts(t *testing.T, game, watched string) {
	t.Helper()
	path := filepath.Join("..", "docs", "local-transcript.md")
	old, _ := os.ReadFile(path)
	doc := string(old)
	section := func(marker, body string) {
		begin, end := "<!-- "+marker+" -->\n", "<!-- /"+marker+" -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("%s lacks the markers %q … %q", path, begin, end)
		}
		doc = doc[:i+len(begin)] + "```text\n" + strings.TrimRight(body, "\n") + "\n```\n" + doc[j:]
	}
	if game != "" {
		section("game", game)
	}
	if watched != "" {
		section("watch", watched)
	}
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Println("wrote", path)
}

// watchedGame is `conductor play --watch --players normal,easy --bot-delay
// 300ms --pictures none`, as local.Play runs it: at that pace each turn
// gets its board (bots that move at once outrun the boards, which the
// sender then merges).
func watchedGame(t *testing.T) string {
	t.Helper()
	var out testkit.SyncBuffer
	err := Play(context.Background(), Game{In: strings.NewReader(""), Out: &out, Catalog: data.Embedded(), DB: filepath.Join(t.TempDir(), "play.db"),
		Name: "watch", NoPictures: true, Bots: aiBots, BotDelay: 300 * time.Millisecond, Command: "conductor play",
		Setup: Setup{Watch: true, Fresh: true, Seats: []string{"normal", "easy"}, Map: "usa", Levels: botLevels}})
	if err != nil {
		t.Fatal(err)
	}
	tr := out.String()
	if !strings.Contains(tr, "🏁") || !strings.HasSuffix(tr, "The game is over.\n") {
		t.Fatalf("the watched game did not end:\n%s", tail(tr, 2000))
	}
	return tr
}
