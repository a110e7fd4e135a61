package local

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"conductor/commands"
	"conductor/data"
	"conductor/present"
	"conductor/store"
)

// Setup says which game a terminal plays: the saved game of that name, or
// a new one with these seats.
type Setup struct {
	// Fresh abandons the saved game of that name and starts a new one.
	Fresh bool
	// Seats holds a name for each person at the keyboard and a bot level
	// for each bot, in seat order.
	Seats        []string
	Map, Variant string
	// Lang is the table's language (en, fr, it, de); "" is English.
	Lang string
	// Levels are the bot levels a seat may name.
	Levels []string
	// Given names the flags the player typed ("map", "variant", "players"):
	// a saved game is resumed only when it is the game they asked for.
	Given map[string]bool
	// Watch seats bots alone (Seats are all levels), for a game shown
	// turn by turn.
	Watch bool
}

// SetupError is a problem with the seats or the board asked for: the
// player fixes it by asking differently.
type SetupError struct{ msg string }

func (e *SetupError) Error() string { return e.msg }

func badSetup(format string, args ...any) error {
	return &SetupError{fmt.Sprintf(format, args...)}
}

// ErrNothingStarted is Open's answer when the saved game is over and the
// player chose not to start another like it: nothing is left to play.
var ErrNothingStarted = errors.New("local: no game was started")

// Open resumes the terminal's saved game (t.Channel in st), or, when there
// is none or s.Fresh, ends it and starts a new one with s's seats. When the
// saved game is over and the player asked for no other (no --new, --map,
// --variant or --players), it offers a new game with the same settings and
// starts nothing else: ErrNothingStarted when they decline. The
// terminal's Service must be set.
func (t *Terminal) Open(ctx context.Context, st *store.Store, s Setup) error {
	info, saved := t.Service.Turn(t.Channel)
	if saved && (s.Fresh || info.Lobby) {
		t.endSaved(ctx)
		saved = false
	}
	if !saved {
		if !s.Fresh && !s.Given["map"] && !s.Given["variant"] && !s.Given["players"] {
			if last := lastFinished(st, t.Channel); last != nil {
				t.speak(last, s)
				if !t.offerSame(last) {
					fmt.Fprintln(t.out, t.say("term.nothing_started"))
					return ErrNothingStarted
				}
				s = sameSettings(last, s)
			}
		}
		return t.newGame(ctx, s)
	}
	rec, err := st.Get(t.Channel)
	if err != nil {
		return err
	}
	if err := s.matches(rec, strings.TrimPrefix(t.Channel, "local:")); err != nil {
		return err
	}
	t.speak(rec, s)
	if b, err := t.Service.Board(rec.Map); err == nil {
		t.gameBoard = b
	}
	t.resumed = map[string]bool{}
	for _, seat := range rec.Seats {
		if seat.Bot == "" {
			t.Names[seat.UserID] = seat.Name
			t.Humans = append(t.Humans, seat.UserID)
			t.resumed[seat.UserID] = true
		}
	}
	board := rec.Map
	if b, err := t.Service.Board(rec.Map); err == nil {
		board = present.EditionName(t.Locale, b, rec.Variant)
	}
	fmt.Fprintln(t.out, t.say("term.resuming", "game", strconv.Quote(strings.TrimPrefix(t.Channel, "local:")), "board", board))
	if !t.NoPictures {
		fmt.Fprintln(t.out, t.say("term.pictures", "dir", t.pictureDir()))
	}
	return nil
}

// speak makes the terminal speak a saved game's language, unless the
// player asked for one (--lang).
func (t *Terminal) speak(rec *store.GameRecord, s Setup) {
	if l := rec.Options["locale"]; l != "" && !s.Given["lang"] {
		t.Locale = l
		t.names = nil
	}
}

// lastFinished is the terminal's last game played to its end, nil when
// there is none.
func lastFinished(st *store.Store, channel string) *store.GameRecord {
	entries, err := st.Archived("local")
	if err != nil {
		return nil
	}
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.Channel == channel && e.Status == store.StatusFinished {
			rec, err := st.ArchivedGame(e.Key)
			if err != nil {
				return nil
			}
			return rec
		}
	}
	return nil
}

