// Package local plays Conductor in a terminal: hot-seat players and bots
// type the same commands as in Discord, through the same commands layer.
package local

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"conductor/commands"
	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// Terminal is the transport of a local game: it posts to the screen and
// writes the board picture to a file.
type Terminal struct {
	Service *commands.Service
	Channel string
	// Pictures is the folder the pictures go to (the board after every
	// move, hands, the final sheet), each file named after its picture
	// ("board.png"); "" is the operating system's temporary folder.
	Pictures string
	// Names maps user ids to player names.
	Names map[string]string
	// Humans are the user ids that type at this keyboard, in seat order.
	Humans []string
	// Locale is the language of the players' private replies (the
	// table's public one is chosen when it opens: Setup.Lang).
	Locale string
	// Command is how the player runs the terminal again, as they started
	// it ("conductor play", "go run . play"); "" is "conductor play".
	Command string
	// Watch shows a game of bots alone, turn by turn, without reading
	// the keyboard (play --watch).
	Watch bool
	// NoPictures: the pictures are not written (play --pictures none).
	NoPictures bool

	in  *bufio.Scanner
	out io.Writer

	mu sync.Mutex
	// viewer is the player whose private information may be on screen.
	viewer string
	// prompt is the last private message with controls shown to the
	// viewer, and promptAt the table's version once it was shown: a
	// number or letters go to it while the table has not changed since
	// (see controls). board holds the buttons of the last public board.
	prompt    *commands.Message
	promptAt  uint64
	newPrompt bool
	board     *commands.Message
	// opening: the table is being set up; its lobby is not shown (the
	// seats were chosen on the command line).
	opening bool
	dms     map[string][]commands.Message
	seq     int
	// resumed: the game was resumed, so each player's first turn opens
	// with their hand and any choice left open when the terminal quit.
	resumed map[string]bool
	// gameBoard is the game's board (the help's examples are drawn from
	// it); names reads the commands typed in the terminal's language.
	gameBoard *data.Board
	names     *commandNames
}

// NewTerminal reads commands from in and writes to out.
func NewTerminal(in io.Reader, out io.Writer) *Terminal {
	return &Terminal{in: bufio.NewScanner(in), out: out, dms: map[string][]commands.Message{}, Names: map[string]string{}}
}

// Post shows a public message and saves its pictures.
func (t *Terminal) Post(_ context.Context, channel string, m commands.Message) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	id := fmt.Sprint("local-", t.seq)
	if t.opening {
		return id, nil
	}
	m = t.usable(t.inOwnWords(m))
	if m.BotNext && !t.Watch {
		// A bot plays at once, and its board follows: one board a turn,
		// this one's words alone.
		m.Files, m.Components, m.Status = nil, nil, ""
	}
	t.show(m, "")
	if t.Watch && m.Status != "" {
		fmt.Fprintln(t.out) // a turn a paragraph
	}
	if len(m.Components) > 0 {
		t.board = &m
	}
	return id, nil
}

// DM keeps a private message for its player, shown when they hold the keyboard.
func (t *Terminal) DM(_ context.Context, user string, m commands.Message) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	m = t.usable(t.inOwnWords(m))
	if user == t.viewer {
		t.show(m, t.say("term.private"))
		return nil
	}
	t.dms[user] = append(t.dms[user], m)
	return nil
}

var mentionRE = regexp.MustCompile(`<@([^>]+)>`)

