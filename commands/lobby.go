package commands

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"conductor/data"
	"conductor/present"
	"conductor/store"
)

// seatColors are the players' colours in seat order, as the imaging
// package draws them.
var seatColors = []string{"red", "blue", "green", "yellow", "black"}

const maxPlayers = 5

func newSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return binary.LittleEndian.Uint64(b[:])
}

// ttrNew opens a lobby in the channel.
// DefaultTurnTimer is a new table's turn timer in minutes: a day, with
// reminders at 8 and 16 hours; MaxTurnTimer is a week.
const (
	DefaultTurnTimer = 24 * 60
	MaxTurnTimer     = 7 * 24 * 60
)

func (s *Service) ttrNew(c *call) (response, error) {
	req := c.req
	rec, refusal := s.newTableRecord(req)
	if refusal != "" {
		return reply(note(refusal))
	}
	// The lobby is a post of its own (opening.go); the asker is answered
	// privately.
	_, answer := s.opener.open(c.ctx, req, tableOpening{rec: rec, home: req.Channel, kind: req.ChannelKind,
		wantThread: s.opener.threadsHere(req), put: s.cfg.Store.PutWithPosts})
	return reply(answer)
}

// newTableRecord reads /ttr new's options into a lobby record (its
// channel not yet chosen), or says what is wrong with them.
func (s *Service) newTableRecord(req *Request) (*store.GameRecord, string) {
	mapID := req.Opt("map")
	if mapID == "" {
		mapID = "usa"
	}
	b, err := s.cfg.Catalog.Board(mapID)
	if err != nil {
		return nil, present.T(req.Locale, "lobby.bad_map", "map", mapID, "maps", strings.Join(s.cfg.Catalog.IDs(), ", "))
	}
	variant := req.Opt("variant")
	if variant == "" {
		variant = b.Variants[0].ID
	}
	if _, ok := b.Variant(variant); !ok {
		var ids []string
		for _, v := range b.Variants {
			ids = append(ids, v.ID)
		}
		return nil, present.T(req.Locale, "lobby.bad_variant", "variant", variant, "map", mapID, "variants", strings.Join(ids, ", "))
	}
	// The table's language: asked for, else the creator's own (Discord
	// reports en-US for most servers, whatever they speak).
	lang := req.Opt("language")
	if lang == "" {
		lang = req.Locale
	}
	if l, _, _ := strings.Cut(strings.ToLower(lang), "-"); slices.Contains(present.Languages, l) {
		lang = l
	} else if req.Opt("language") != "" {
		return nil, present.T(req.Locale, "lobby.bad_language", "language", lang, "languages", strings.Join(present.Languages, ", "))
	} else {
		lang = "en"
	}
	set := TableOptions{Locale: lang, Confirm: req.Opt("confirm") == "true", NoHints: req.Opt("hints") == "false"}
	if req.Opt("bonus_tickets") == "true" {
		if b.DeckSize("bonus") == 0 {
			return nil, present.T(req.Locale, "lobby.no_bonus_tickets", "map", present.EditionName(req.Locale, b, ""))
		}
		set.BonusTickets = true
	}
	// Async tables are the common case: a turn timer is on unless turned off
	// (0), so that an absent player never stalls the table for good.
	if v := req.Opt("turn_timer"); v == "" {
		set.TurnTimer = DefaultTurnTimer * time.Minute
	} else if v != "0" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxTurnTimer {
			return nil, present.T(req.Locale, "lobby.bad_timer")
		}
		set.TurnTimer = time.Duration(n) * time.Minute
	}
	opts := map[string]string{}
	set.write(opts)
	return &store.GameRecord{Channel: req.Channel, Guild: req.Guild, Map: mapID, Variant: variant, Options: opts,
		Host: req.User, Seed: s.cfg.NewSeed(), Status: store.StatusLobby,
		Seats: []store.Seat{{UserID: req.User, Name: req.UserName, Color: seatColors[0]}}}, ""
}

