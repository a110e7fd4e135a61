package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"conductor/commands"
	"conductor/imaging"
	"conductor/local"
	"conductor/store"
)

// runPlay plays a game in the terminal: hot-seat players and bots, saved in
// the database so that it can be resumed.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, decks := newFlags("play", stderr)
	mapID := fs.String("map", "usa", "the board: usa, europe or marklin")
	variant := fs.String("variant", "", "the variant (Europe: classic, 1912, mega, bigcities)")
	players := fs.String("players", "you,normal", "comma-separated seats: a name for each person at the keyboard, a bot level ("+strings.Join(botLevels(), ", ")+") for each bot")
	game := fs.String("game", "local", "the saved game's `NAME` (several can be kept)")
	fresh := fs.Bool("new", false, "abandon the saved game of that name and start a new one")
	out := fs.String("out", "board.png", "where to write the board picture after every move")
	db := fs.String("db", envOr("CONDUCTOR_DB", "conductor.db"), "the database `FILE`")
	delay := fs.Duration("bot-delay", 400*time.Millisecond, "pause before a bot moves")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	cat, err := catalog(*decks)
	if err != nil {
		return err
	}
	st, err := store.Open(*db, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	term := local.NewTerminal(stdin, stdout)
	term.BoardPath = *out
	term.Channel = "local:" + *game
	svc := commands.New(commands.Config{Catalog: cat, Store: st, Renderer: imaging.NewRenderer(), Poster: term,
		Bots: botMaker(), BotLevels: botLevels(), BotDelay: *delay, Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	defer svc.Close()
	term.Service = svc

	info, saved := svc.Turn(term.Channel)
	if saved && *fresh {
		term.Names["local:host"] = "host"
		req := &commands.Request{Type: commands.CommandRequest, ID: fmt.Sprint("local-end-", time.Now().UnixNano()), Channel: term.Channel, Guild: "local", User: "local:host", CanManage: true, Name: "ttr", Sub: "end"}
		svc.Handle(context.Background(), req, discard{})
		saved = false
	}
	var seats []string
	if saved && !info.Lobby {
		rec, err := st.Get(term.Channel)
		if err != nil {
			return err
		}
		for _, s := range rec.Seats {
			if s.Bot == "" {
				term.Names[s.UserID] = s.Name
				term.Humans = append(term.Humans, s.UserID)
			}
		}
		fmt.Fprintf(stdout, "Resuming the saved game %q on the %s board.\n", *game, rec.Map)
	} else {
		if saved {
			svc.Handle(context.Background(), &commands.Request{Type: commands.CommandRequest, ID: fmt.Sprint("local-end-", time.Now().UnixNano()), Channel: term.Channel, Guild: "local", User: "local:host", CanManage: true, Name: "ttr", Sub: "end"}, discard{})
		}
		seats = strings.Split(*players, ",")
		if err := newLocalGame(term, seats, *mapID, *variant); err != nil {
			return err
		}
	}
	return term.Play()
}

// newLocalGame opens a table, seats the players and bots, and starts.
func newLocalGame(term *local.Terminal, seats []string, mapID, variant string) error {
	if len(seats) < 2 || len(seats) > 5 {
		return badInput("--players needs 2 to 5 seats, e.g. --players alice,bob or --players you,hard")
	}
	levels := map[string]bool{}
	for _, l := range botLevels() {
		levels[l] = true
	}
	var humans []string
	for _, s := range seats {
		s = strings.TrimSpace(s)
		if s == "" {
			return badInput("--players has an empty seat")
		}
		if !levels[s] {
			id := "local:" + s
			if term.Names[id] != "" {
				return badInput("two players are called %q", s)
			}
			term.Names[id] = s
			humans = append(humans, id)
		}
	}
	if len(humans) == 0 {
		return badInput("--players needs at least one person (a name); for bots only, use conductor selfplay")
	}
	term.Humans = humans
	n := 0
	send := func(user, sub string, opts map[string]string) (commands.Message, error) {
		n++
		cap := &capture{}
		term.Service.Handle(context.Background(), &commands.Request{Type: commands.CommandRequest, ID: fmt.Sprint("local-setup-", time.Now().UnixNano(), "-", n),
			Channel: term.Channel, Guild: "local", User: user, UserName: term.Names[user], Name: "ttr", Sub: sub, Options: opts}, cap)
		if cap.m.Ephemeral {
			return cap.m, errors.New(cap.m.Content)
		}
		return cap.m, nil
	}
	opts := map[string]string{"map": mapID}
	if variant != "" {
		opts["variant"] = variant
	}
	if _, err := send(humans[0], "new", opts); err != nil {
		return badInput("%v", err)
	}
	hi := 1
	for _, s := range seats {
		s = strings.TrimSpace(s)
		var err error
		switch {
		case levels[s]:
			_, err = send(humans[0], "addbot", map[string]string{"level": s})
		case "local:"+s == humans[0]:
			continue
		default:
			_, err = send(humans[hi], "join", nil)
			hi++
		}
		if err != nil {
			return badInput("%v", err)
		}
	}
	m, err := send(humans[0], "start", nil)
	if err != nil {
		return badInput("%v", err)
	}
	_, _ = term.Post(term.Channel, m)
	return nil
}

// capture keeps the reply to a setup request.
type capture struct{ m commands.Message }

func (c *capture) Reply(m commands.Message) error  { c.m = m; return nil }
func (c *capture) Update(m commands.Message) error { c.m = m; return nil }
func (c *capture) Ack() error                      { return nil }
func (c *capture) Choices([]commands.Choice) error { return nil }
func (c *capture) FollowUp(commands.Message) error { return nil }

// discard answers nothing.
type discard struct{}

func (discard) Reply(commands.Message) error    { return nil }
func (discard) Update(commands.Message) error   { return nil }
func (discard) Ack() error                      { return nil }
func (discard) Choices([]commands.Choice) error { return nil }
func (discard) FollowUp(commands.Message) error { return nil }

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