// show prints a message: its text, embeds, pictures and choices.
func (t *Terminal) show(m commands.Message, prefix string) {
	text := mentionRE.ReplaceAllStringFunc(m.Content, func(s string) string {
		id := mentionRE.FindStringSubmatch(s)[1]
		if n, ok := t.Names[id]; ok {
			return "@" + n
		}
		return "@" + id
	})
	text = present.StripMarkdown(text)
	if text != "" {
		fmt.Fprintln(t.out, prefix+text)
	}
	if m.Status != "" {
		fmt.Fprintln(t.out, present.StripMarkdown(m.Status))
	}
	for _, e := range m.Embeds {
		if e.Title != "" {
			fmt.Fprintln(t.out, prefix+"== "+present.StripMarkdown(e.Title)+" ==")
		}
		if e.Description != "" {
			fmt.Fprintln(t.out, present.StripMarkdown(e.Description))
		}
		for _, f := range e.Fields {
			fmt.Fprintf(t.out, "-- %s --\n%s\n", present.StripMarkdown(f.Name), present.StripMarkdown(f.Value))
		}
		if e.Footer != "" {
			fmt.Fprintln(t.out, e.Footer)
		}
	}
	for _, f := range m.Files {
		if t.NoPictures {
			break
		}
		path := filepath.Join(t.pictureDir(), filepath.Base(f.Name))
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			fmt.Fprintln(t.out, t.say("term.write_failed", "path", path, "error", err.Error()))
			continue
		}
		fmt.Fprintln(t.out, t.say("term.written", "path", path))
	}
	t.showComponents(m)
}

// showComponents numbers buttons and letters the options of a menu.
func (t *Terminal) showComponents(m commands.Message) {
	n := 0
	var buttons []string
	for _, row := range m.Components {
		for _, c := range row {
			switch c.Kind {
			case commands.Button:
				n++
				label := strings.TrimSpace(c.Emoji + " " + c.Label)
				if c.Disabled {
					label = "(" + label + ")"
				}
				buttons = append(buttons, fmt.Sprintf("[%d] %s", n, label))
			case commands.Select:
				fmt.Fprintln(t.out, t.say("term.letters", "menu", c.Placeholder, "min", c.Min, "max", c.Max))
				for i, o := range c.Options {
					desc := ""
					if o.Description != "" {
						desc = " — " + o.Description
					}
					fmt.Fprintf(t.out, "  %c) %s%s\n", 'a'+i, o.Label, desc)
				}
			}
		}
	}
	if len(buttons) > 0 {
		fmt.Fprintln(t.out, strings.Join(buttons, "  "))
	}
}

// responder captures the answer to one request.
type responder struct {
	t    *Terminal
	user string
}

func (r *responder) Reply(m commands.Message) error {
	r.t.mu.Lock()
	defer r.t.mu.Unlock()
	m = r.t.usable(r.t.inOwnWords(m))
	if !m.Ephemeral || r.user == r.t.viewer {
		r.t.show(m, "")
	}
	if len(m.Components) > 0 {
		if m.Ephemeral {
			r.t.prompt, r.t.newPrompt = &m, true
		} else {
			r.t.board = &m
		}
	}
	return nil
}

func (r *responder) Update(m commands.Message) error { return r.Reply(m) }
func (r *responder) Ack() error                      { return nil }
func (r *responder) Choices([]commands.Choice) error { return nil }
func (r *responder) FollowUp(m commands.Message) error {
	return r.Reply(m)
}

// say is one of the terminal's own texts in its language, as plain text.
func (t *Terminal) say(key string, kv ...any) string {
	return present.StripMarkdown(present.T(t.Locale, key, kv...))
}

// pictureDir is where the pictures go.
func (t *Terminal) pictureDir() string {
	if t.Pictures == "" {
		return os.TempDir()
	}
	return t.Pictures
}

// request sends one request as a user.
func (t *Terminal) request(req *commands.Request) {
	t.seq++
	req.ID = fmt.Sprint("local-req-", t.seq, "-", time.Now().UnixNano())
	req.Channel = t.Channel
	req.Guild = "local"
	req.UserName = t.Names[req.User]
	req.Locale = t.Locale
	req.CanManage = true
	t.Service.Handle(context.Background(), req, &responder{t: t, user: req.User})
	// The board and the narration follow the reply, before the next prompt.
	t.Service.Quiet()
	// A prompt this request showed is stamped with the table as it stands
	// once everything the request caused was shown: it is live while the
	// table stays so.
	t.mu.Lock()
	fresh := t.newPrompt
	t.newPrompt = false
	t.mu.Unlock()
	if fresh {
		version := t.version(req.User)
		t.mu.Lock()
		t.promptAt = version
		t.mu.Unlock()
	}
}

