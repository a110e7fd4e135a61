package commands

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"conductor/data"
	"conductor/present"
	"conductor/store"
)

// Opening a table: where it plays is decided from the bot's permissions
// before anything is created; the lobby is stored together with the posts
// that show it (its message in the channel, its thread's welcome), so a
// failed answer or a crash never leaves a table nobody can see or join; one
// member and one channel hold only so many lobbies; a lobby nobody starts
// expires.

// Defaults of the limits on lobbies (Config).
const (
	DefaultLobbiesPerMember  = 2
	DefaultLobbiesPerChannel = 10
	DefaultLobbyExpiry       = 24 * time.Hour
)

// opener opens tables: where a new one plays (a thread of its own or
// the channel), the caps on lobbies, one opening at a time per server, one
// rematch at a time per game.
type opener struct {
	tables  *tableCache
	store   *store.Store
	catalog *data.Catalog
	// poster opens a table's thread when it can (ThreadOpener).
	poster Poster
	now    func() time.Time
	log    *slog.Logger
	out    deliveries
	// perMember and perChannel cap the lobbies one member hosts and one
	// channel shows (0: none); lobbyExpiry is how long a lobby nobody
	// changes stays open (negative: for ever).
	perMember, perChannel int
	lobbyExpiry           time.Duration

	// mu guards openings and rematching. A table's lock may be held when
	// mu is taken, never the other way round.
	mu sync.Mutex
	// openings serialise the opening of tables per server.
	openings map[string]*sync.Mutex
	// rematching marks the games whose rematch is being opened.
	rematching map[string]bool
}

// placement is where a new table plays.
type placement struct {
	thread  bool   // in a new thread of its channel
	warning string // why not in a thread, said in the lobby (the table's language)
	refusal string // why not here at all, said privately (the asker's language)
}

// place decides where a table asked for in a channel of kind plays, from
// the permissions the request shows: a thread only when the bot can open
// one and post, upload and embed in it; the channel itself when it cannot;
// nowhere when the channel refuses posts or files, or is a private thread
// (the bot is not among its members). wantThread: the table would get a
// thread of its own; loc is the table's language.
func (s *opener) place(req *Request, kind ChannelKind, wantThread bool, loc string) placement {
	if !req.KnownPermissions || req.DM {
		return placement{thread: wantThread}
	}
	if kind == ChannelPrivateThread {
		return placement{refusal: present.T(req.Locale, "lobby.private_thread")}
	}
	if missing := postingNeeds(kind) &^ req.AppPermissions; missing != 0 {
		return placement{refusal: present.T(req.Locale, "lobby.cannot_post", "missing", missing.names(req.Locale))}
	}
	if !wantThread || kind != ChannelText && kind != ChannelUnknown {
		return placement{}
	}
	if missing := threadNeeds &^ req.AppPermissions; missing != 0 {
		return placement{warning: present.T(loc, "lobby.no_threads_missing", "missing", missing.names(loc))}
	}
	return placement{thread: true}
}

// lobbyHome is the channel where a table's lobby is shown: the channel of
// its thread, or its own.
func lobbyHome(rec *store.GameRecord) string {
	if p := rec.Options[optParent]; p != "" {
		return p
	}
	return rec.Channel
}

// limit reads a limit of the configuration: 0 is the default, a negative
// value none (0 here).
func limit(n, def int) int {
	if n == 0 {
		return def
	}
	return max(n, 0)
}

// lobbyLimit says why req may not open another lobby shown in home, or "".
func (s *opener) lobbyLimit(req *Request, home string) string {
	if req.Guild == "" {
		return ""
	}
	lobbies, err := s.store.Lobbies(req.Guild)
	if err != nil {
		s.log.Warn("count the lobbies", "guild", req.Guild, "err", err)
		return ""
	}
	mine, here := 0, 0
	for _, r := range lobbies {
		if r.Host == req.User {
			mine++
		}
		if lobbyHome(r) == home {
			here++
		}
	}
	if n := s.perMember; n > 0 && mine >= n {
		return present.T(req.Locale, "lobby.limit_member", "n", n)
	}
	if n := s.perChannel; n > 0 && here >= n {
		return present.T(req.Locale, "lobby.limit_channel", "n", n)
	}
	return ""
}

// guildOpening serialises the opening of tables in one server, so that the
// limits hold when one member sends many /ttr new at once.
func (s *opener) guildOpening(guild string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.openings[guild]
	if m == nil {
		m = &sync.Mutex{}
		s.openings[guild] = m
	}
	return m
}