// lobbyMessage shows the table being formed, with Join, Leave and Start.
func lobbyMessage(cat *data.Catalog, rec *store.GameRecord, loc string) Message {
	b, _ := cat.Board(rec.Map)
	var seats []string
	for i, st := range rec.Seats {
		who := mention(loc, st)
		seats = append(seats, fmt.Sprintf("%s %s — %s", present.ColorDot(i), present.T(loc, "color."+seatColors[i]), who))
	}
	var opts []string
	set := tableOptions(rec)
	if set.BonusTickets {
		opts = append(opts, present.T(loc, "lobby.opt.bonus"))
	}
	if set.TurnTimer > 0 {
		opts = append(opts, present.T(loc, "lobby.opt.timer", "time", duration(loc, int(set.TurnTimer/time.Minute))))
	}
	if set.Confirm {
		opts = append(opts, present.T(loc, "lobby.opt.confirm"))
	}
	if set.NoHints {
		opts = append(opts, present.T(loc, "lobby.opt.nohints"))
	}
	// The board's standard game needs no variant named ("USA — USA").
	desc := present.T(loc, "lobby.desc_board", "board", present.EditionName(loc, b, ""), "players", len(rec.Seats))
	if len(b.Variants) > 0 && rec.Variant != "" && rec.Variant != b.Variants[0].ID {
		desc = present.T(loc, "lobby.desc", "board", present.EditionName(loc, b, ""), "variant", present.VariantName(loc, b, rec.Variant), "players", len(rec.Seats))
	}
	if len(opts) > 0 {
		desc += "\n" + strings.Join(opts, " · ")
	}
	if b.TicketsSubstitute {
		desc += "\n" + present.T(loc, "lobby.substitute")
	}
	e := Embed{Title: present.T(loc, "lobby.title"), Description: desc, Color: 0x2b6cb0,
		Fields: []Field{{Name: present.T(loc, "lobby.seats"), Value: strings.Join(seats, "\n")}},
		Footer: present.T(loc, "lobby.footer")}
	if rec.Options[optParent] != "" {
		e.Description += "\n" + present.T(loc, "lobby.thread", "thread", "<#"+rec.Channel+">")
	}
	full := len(rec.Seats) >= maxPlayers
	// In the parent channel the buttons name the game's thread.
	at := ""
	if rec.Options[optParent] != "" {
		at = "@" + rec.Channel
	}
	return Message{Embeds: []Embed{e}, Components: []Row{{
		{Kind: Button, ID: cid("lobby", rec.ID, 0, "join"+at), Label: present.T(loc, "button.join"), Style: Success, Disabled: full},
		{Kind: Button, ID: cid("lobby", rec.ID, 0, "leave"+at), Label: present.T(loc, "button.leave"), Style: Secondary},
		{Kind: Button, ID: cid("lobby", rec.ID, 0, "start"+at), Label: present.T(loc, "button.start"), Style: Primary, Disabled: len(rec.Seats) < 2},
	}}}
}

// duration writes a number of minutes in the language of loc: "1 day",
// "8 hours", "1 hour 30 minutes".
func duration(loc string, minutes int) string {
	switch {
	case minutes%(24*60) == 0:
		return present.T(loc, "time.days", "n", minutes/(24*60))
	case minutes%60 == 0:
		return present.T(loc, "time.hours", "n", minutes/60)
	case minutes > 60:
		return present.T(loc, "time.hours", "n", minutes/60) + " " + present.T(loc, "time.minutes", "n", minutes%60)
	}
	return present.T(loc, "time.minutes", "n", minutes)
}

// mention is how a message in the language of loc names a seat: a
// Discord mention for a member, the escaped name for a local player, a bot
// named as a bot.
func mention(loc string, st store.Seat) string {
	if st.Bot != "" {
		p := present.Player{Name: st.Name, Bot: true, Level: st.Bot}
		if st.TakenOver() {
			p.For = st.Name
		}
		return present.EscapeMarkdown(present.PlayerLabel(loc, p))
	}
	if st.UserID == "" || strings.HasPrefix(st.UserID, "local:") {
		return present.EscapeMarkdown(st.Name)
	}
	return "<@" + st.UserID + ">"
}

func seatOf(rec *store.GameRecord, user string) int {
	for i, st := range rec.Seats {
		if st.UserID == user && st.Bot == "" {
			return i
		}
	}
	return -1
}

// lobbyJoin: /ttr join.
func (s *Service) lobbyJoin(c *call) (response, error) {
	return s.inLobby(c.req, c.t, "", joinLobby(c.req))
}

// lobbyButton: Join, Leave or Start, clicked on a lobby.
func (s *Service) lobbyButton(c *call) (response, error) {
	switch c.id.arg {
	case "join":
		return s.inLobby(c.req, c.t, c.id.game, joinLobby(c.req))
	case "leave":
		return s.inLobby(c.req, c.t, c.id.game, leaveLobby(c.req))
	case "start":
		return s.startAt(c.req, c.t, c.id.game)
	}
	return reply(note(present.T(c.req.Locale, "stale.unknown")))
}

