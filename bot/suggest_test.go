package bot_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"conductor/commands"
	"conductor/imaging"
	"conductor/internal/fakediscord"
	"conductor/internal/testkit/sketch"
)

// firstSuggester is a player who, for every command it plays, takes the
// first suggestion autocomplete gives (the route of /claim and its
// passenger, the city of /station, the passenger and trip of /passenger),
// then clicks the first button it is offered (a payment, a tunnel's cards,
// a trip). It claims every turn it can; when a claim does not happen it
// tries, one turn in three, /station (Europe) or /passenger (Märklin), and
// draws cards otherwise.
type firstSuggester struct {
	tb *table
	// taken, refused and explained count first suggestions by command: a
	// refusal is an answer that turns a suggestion down (a rule, a missing
	// card) although it was offered as playable; an explanation answers a
	// suggestion offered as not playable yet (its value starts with "?").
	taken, refused, explained map[string]int
	moves                     map[string]int
	examples                  []string
	failedClaims              int
	// stuck: the player could draw nothing more and took no suggestion.
	stuck bool
	// twins counts lists offering the same line twice.
	twins int
}

func newFirstSuggester(tb *table) *firstSuggester {
	return &firstSuggester{tb: tb, taken: map[string]int{}, refused: map[string]int{}, explained: map[string]int{}, moves: map[string]int{}}
}

// first is the value of the first suggestion, "" when there is none.
func (fs *firstSuggester) first(user, name string, opts ...fakediscord.CommandOption) string {
	fs.tb.interactions++
	choices := fs.tb.e.complete(user, fs.tb.ch.ID, name, opts...)
	seen := map[string]bool{}
	for _, c := range choices {
		if seen[c.Name] {
			fs.twins++
			if fs.twins == 1 {
				fs.tb.e.t.Logf("/%s offers %q twice", name, c.Name)
			}
		}
		seen[c.Name] = true
	}
	if len(choices) == 0 {
		return ""
	}
	v, _ := choices[0].Value.(string)
	return v
}

// settle clicks through what a command's answer asks next (the first
// payment, the tunnel's cards, the first trip) and reports whether the turn
// moved on; when it did not, the answer counts as refused or explained.
func (fs *firstSuggester) settle(cmd, value string, cur fakediscord.User, b fakediscord.Message, a answer) bool {
	tb, e := fs.tb, fs.tb.e
	fs.taken[cmd]++
	if !a.msg.Ephemeral() {
		e.t.Fatalf("the answer to /%s is public: %q", cmd, a.msg.Body())
	}
	for _, prefix := range []string{"pay:", "trip:"} {
		if id := button(a.msg, prefix, ""); id != "" && !strings.HasSuffix(id, ":cancel") {
			a = tb.do(e.click(cur.ID, a.msg.ID, id))
		}
	}
	if pay := button(a.msg, "tunnel:", ""); pay != "" && !tb.turnMoved(b) {
		if p := button(a.msg, "tunnel:", "pay0"); p != "" {
			pay = p
		}
		tb.do(e.click(cur.ID, a.msg.ID, pay))
		if !tb.turnMoved(b) {
			e.t.Fatal("the tunnel was answered but the turn did not move on")
		}
	}
	if tb.turnMoved(b) {
		fs.moves[cmd]++
		return true
	}
	if strings.HasPrefix(value, "?") && !strings.HasPrefix(a.msg.Body(), "⛔") {
		fs.explained[cmd]++
		if fs.explained[cmd] == 1 {
			e.t.Logf("/%s %q explained: %q", cmd, value, a.msg.Body())
		}
		return false
	}
	fs.refused[cmd]++
	if len(fs.examples) < 5 {
		fs.examples = append(fs.examples, fmt.Sprintf("/%s %q → %q", cmd, value, a.msg.Body()))
	}
	return false
}

