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
	"sort"
	"strings"
	"sync"
	"time"

	"conductor/commands"
	"conductor/present"
)

// Terminal is the transport of a local game: it posts to the screen and
// writes the board picture to a file.
type Terminal struct {
	Service *commands.Service
	Channel string
	// BoardPath is where the board PNG is written after every move.
	BoardPath string
	// Names maps user ids to player names.
	Names map[string]string
	// Humans are the user ids that type at this keyboard, in seat order.
	Humans []string
	// Locale is the language of the players' private replies (the
	// table's public one is chosen when it opens: Setup.Lang).
	Locale string

	in  *bufio.Scanner
	out io.Writer

	mu sync.Mutex
	// viewer is the player whose private information may be on screen.
	viewer string
	// prompt is the last message with components shown to the viewer;
	// board holds the buttons of the last public board.
	prompt *commands.Message
	board  *commands.Message
	dms    map[string][]commands.Message
	seq    int
	// resumed: the game was resumed, so each player's first turn opens
	// with their hand and any choice left open when the terminal quit.
	resumed map[string]bool
}

// NewTerminal reads commands from in and writes to out.
func NewTerminal(in io.Reader, out io.Writer) *Terminal {
	return &Terminal{in: bufio.NewScanner(in), out: out, dms: map[string][]commands.Message{}, Names: map[string]string{}}
}

// Post shows a public message and saves its pictures.
func (t *Terminal) Post(channel string, m commands.Message) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	t.show(m, "")
	if len(m.Components) > 0 {
		mm := m
		t.board = &mm
	}
	return fmt.Sprint("local-", t.seq), nil
}

// DM keeps a private message for its player, shown when they hold the keyboard.
func (t *Terminal) DM(user string, m commands.Message) error {
	t.mu.Lock()
	defer t.mu.Unlock()
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
		path := t.BoardPath
		if f.Name != "board.png" {
			path = filepath.Join(filepath.Dir(t.BoardPath), f.Name)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			fmt.Fprintf(t.out, "(could not write %s: %v)\n", path, err)
			continue
		}
		fmt.Fprintf(t.out, "[picture written to %s]\n", path)
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
	if !m.Ephemeral || r.user == r.t.viewer {
		r.t.show(m, "")
	}
	if len(m.Components) > 0 {
		mm := m
		if m.Ephemeral {
			r.t.prompt = &mm
		} else {
			r.t.board = &mm
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

// say is one of the terminal's own texts in its language.
func (t *Terminal) say(key string, kv ...any) string {
	return present.T(t.Locale, key, kv...)
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
}

// Play runs the prompt loop until the game ends, the input ends or a
// player types /quit. The game is saved after every move.
func (t *Terminal) Play() error {
	for {
		user, over := t.waitForHuman()
		if over {
			fmt.Fprintln(t.out, t.say("term.over"))
			return nil
		}
		t.handOver(user)
		fmt.Fprintf(t.out, "%s> ", t.Names[user])
		if !t.in.Scan() {
			fmt.Fprintln(t.out, "\n"+t.say("term.saved"))
			return t.in.Err()
		}
		line := strings.TrimSpace(t.in.Text())
		if line == "/quit" || line == "quit" || line == "exit" {
			fmt.Fprintln(t.out, t.say("term.saved"))
			return nil
		}
		t.input(user, line)
	}
}

// waitForHuman waits for bots to move and returns who types next.
func (t *Terminal) waitForHuman() (user string, over bool) {
	for i := 0; ; i++ {
		info, ok := t.Service.Turn(t.Channel)
		if !ok {
			return "", true
		}
		if len(info.Choosing) > 0 {
			return info.Choosing[0], false
		}
		if info.Current != "" {
			return info.Current, false
		}
		if info.Phase == 5 { // engine.PhaseOver: the final reveal is being posted
			return "", true
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
		t.mu.Lock()
		if t.prompt != nil {
			t.showComponents(*t.prompt)
		} else if t.board != nil {
			t.showComponents(*t.board)
		}
		t.mu.Unlock()
	case line == "/help" || line == "help":
		fmt.Fprintln(t.out, helpText)
	case line == "hint" || line == "/hint":
		// The coach: the expert's move for this player, as /ttr hint.
		t.request(&commands.Request{Type: commands.CommandRequest, User: user, Name: "ttr", Sub: "hint", Options: map[string]string{}})
	case strings.HasPrefix(line, "/"):
		req, err := parseCommand(line)
		if err != nil {
			fmt.Fprintln(t.out, err)
			return
		}
		req.User = user
		t.request(req)
	default:
		t.choose(user, line)
	}
}

// choose clicks a numbered button or picks lettered menu options.
func (t *Terminal) choose(user, line string) {
	t.mu.Lock()
	m := t.prompt
	if m == nil {
		m = t.board
	}
	t.mu.Unlock()
	if m == nil {
		fmt.Fprintln(t.out, t.say("term.nothing"))
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
			for _, f := range strings.FieldsFunc(strings.ToLower(line), func(r rune) bool { return r == ',' || r == ' ' }) {
				if len(f) != 1 || f[0] < 'a' || int(f[0]-'a') >= len(c.Options) {
					fmt.Fprintf(t.out, "%q is not one of the letters a to %c.\n", f, 'a'+len(c.Options)-1)
					return
				}
				values = append(values, c.Options[f[0]-'a'].Value)
			}
			sort.Strings(values)
			t.request(&commands.Request{Type: commands.ComponentRequest, User: user, CustomID: c.ID, Values: values})
			return
		}
	}
	fmt.Fprintln(t.out, t.say("term.how"))
}

const helpText = `Commands (as in Discord):
  /draw 3 | /draw deck       take a face-up card (1-5) or draw blind
  /claim Paris Frankfurt [color=red] [locos=1] [passenger=Paris]
  /tickets [long=2]          draw destination tickets (Märklin: how many long)
  /station Wien [color=red] [locos=1]
  /passenger Berlin [> Leipzig > Dresden]
  /hand  /board  /score  /log  /ttr rules [topic]  /ttr undo
  hint                       the expert's move for you, and why
  1, 2, …                    click a button shown;  a,c  pick menu options
  /quit                      save and leave (run conductor play again to resume)`