// joinLobby seats the asker in a lobby.
func joinLobby(req *Request) func(t *table) string {
	return func(t *table) string {
		rec := t.rec
		if seatOf(rec, req.User) >= 0 {
			return present.T(req.Locale, "lobby.already_in")
		}
		if len(rec.Seats) >= maxPlayers {
			return present.T(req.Locale, "lobby.full")
		}
		rec.Seats = append(rec.Seats, store.Seat{UserID: req.User, Name: req.UserName})
		return ""
	}
}

// leaveLobby takes the asker's seat out of a lobby.
func leaveLobby(req *Request) func(t *table) string {
	return func(t *table) string {
		i := seatOf(t.rec, req.User)
		if i < 0 {
			return present.T(req.Locale, "lobby.not_in")
		}
		t.rec.Seats = append(t.rec.Seats[:i], t.rec.Seats[i+1:]...)
		return ""
	}
}

// lobbyAddBot: /ttr addbot [level].
func (s *Service) lobbyAddBot(c *call) (response, error) {
	req := c.req
	if s.cfg.Bots == nil {
		return reply(note(present.T(req.Locale, "lobby.no_bots")))
	}
	level := req.Opt("level")
	if level == "" && len(s.cfg.BotLevels) > 0 {
		// The middle level, or "normal" when offered (the levels run from
		// easy to expert, and a table should not get the strongest unasked).
		level = s.cfg.BotLevels[(len(s.cfg.BotLevels)-1)/2]
	}
	if _, err := s.cfg.Bots(level, 0); err != nil {
		return reply(note(present.T(req.Locale, "lobby.bad_level", "level", level, "levels", strings.Join(s.cfg.BotLevels, ", "))))
	}
	return s.inLobby(req, c.t, "", func(t *table) string {
		if len(t.rec.Seats) >= maxPlayers {
			return present.T(req.Locale, "lobby.full")
		}
		t.rec.Seats = append(t.rec.Seats, store.Seat{Name: botName(t.rec.Seats, level), Bot: level})
		return ""
	})
}

// kickFromLobby takes the seat the host names out of a lobby.
func kickFromLobby(req *Request) func(t *table) string {
	return func(t *table) string {
		if req.User != t.rec.Host && !req.CanManage {
			return present.T(req.Locale, "lobby.host_only")
		}
		if req.Opt("seat") == "" && req.Opt("player") == "" {
			return present.T(req.Locale, "kick.whom")
		}
		i := findSeat(t.rec, req.Opt("seat"), req.Opt("player"))
		if i < 0 {
			return present.T(req.Locale, "lobby.no_such_player")
		}
		t.rec.Seats = append(t.rec.Seats[:i], t.rec.Seats[i+1:]...)
		return ""
	}
}

// inLobby applies a change to the lobby of a locked table, saves it and
// shows the table. game is the lobby id a button carries ("" for a slash
// command).
func (s *Service) inLobby(req *Request, t *table, game string, change func(*table) string) (response, error) {
	fromButton := game != ""
	if t.rec == nil {
		return reply(s.noGameHere(req, "lobby.none"))
	}
	if t.rec.Status != store.StatusLobby {
		return reply(note(present.T(req.Locale, "lobby.started")))
	}
	if fromButton && game != t.rec.ID {
		return reply(note(present.T(req.Locale, "stale.game")))
	}
	prev := append([]store.Seat(nil), t.rec.Seats...)
	if msg := change(t); msg != "" {
		t.rec.Seats = prev
		return reply(note(msg))
	}
	for i := range t.rec.Seats {
		t.rec.Seats[i].Color = seatColors[i]
	}
	if len(t.rec.Seats) == 0 {
		if err := s.cfg.Store.Delete(req.Channel); err != nil {
			return reply(oops(req, err.Error()))
		}
		if t.rec.Options[optParent] != "" {
			// Nobody is left at the table: its thread closes.
			if err := s.cfg.Store.Enqueue(req.Channel, archiveEntry()); err != nil {
				s.log.Warn("queue the thread's archiving", "channel", req.Channel, "err", err)
			}
			s.out.kick(req.Channel)
		}
		t.rec = nil
		if fromButton {
			return update(Message{Content: present.T(t.locale(), "lobby.closed")})
		}
		return reply(Message{Content: present.T(t.locale(), "lobby.closed")})
	}
	if err := s.cfg.Store.Put(t.rec); err != nil {
		t.rec.Seats = prev
		return reply(oops(req, err.Error()))
	}
	m := lobbyMessage(s.cfg.Catalog, t.rec, t.locale())
	if fromButton {
		return update(m)
	}
	// A command's answer is a copy of the table as it stands: the buttons
	// stay on the lobby itself, so that no copy keeps controls that die
	// when the game starts.
	m.Components = nil
	return reply(m)
}