// version is the table's version as user's page would see it: it changes
// with every move, seat, undo and choice opened or closed; 0 when there
// is no game.
func (t *Terminal) version(user string) uint64 {
	v, err := t.Service.View(t.Channel, user, t.Locale)
	if err != nil {
		return 0
	}
	return v.Version
}

// controls are the buttons and menus a number or letters typed now work:
// the last prompt shown, while the table is as it was when it was shown
// (nothing was played, no choice opened or closed since); else the
// choice the game still asks of the player (tickets to keep, a tunnel to
// pay…), built as the prompt that showed it was, so with the same numbers
// and letters; else the board. An answered prompt is so never the one a
// number goes to: after a ticket choice, 6 is the board's deck again.
func (t *Terminal) controls(user string) *commands.Message {
	v, err := t.Service.View(t.Channel, user, t.Locale)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case err != nil:
	case t.prompt != nil && v.Version == t.promptAt:
		return t.prompt
	case v.Prompt != nil:
		m := t.usable(*v.Prompt)
		t.prompt, t.promptAt = &m, v.Version
		return t.prompt
	}
	t.prompt = nil
	return t.board
}

// Play runs the prompt loop until the game ends, the input ends or a
// player types /quit. The game is saved after every move. At the end it
// returns only once the table has shown everything: the last turns, the
// staged reveal of the final scoring and the score sheet.
func (t *Terminal) Play() error {
	for {
		user, over := t.waitForHuman()
		if over {
			// The final reveal is queued with the last move (a bot's, as
			// often as not): wait until every post of it is shown.
			t.Service.Quiet()
			fmt.Fprintln(t.out, t.say("term.over"))
			if !t.Watch {
				fmt.Fprintln(t.out, t.say("term.again", "command", t.command()))
			}
			return nil
		}
		// The bots' moves before this player's turn are shown first.
		t.Service.Quiet()
		t.handOver(user)
		fmt.Fprintf(t.out, "%s> ", t.Names[user])
		if !t.in.Scan() {
			fmt.Fprintln(t.out, "\n"+t.say("term.saved", "command", t.command()))
			return t.in.Err()
		}
		line := strings.TrimSpace(t.in.Text())
		if t.isQuit(line) {
			fmt.Fprintln(t.out, t.say("term.saved", "command", t.command()))
			return nil
		}
		t.input(user, line)
	}
}

// isQuit: the line asks to save and leave ("/quit", or the word of the
// terminal's language).
func (t *Terminal) isQuit(line string) bool {
	word := strings.TrimPrefix(strings.ToLower(line), "/")
	return word == "quit" || word == "exit" || same(word, present.T(t.Locale, "term.quit_word"))
}

// command is how the player runs the terminal again.
func (t *Terminal) command() string {
	if t.Command == "" {
		return "conductor play"
	}
	return t.Command
}