// turn plays the current person's turn; false once the game is over.
func (fs *firstSuggester) turn(stations, passengers bool) bool {
	tb, e := fs.tb, fs.tb.e
	var b fakediscord.Message
	ok := false
	if err := e.srv.WaitFor("a board or the end", func() bool {
		b, ok = tb.board()
		return ok || tb.over()
	}); err != nil {
		e.t.Fatal("no board")
	}
	if !ok {
		return false
	}
	cur, ok := tb.user(lastMention(b.Body()))
	if !ok {
		e.t.Fatalf("the board names no player to play: %q", b.Body())
	}
	route := fs.first(cur.ID, "claim", fakediscord.Focused(fakediscord.StringOption("route", "")))
	if route != "" {
		opts := []fakediscord.CommandOption{fakediscord.StringOption("route", route)}
		if passengers {
			if p := fs.first(cur.ID, "claim", fakediscord.StringOption("route", route), fakediscord.Focused(fakediscord.StringOption("passenger", ""))); p != "" {
				opts = append(opts, fakediscord.StringOption("passenger", p))
			}
		}
		if fs.settle("claim", route, cur, b, tb.do(e.run(cur.ID, tb.ch.ID, "claim", opts...))) {
			return !tb.over()
		}
		fs.failedClaims++
	}
	if fs.failedClaims%3 == 1 {
		switch {
		case stations:
			if city := fs.first(cur.ID, "station", fakediscord.Focused(fakediscord.StringOption("city", ""))); city != "" {
				if fs.settle("station", city, cur, b, tb.do(e.run(cur.ID, tb.ch.ID, "station", fakediscord.StringOption("city", city)))) {
					return !tb.over()
				}
			}
		case passengers:
			if from := fs.first(cur.ID, "passenger", fakediscord.Focused(fakediscord.StringOption("from", ""))); from != "" {
				opts := []fakediscord.CommandOption{fakediscord.StringOption("from", from)}
				if !strings.HasPrefix(from, "?") {
					if path := fs.first(cur.ID, "passenger", fakediscord.StringOption("from", from), fakediscord.Focused(fakediscord.StringOption("path", ""))); path != "" {
						opts = append(opts, fakediscord.StringOption("path", path))
					}
				}
				if fs.settle("passenger", from, cur, b, tb.do(e.run(cur.ID, tb.ch.ID, "passenger", opts...))) {
					return !tb.over()
				}
			}
		}
	}
	if !fs.draw(cur, b) {
		fs.stuck = true
		return false
	}
	if !tb.turnMoved(b) {
		e.t.Fatalf("%s drew but the turn did not move on", cur.Username)
	}
	return !tb.over()
}

// draw takes two cards, or tickets when no card is left (on Märklin
// saying first how many long ones: the first number the rules accept). It
// returns false when there is nothing left to draw.
func (fs *firstSuggester) draw(cur fakediscord.User, b fakediscord.Message) bool {
	tb, e := fs.tb, fs.tb.e
	if button(b, "draw:", "") != "" {
		tb.draw(cur, b)
		return true
	}
	tb.stats.TicketDraws++
	a := tb.do(e.click(cur.ID, b.ID, button(b, "tickets:", "")))
	var mixes []string
	a.msg.Walk(func(c fakediscord.Component) {
		if strings.HasPrefix(c.CustomID, "mix:") && !c.Disabled {
			mixes = append(mixes, c.CustomID)
		}
	})
	prompt := a.msg.ID
	for _, mix := range mixes {
		if a = tb.do(e.click(cur.ID, prompt, mix)); !strings.HasPrefix(a.msg.Body(), "⛔") {
			break
		}
	}
	if strings.HasPrefix(a.msg.Body(), "⛔") {
		e.t.Logf("%s can draw nothing: %q", cur.Username, a.msg.Body())
		return false
	}
	tb.keepFewest(cur, a)
	return true
}

// threadCounts is what a game put in its thread and in private: board
// pictures posted, bytes of every picture, public and private messages.
type threadCounts struct {
	boards, public, private, pictures int
	bytes                             int
}