// offerSame says the saved game is over and asks whether to start a new
// one with its settings; an empty answer is yes, the end of the input no.
func (t *Terminal) offerSame(rec *store.GameRecord) bool {
	board := rec.Map
	if b, err := t.Service.Board(rec.Map); err == nil {
		board = present.EditionName(t.Locale, b, rec.Variant)
	}
	var names []string
	for _, st := range rec.Seats {
		p := present.Player{Name: st.Name}
		if st.Bot != "" && !st.TakenOver() {
			p = present.Player{Name: present.BotBaseName(st.Name, st.Bot), Bot: true, Level: st.Bot}
		}
		names = append(names, present.PlayerLabel(t.Locale, p))
	}
	fmt.Fprintln(t.out, t.say("term.finished", "game", strconv.Quote(strings.TrimPrefix(t.Channel, "local:")), "board", board, "players", strings.Join(names, ", ")))
	fmt.Fprint(t.out, t.say("term.ask_same"))
	if !t.in.Scan() {
		fmt.Fprintln(t.out)
		return false
	}
	answer := data.Fold(strings.TrimSpace(t.in.Text()))
	if answer == "" {
		return true
	}
	for _, w := range strings.Split(present.T(t.Locale, "term.yes_words"), ",") {
		if answer == data.Fold(strings.TrimSpace(w)) {
			return true
		}
	}
	return answer == "y" || answer == "yes"
}

// sameSettings is s with a finished game's board, language and seats (a
// person at the keyboard for each person's seat, whoever finished it; the
// level of each bot).
func sameSettings(rec *store.GameRecord, s Setup) Setup {
	s.Seats = nil
	for _, st := range rec.Seats {
		if st.Bot != "" && !st.TakenOver() {
			s.Seats = append(s.Seats, st.Bot)
		} else {
			s.Seats = append(s.Seats, st.Name)
		}
	}
	s.Map, s.Variant = rec.Map, rec.Variant
	if l := rec.Options["locale"]; l != "" {
		s.Lang = l
	}
	return s
}

// matches refuses to resume a saved game that differs from what the
// player's flags ask for: silently playing another board or other seats
// would surprise them; --new (or another --game) says what they mean.
func (s Setup) matches(rec *store.GameRecord, name string) error {
	var seats []string
	for _, st := range rec.Seats {
		if st.Bot != "" {
			seats = append(seats, st.Bot)
		} else {
			seats = append(seats, st.Name)
		}
	}
	var asked []string
	for _, seat := range s.Seats {
		asked = append(asked, strings.TrimSpace(seat))
	}
	differs := (s.Given["map"] && s.Map != rec.Map) ||
		(s.Given["variant"] && s.Variant != "" && s.Variant != rec.Variant) ||
		(s.Given["players"] && !slices.Equal(asked, seats))
	if !differs {
		return nil
	}
	what := rec.Map
	if rec.Variant != "" {
		what += " (" + rec.Variant + ")"
	}
	return badSetup("the saved game %q is a %s game with %s; add --new to replace it with the game you asked for, or --game OTHER_NAME to keep both",
		name, what, strings.Join(seats, ", "))
}

// endSaved ends the saved game of the terminal's channel, as its host.
func (t *Terminal) endSaved(ctx context.Context) {
	t.Names["local:host"] = "host"
	req := &commands.Request{Type: commands.CommandRequest, ID: fmt.Sprint("local-end-", time.Now().UnixNano()), Channel: t.Channel,
		Guild: "local", User: "local:host", CanManage: true, Name: "ttr", Sub: "end"}
	c := &commands.Recorder{}
	t.Service.Handle(ctx, req, c)
	// A running game asks how to end: --new stops it without a score.
	a, _ := c.Answer()
	for _, row := range a.Message.Components {
		for _, b := range row {
			if strings.HasPrefix(b.ID, "end:") && strings.HasSuffix(b.ID, ":stop") {
				click := &commands.Request{Type: commands.ComponentRequest, ID: fmt.Sprint("local-stop-", time.Now().UnixNano()), Channel: t.Channel,
					Guild: "local", User: "local:host", CanManage: true, CustomID: b.ID}
				t.Service.Handle(ctx, click, &commands.Recorder{})
			}
		}
	}
}