// waitForHuman waits for bots to move and returns who types next; over
// once the game has ended (its final reveal may still be on its way).
// Watching, nobody types: it waits for the end.
func (t *Terminal) waitForHuman() (user string, over bool) {
	for {
		info, ok := t.Service.Turn(t.Channel)
		if !ok || info.Phase == engine.PhaseOver {
			return "", true
		}
		if len(info.Choosing) > 0 && !t.Watch {
			return info.Choosing[0], false
		}
		if info.Current != "" && !t.Watch {
			return info.Current, false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// handOver asks the previous player to pass the keyboard when hot-seat
// players share it, so that nobody sees another's hand; then shows the new
// player's waiting prompt.
func (t *Terminal) handOver(user string) {
	t.mu.Lock()
	same := t.viewer == user
	t.mu.Unlock()
	if same {
		return
	}
	if len(t.Humans) > 1 {
		fmt.Fprintln(t.out, "\n"+t.say("term.pass", "player", t.Names[user]))
		t.in.Scan()
		fmt.Fprint(t.out, strings.Repeat("\n", 30))
	}
	t.mu.Lock()
	t.viewer = user
	t.prompt = nil
	pending := t.dms[user]
	delete(t.dms, user)
	for _, m := range pending {
		t.show(m, t.say("term.private"))
	}
	t.mu.Unlock()
	info, _ := t.Service.Turn(t.Channel)
	if len(info.Choosing) > 0 {
		// The ticket choice starts with the board's button.
		t.request(&commands.Request{Type: commands.ComponentRequest, User: user, CustomID: "setup:" + info.GameID + ":0:"})
	} else {
		fmt.Fprintln(t.out, t.say("term.your_turn", "player", t.Names[user]))
	}
	if t.resumed[user] {
		delete(t.resumed, user)
		t.request(&commands.Request{Type: commands.CommandRequest, User: user, Name: "hand"})
	}
}

// input runs one typed line.
func (t *Terminal) input(user, line string) {
	switch {
	case line == "":
		// What a number or letters would work now, again.
		if m := t.controls(user); m != nil {
			t.mu.Lock()
			t.showComponents(*m)
			t.mu.Unlock()
		}
	case t.isWord(line, "help") || line == "?":
		fmt.Fprintln(t.out, t.help())
	case t.isWord(line, "hint"):
		// The coach: the expert's move for this player, as /ttr hint.
		t.request(&commands.Request{Type: commands.CommandRequest, User: user, Name: "ttr", Sub: "hint", Options: map[string]string{}})
	case strings.HasPrefix(line, "/") || t.isCommand(line):
		// A command's name is never taken for a prompt's letters:
		// "claim Brest Paris" claims, with or without its slash.
		req, err := t.commandNames().parse(line)
		if err != nil {
			fmt.Fprintln(t.out, present.StripMarkdown(err.Error()))
			return
		}
		if req.Name == "ttr" && req.Sub == "help" {
			fmt.Fprintln(t.out, t.help()) // the terminal's own
			return
		}
		if req.Name == "ttr" && slices.Contains(seatsNotHere, req.Sub) {
			fmt.Fprintln(t.out, t.say("term.not_here", "command", present.CommandText(t.Locale, "ttr", req.Sub), "run", t.command()))
			return
		}
		if req.Name == "ttr" && slices.Contains(discordOnly, req.Sub) {
			fmt.Fprintln(t.out, t.say("term.discord_only", "command", present.CommandText(t.Locale, "ttr", req.Sub)))
			return
		}
		// Everything private is shown here already: no DM to send it to.
		delete(req.Options, "dm")
		req.User = user
		t.request(req)
	default:
		t.choose(user, line)
	}
}

// The subcommands of /ttr a terminal game has no use for: the seats,
// board and language are chosen on the command line, and a server's
// records and turn DMs are Discord's.
var (
	seatsNotHere = []string{"new", "join", "leave", "start", "addbot", "kick"}
	discordOnly  = []string{"stats", "forget", "notify"}
)

// isCommand: the line's first word names a command (in the terminal's
// language or in English), typed without its slash.
func (t *Terminal) isCommand(line string) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	_, ok := t.commandNames().command(fields[0])
	return ok
}

// isWord: the line is one of the terminal's short words ("help", "hint"),
// with or without a slash, in English or as /ttr's subcommand is named in
// the terminal's language ("aide", "conseil").
func (t *Terminal) isWord(line, sub string) bool {
	word := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(line)), "/")
	return word == sub || same(word, present.CommandWord(t.Locale, "opt.ttr."+sub, sub))
}

// commandNames reads commands in the terminal's language.
func (t *Terminal) commandNames() *commandNames {
	if t.names == nil {
		t.names = newCommandNames(t.Locale)
	}
	return t.names
}

