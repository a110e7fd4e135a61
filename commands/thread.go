package commands

import (
	"context"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"conductor/data"
	"conductor/present"
	"conductor/store"
)

// A table of its own: /ttr new in a server's text channel opens the lobby
// there and gives the game a public thread, which is the game's channel
// from then on (the store still keeps one game per channel). The parent
// channel keeps the lobby, a link to the thread and, at the end, the
// result; the finished thread is archived. A record's Options[optParent]
// names the parent channel of a game played in a thread.

// ErrNoThreads is what a ThreadOpener returns (wrapped) when the bot may
// not open a thread in a channel (it lacks the permissions): the table
// says so and plays in the channel. ErrNotThreadable: the channel cannot
// hold threads (it is a thread itself): the table plays there, unsaid.
var (
	ErrNoThreads     = errors.New("the bot may not open a thread here")
	ErrNotThreadable = errors.New("this channel cannot hold threads")
)

// ThreadOpener is a Poster that can give a game a thread of its own.
type ThreadOpener interface {
	// OpenThread starts a public thread in a text channel and returns its id.
	OpenThread(ctx context.Context, channel, name string) (string, error)
	// ArchiveThread closes a finished game's thread.
	ArchiveThread(ctx context.Context, thread string) error
}

// maxThreadName is Discord's limit on a channel's name.
const maxThreadName = 100

// threadsHere says whether a new table here gets a thread: in a server's
// channel (not a DM), when the transport can open threads and the creator
// did not ask to play in the channel. Inside a thread, opening one fails
// with ErrNotThreadable and the game stays there.
func (s *opener) threadsHere(req *Request) bool {
	_, ok := s.poster.(ThreadOpener)
	return ok && req.Opt("thread") != "false" && req.Guild != "" && !req.DM
}

// placeTable chooses where a new table plays: a new thread of parent when
// asked and allowed, else parent itself. It returns why there is no thread
// when the bot may not open one (the lobby says it). No lock is held: this
// asks Discord.
func (s *opener) placeTable(ctx context.Context, rec *store.GameRecord, parent string, thread bool) (warning string) {
	rec.Channel = parent
	delete(rec.Options, "parent")
	opener, ok := s.poster.(ThreadOpener)
	if !thread || !ok {
		return ""
	}
	b, _ := s.catalog.Board(rec.Map)
	th, err := opener.OpenThread(ctx, parent, threadName(rec, b))
	switch {
	case err == nil:
		rec.Channel = th
		rec.Options[optParent] = parent
		return ""
	case errors.Is(err, ErrNotThreadable):
		return ""
	case errors.Is(err, ErrNoThreads):
		return present.T(rec.Options[optLocale], "lobby.no_threads")
	}
	s.log.Warn("open a game thread", "channel", parent, "err", err)
	return present.T(rec.Options[optLocale], "lobby.thread_failed")
}

// openLobby stores a new lobby in its channel, unless a table is there,
// together with the posts that show it: its message in home and its
// thread's welcome. put stores them (in one transaction). It returns the
// table, locked, or the refusal.
func (s *opener) openLobby(req *Request, rec *store.GameRecord, home string, lobby Message,
	put func(*store.GameRecord, ...store.OutboxEntry) error) (*table, *Message) {
	t, err := s.tables.get(rec.Channel)
	if err != nil {
		m := oops(req, err.Error())
		return nil, &m
	}
	refuse := func(m Message) (*table, *Message) {
		t.unlock()
		return nil, &m
	}
	if t.rec != nil {
		return refuse(note(present.T(req.Locale, "lobby.exists")))
	}
	posts := []store.OutboxEntry{lobbyEntry(rec.Channel, home, lobby)}
	if rec.Options[optParent] != "" {
		// The thread's first message points back to the lobby.
		posts = append(posts, outboxEntry(postMessage, threadWelcome(s.catalog, rec)))
	}
	if err := put(rec, posts...); err != nil {
		if errors.Is(err, store.ErrRematched) {
			return refuse(note(present.T(req.Locale, "rematch.already")))
		}
		return refuse(oops(req, err.Error()))
	}
	t.rec = rec
	s.out.kick(rec.Channel)
	s.out.kickQueues(posts)
	return t, nil
}

// threadName names a game's thread: the edition and the host.
func threadName(rec *store.GameRecord, b *data.Board) string {
	name := "🚂 " + present.EditionName(rec.Options[optLocale], b, rec.Variant) + " · " + rec.Seats[0].Name
	for utf8.RuneCountInString(name) > maxThreadName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return strings.TrimSpace(name)
}

// threadWelcome is a game thread's first message: where the lobby is.
func threadWelcome(cat *data.Catalog, rec *store.GameRecord) Message {
	loc := rec.Options[optLocale]
	b, _ := cat.Board(rec.Map)
	return Message{Content: present.T(loc, "thread.welcome", "board", present.EditionName(loc, b, rec.Variant), "channel", "<#"+rec.Options[optParent]+">")}
}

// closingEntries are what a game played in a thread adds after its final
// posts: the result in the parent channel, then the thread archived.
func closingEntries(rec *store.GameRecord, result Message) []store.OutboxEntry {
	parent := rec.Options[optParent]
	if parent == "" {
		return nil
	}
	return []store.OutboxEntry{elsewhereEntry(parent, result), archiveEntry()}
}

// noGameHere answers a game command typed in a channel without a game of
// its own (key says so): when the channel's games are played in its
// threads, it lists them (the player's own first), each with its board
// and players, for anyone, players and watchers alike. The store's index
// of the channel's threads names them and their members, so only the
// headers of the tables the answer has room for are read.
func (s *Service) noGameHere(req *Request, key string) Message {
	threads, err := s.cfg.Store.Threads(req.Channel)
	if err != nil {
		s.log.Warn("read the threads of a channel", "channel", req.Channel, "err", err)
		return note(present.T(req.Locale, key))
	}
	// The asker's tables first (by the index's members), then the others.
	slices.SortStableFunc(threads, func(a, b store.Thread) int {
		am, bm := slices.Contains(a.Members, req.User), slices.Contains(b.Members, req.User)
		switch {
		case am && !bm:
			return -1
		case bm && !am:
			return 1
		}
		return 0
	})
	var lines []string
	size := 0
	for _, th := range threads {
		if size > tablesListLimit {
			break // the rest would be cut anyway
		}
		r, err := s.cfg.Store.Header(th.Channel)
		if err != nil || (r.Status != store.StatusLobby && r.Status != store.StatusPlaying) {
			continue
		}
		line := s.tableLine(req.Locale, r)
		lines = append(lines, line)
		size += len(line) + 1
	}
	if len(lines) == 0 {
		return note(present.T(req.Locale, key))
	}
	return note(present.T(req.Locale, "game.tables", "tables", truncate(strings.Join(lines, "\n"), tablesListLimit)))
}

// tablesListLimit bounds the list of a channel's tables, in characters.
const tablesListLimit = 1500

// tableLine is one live table of a channel: its thread, board and seats.
func (s *Service) tableLine(loc string, r *store.GameRecord) string {
	board := r.Map
	if b, err := s.cfg.Catalog.Board(r.Map); err == nil {
		board = present.EditionName(loc, b, r.Variant)
	}
	names := make([]string, len(r.Seats))
	for i := range r.Seats {
		names[i] = present.EscapeMarkdown(present.PlayerLabel(loc, seatPlayer(r, i)))
	}
	key := "game.table"
	if r.Status == store.StatusLobby {
		key = "game.table_lobby"
	}
	return present.T(loc, key, "thread", "<#"+r.Channel+">", "board", board, "players", strings.Join(names, ", "))
}