func (tb *table) counts() threadCounts {
	var c threadCounts
	seen := map[string]bool{}
	add := func(m fakediscord.Message) {
		for _, a := range m.Attachments {
			if !seen[a.ID] {
				seen[a.ID] = true
				c.pictures++
				c.bytes += len(a.Data)
			}
		}
	}
	for _, m := range tb.e.srv.Messages(tb.ch.ID) {
		if m.Public() {
			c.public++
			if isBoardPost(m) {
				c.boards++
			}
		} else {
			c.private++
		}
		add(m)
	}
	for _, p := range tb.players {
		if dm, ok := tb.e.srv.DMChannel(p.ID); ok {
			for _, m := range tb.e.srv.Messages(dm.ID) {
				c.private++
				add(m)
			}
		}
	}
	return c
}

// TestFirstSuggestionIsNeverRefused plays a whole game each in English
// (USA), French (Europe) and German (Märklin), two people a table, each
// taking the first suggestion of every command it plays: no first
// suggestion is refused. Suggestions that say they cannot be played yet
// are answered with an explanation. The log gives, per game, what the
// thread and the private replies held; with CONDUCTOR_REAL_PICTURES=1 the
// pictures are drawn for real and their megabytes are worth quoting (by
// default a 1×1 stand-in keeps the test cheap).
func TestFirstSuggestionIsNeverRefused(t *testing.T) {
	var r commands.Renderer = &sketch.Renderer{}
	realPictures := os.Getenv("CONDUCTOR_REAL_PICTURES") != ""
	if realPictures {
		r = imaging.NewRenderer()
	}
	e := newEnv(t, envOptions{pictures: r})
	for _, c := range []struct{ locale, lang, mapID, variant string }{
		{"en-US", "en", "usa", ""}, {"fr", "fr", "europe", "classic"}, {"de", "de", "marklin", ""},
	} {
		t.Run(c.lang+"-"+c.mapID, func(t *testing.T) {
			t.Parallel()
			tb := openTable(e.as(t), "first-"+c.mapID, c.mapID, c.variant, c.locale, c.lang, "", c.mapID+"-ada", c.mapID+"-bo")
			tb.setup()
			fs := newFirstSuggester(tb)
			turns := 0
			for fs.turn(c.mapID == "europe", c.mapID == "marklin") {
				if turns++; turns > 600 {
					t.Fatal("the game does not end")
				}
			}
			n := tb.counts()
			if !tb.over() {
				t.Errorf("the game did not end: stuck after %d turns", turns)
			}
			t.Logf("%s %s: %d turns; first suggestions taken %v, moves %v, refused %v, explained %v; lines offered twice %d; draws %d, ticket draws %d",
				c.lang, c.mapID, turns, fs.taken, fs.moves, fs.refused, fs.explained, fs.twins, tb.stats.Draws, tb.stats.TicketDraws)
			t.Logf("%s %s: %d board pictures, %d pictures, %.2f MB of PNG (drawn for real: %v), %d public messages, %d private messages",
				c.lang, c.mapID, n.boards, n.pictures, float64(n.bytes)/1e6, realPictures, n.public, n.private)
			for _, ex := range fs.examples {
				t.Logf("refused: %s", ex)
			}
			total := 0
			for _, v := range fs.refused {
				total += v
			}
			if total > 0 {
				t.Errorf("%d first suggestions refused: %v", total, fs.refused)
			}
			if fs.twins > 0 {
				t.Errorf("%d lists offered the same line twice", fs.twins)
			}
			if fs.moves["claim"] < 10 {
				t.Errorf("only %d claims from first suggestions: the game proves little", fs.moves["claim"])
			}
			if own := map[string]string{"europe": "station", "marklin": "passenger"}[c.mapID]; own != "" && fs.taken[own] == 0 {
				t.Errorf("the %s game never took a first suggestion of /%s", c.mapID, own)
			}
			e.srv.CheckClean(t)
		})
	}
}