// tableOpening is a table about to open: shown in home (a text channel or
// thread of kind), in a thread of its own when wanted and allowed.
type tableOpening struct {
	rec        *store.GameRecord
	home       string
	kind       ChannelKind
	wantThread bool
	// lobby dresses the lobby's message (the rematch's words and pings).
	lobby func(*Message)
	// put stores the table with its posts (Store.PutWithPosts or a
	// rematch's Store.PutRematch).
	put func(*store.GameRecord, ...store.OutboxEntry) error
}

// open opens a table as o says and returns the private answer to its
// asker, or why it was not opened.
func (s *opener) open(ctx context.Context, req *Request, o tableOpening) (opened bool, answer Message) {
	mu := s.guildOpening(req.Guild)
	mu.Lock()
	defer mu.Unlock()
	if msg := s.lobbyLimit(req, o.home); msg != "" {
		return false, note(msg)
	}
	loc := o.rec.Options[optLocale]
	pl := s.place(req, o.kind, o.wantThread, loc)
	if pl.refusal != "" {
		return false, note(pl.refusal)
	}
	if o.rec.ID == "" {
		o.rec.ID = store.NewGameID() // the lobby's buttons name it
	}
	warning := s.placeTable(ctx, o.rec, o.home, pl.thread)
	if warning == "" {
		warning = pl.warning
	}
	lobby := lobbyMessage(s.catalog, o.rec, loc)
	lobby.Content = warning
	if o.lobby != nil {
		o.lobby(&lobby)
	}
	// The lobby's expiry is stored with it: a crash right after never
	// leaves a lobby that stays open for ever.
	o.rec.Due = lobbyDue(s.now(), s.lobbyExpiry)
	t, m := s.openLobby(req, o.rec, o.home, lobby, o.put)
	if t == nil {
		if o.rec.Channel != o.home {
			// The thread opened for nothing closes.
			if err := s.store.Enqueue(o.rec.Channel, archiveEntry()); err == nil {
				s.out.kick(o.rec.Channel)
			}
		}
		return false, *m
	}
	t.unlock()
	if o.rec.Channel != o.home {
		return true, note(present.T(req.Locale, "lobby.opened_thread", "thread", "<#"+o.rec.Channel+">"))
	}
	return true, note(present.T(req.Locale, "lobby.opened"))
}

// lobbyEntry is the post that shows the lobby of the game in channel game,
// queued in its home channel.
func lobbyEntry(game, home string, m Message) store.OutboxEntry {
	payload, _ := json.Marshal(outboxPayload{Message: m, Game: game})
	e := entryOf(postLobby, payload)
	if home != game {
		e.Queue = home
	}
	return e
}

// editEntry replaces the message id of the outbox's channel with m.
func editEntry(id string, m Message) store.OutboxEntry {
	payload, _ := json.Marshal(outboxPayload{Message: m, Edit: id})
	return entryOf(postEdit, payload)
}

// expireLobby closes a lobby nobody changed for the configured time: its
// message says so and loses its buttons, its thread is archived. Called
// by the timers with the table locked.
func (t *table) expireLobby() {
	rec := t.rec
	expiry := t.lobbyExpiry
	if rec.Status != store.StatusLobby || expiry < 0 || t.now().Sub(rec.Updated) < expiry {
		return
	}
	if err := t.store.Delete(rec.Channel); err != nil {
		t.log.Warn("expire a lobby", "channel", rec.Channel, "err", err)
		return
	}
	loc := t.locale()
	home := lobbyHome(rec)
	var entries []store.OutboxEntry
	// The lobby's message is known from the sender's note (notes.go).
	if id := rec.Messages["lobby"]; id != "" {
		m := lobbyMessage(t.catalog, rec, loc)
		m.Components = nil
		m.Content = present.T(loc, "lobby.expired", "hours", int(expiry.Round(time.Hour).Hours()))
		entries = append(entries, editEntry(id, m))
	}
	if rec.Channel != home {
		archive := archiveEntry()
		archive.Queue = rec.Channel
		entries = append(entries, archive)
	}
	if err := t.store.Enqueue(home, entries...); err != nil {
		t.log.Warn("queue a lobby's expiry", "channel", rec.Channel, "err", err)
	}
	t.log.Info("lobby expired", "channel", rec.Channel, "guild", rec.Guild)
	t.rec, t.game = nil, nil
	t.out.kick(home)
	t.out.kickQueues(entries)
}