// choose clicks a numbered button or picks lettered menu options.
func (t *Terminal) choose(user, line string) {
	m := t.controls(user)
	if m == nil {
		fmt.Fprintln(t.out, t.say("term.nothing", "deck", present.T(t.Locale, "word.deck")))
		return
	}
	var n int
	if _, err := fmt.Sscanf(line, "%d", &n); err == nil {
		k := 0
		for _, row := range m.Components {
			for _, c := range row {
				if c.Kind != commands.Button {
					continue
				}
				k++
				if k == n {
					t.request(&commands.Request{Type: commands.ComponentRequest, User: user, CustomID: c.ID})
					return
				}
			}
		}
		fmt.Fprintln(t.out, t.say("term.no_button", "n", n))
		return
	}
	for _, row := range m.Components {
		for _, c := range row {
			if c.Kind != commands.Select {
				continue
			}
			var values []string
			last := string(rune('a' + len(c.Options) - 1))
			for _, f := range strings.FieldsFunc(strings.ToLower(line), func(r rune) bool { return r == ',' || r == ' ' }) {
				if len(f) != 1 || f[0] < 'a' || int(f[0]-'a') >= len(c.Options) {
					fmt.Fprintln(t.out, t.say("term.bad_letter", "letter", f, "last", last))
					return
				}
				if v := c.Options[f[0]-'a'].Value; !slices.Contains(values, v) {
					values = append(values, v)
				}
			}
			// As Discord's menu does, the count is checked before it is sent.
			if len(values) < c.Min || (c.Max > 0 && len(values) > c.Max) {
				fmt.Fprintln(t.out, t.say("term.letters_count", "min", c.Min, "max", c.Max, "last", last))
				return
			}
			sort.Strings(values)
			t.request(&commands.Request{Type: commands.ComponentRequest, User: user, CustomID: c.ID, Values: values})
			return
		}
	}
	fmt.Fprintln(t.out, t.say("term.how", "deck", present.T(t.Locale, "word.deck")))
}

// help is the terminal's own help, in its language: the commands as
// typed here (the names Discord shows in that language), with examples
// from the game's board, and what the terminal adds (numbers for buttons,
// letters for menus, where the pictures go, how to leave).
func (t *Terminal) help() string {
	loc := t.Locale
	cmd := func(name, sub string) string { return present.CommandText(loc, name, sub) }
	opt := func(key, canonical string) string { return present.CommandWord(loc, "opt."+key, canonical) }
	from, to, city := "Paris", "Frankfurt", "Wien"
	if b := t.gameBoard; b != nil && len(b.Tracks) > 0 {
		tr := &b.Tracks[0]
		from, to, city = b.Cities[tr.A].Name, b.Cities[tr.B].Name, b.Cities[tr.A].Name
	}
	red := present.CardName(loc, engine.ColorCard(data.Red))
	lines := [][2]string{
		{cmd("draw", "") + " 3 · " + cmd("draw", "") + " " + present.T(loc, "word.deck"), "term.help.draw"},
		{cmd("claim", "") + " " + from + " " + to + " " + opt("claim.color", "color") + "=" + red + " " + opt("claim.locomotives", "locomotives") + "=1", "term.help.claim"},
		{cmd("tickets", ""), "term.help.tickets"},
	}
	if t.gameBoard == nil || t.gameBoard.Rules.HasStations() {
		lines = append(lines, [2]string{cmd("station", "") + " " + city + " " + opt("station.color", "color") + "=" + red, "term.help.station"})
	}
	if t.gameBoard == nil || t.gameBoard.Rules.HasPassengers() {
		lines = append(lines, [2]string{cmd("passenger", "") + " " + city + " > …", "term.help.passenger"})
	}
	lines = append(lines,
		[2]string{cmd("hand", "") + " · " + cmd("board", "") + " · " + cmd("score", "") + " · " + cmd("log", ""), "term.help.look"},
		[2]string{cmd("ttr", "rules"), "term.help.rules"},
		[2]string{cmd("ttr", "undo"), "term.help.undo"},
		[2]string{present.CommandWord(loc, "opt.ttr.hint", "hint"), "term.help.hint"},
		[2]string{"1, 2, …", "term.help.click"},
		[2]string{"a,c", "term.help.pick"},
		[2]string{"/" + present.T(loc, "term.quit_word"), "term.help.quit"},
	)
	var sb strings.Builder
	sb.WriteString(t.say("term.help.title"))
	for _, l := range lines {
		fmt.Fprintf(&sb, "\n  %s\n      %s", l[0], t.say(l[1], "command", t.command()))
	}
	sb.WriteString("\n" + t.say("term.help.pictures", "dir", t.pictureDir()))
	return sb.String()
}