// newGame opens a table, seats the players and bots, and starts.
func (t *Terminal) newGame(ctx context.Context, s Setup) error {
	seats := s.Seats
	if len(seats) < 2 || len(seats) > 5 {
		return badSetup("--players needs 2 to 5 seats, e.g. --players alice,bob or --players you,hard")
	}
	var humans []string
	bots := 0
	for _, seat := range seats {
		seat = strings.TrimSpace(seat)
		if seat == "" {
			return badSetup("--players has an empty seat")
		}
		if slices.Contains(s.Levels, seat) {
			bots++
			continue
		}
		if s.Watch {
			return badSetup("--watch seats bots alone: give bot levels only (%s), e.g. --players hard,normal", strings.Join(s.Levels, ", "))
		}
		id := "local:" + seat
		if t.Names[id] != "" {
			return badSetup("two players are called %q", seat)
		}
		t.Names[id] = seat
		humans = append(humans, id)
	}
	if len(humans) == 0 && !s.Watch {
		return badSetup("--players needs at least one person (a name); to watch bots play alone, add --watch")
	}
	t.Humans = humans
	// The table is opened by its first person, or, for bots alone, by a
	// host who leaves it before it starts.
	host := "local:host"
	if len(humans) > 0 {
		host = humans[0]
	} else {
		t.Names[host] = "host"
	}
	n := 0
	send := func(user, sub string, opts map[string]string) (commands.Message, error) {
		n++
		c := &commands.Recorder{}
		t.Service.Handle(ctx, &commands.Request{Type: commands.CommandRequest, ID: fmt.Sprint("local-setup-", time.Now().UnixNano(), "-", n),
			Channel: t.Channel, Guild: "local", User: user, UserName: t.Names[user], Locale: t.Locale, Name: "ttr", Sub: sub, Options: opts}, c)
		a, _ := c.Answer()
		if a.Message.Ephemeral {
			// /ttr new answers privately and posts its lobby: it failed
			// only when no lobby is open.
			if info, ok := t.Service.Turn(t.Channel); sub == "new" && ok && info.Lobby {
				return a.Message, nil
			}
			return a.Message, errors.New(a.Message.Content)
		}
		return a.Message, nil
	}
	if b, err := t.Service.Board(s.Map); err == nil {
		t.gameBoard = b
	}
	if !t.NoPictures {
		fmt.Fprintln(t.out, t.say("term.pictures", "dir", t.pictureDir()))
	}
	// The lobby is not shown: the seats were chosen on the command line.
	t.mu.Lock()
	t.opening = true
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.opening = false
		t.mu.Unlock()
	}()
	// Nobody is away from a terminal game: no turn timer.
	opts := map[string]string{"map": s.Map, "turn_timer": "0"}
	if s.Lang != "" {
		opts["language"] = s.Lang
	}
	if s.Variant != "" {
		opts["variant"] = s.Variant
	}
	if _, err := send(host, "new", opts); err != nil {
		return badSetup("%v", err)
	}
	hi := 1
	for _, seat := range seats {
		seat = strings.TrimSpace(seat)
		var err error
		switch {
		case slices.Contains(s.Levels, seat):
			_, err = send(host, "addbot", map[string]string{"level": seat})
		case "local:"+seat == host:
			continue
		default:
			_, err = send(humans[hi], "join", nil)
			hi++
		}
		if err != nil {
			return badSetup("%v", err)
		}
	}
	if len(humans) == 0 {
		if _, err := send(host, "leave", nil); err != nil {
			return badSetup("%v", err)
		}
	}
	// What the lobby posted is let go unseen; the first board is posted
	// (and shown) by the service, the reply being only the closed lobby.
	t.Service.Quiet()
	t.mu.Lock()
	t.opening = false
	t.mu.Unlock()
	if t.Watch {
		fmt.Fprintln(t.out, t.say("term.watching"))
	}
	if _, err := send(host, "start", nil); err != nil {
		return badSetup("%v", err)
	}
	t.Service.Quiet()
	return nil
}
