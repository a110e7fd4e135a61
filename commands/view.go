package commands

import (
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"

	"conductor/data"
	"conductor/engine"
	"conductor/store"
)

// A table as one reader's page shows it (the web transport): the public
// board for everyone, and for a seated reader their own hand, tickets and
// the controls of their turn, built with the same functions as the
// buttons and prompts the bot sends. A view is built from the table's
// snapshot, so reading one never waits for a move, and a move never waits
// for a reader.

// ErrNoGame: the channel holds no game in the lobby or being played.
var ErrNoGame = errors.New("no game here")

// View is a table as one reader sees it.
type View struct {
	Game, Guild, Channel string
	// Parent is the channel a game played in a thread hangs off ("" for
	// none).
	Parent string
	// Version changes whenever the table changed (a move, a seat, an
	// undo, a choice opened or closed): equal versions show the same table.
	Version uint64
	Lobby   bool
	Board   *data.Board
	Variant string
	// TableLocale is the language of the table's public posts.
	TableLocale string
	Seats       []ViewSeat
	// Lines are the latest public narration lines, oldest first.
	Lines []string
	// Public is everyone's view of the game; nil in the lobby.
	Public *engine.PublicView
	// Seat is the reader's seat, -1 for a spectator.
	Seat int
	// Private is the reader's own seat's view (hand, tickets, pending
	// tickets): nil for every other reader.
	Private *engine.PlayerView
	// Draws are the draws the reader's turn offers, as the buttons under
	// the board offer them; nil when the reader may not draw now.
	Draws *Draws
	// LobbyControls are the lobby's buttons (join, leave, start).
	LobbyControls []Row
	// Prompt is the choice the reader's seat owes (tickets to keep, a
	// tunnel to pay, a payment to choose), with its controls.
	Prompt *Message
	// CanClaim: the reader may claim a track (or build a station, move a
	// passenger) now.
	CanClaim bool
	// Claimable are the tracks the reader may claim now, as the rules see
	// their hand (engine.AppendClaimable): set only with CanClaim, and,
	// like the hand it comes from, for that reader alone.
	Claimable []data.TrackID
}

// Draws are the buttons of a turn's draws.
type Draws struct {
	// FaceUp holds a button per face-up slot, disabled when the slot
	// cannot be taken.
	FaceUp []Component
	// Deck and Tickets are nil when the turn does not offer them.
	Deck, Tickets *Component
}

// drawsOf sorts the draw buttons of rows (the board's or the second
// draw's) by what they draw.
func drawsOf(rows []Row) *Draws {
	d := &Draws{}
	for _, row := range rows {
		for _, c := range row {
			id, ok := parseCID(c.ID)
			switch {
			case !ok:
			case id.kind == "draw" && id.arg == "deck":
				d.Deck = &c
			case id.kind == "draw":
				d.FaceUp = append(d.FaceUp, c)
			case id.kind == "tickets":
				d.Tickets = &c
			}
		}
	}
	return d
}

// ViewSeat is a seat as everyone sees it.
type ViewSeat struct {
	Name string
	User string // "" for a bot
	Bot  bool
}

// viewSnapshot is what a snapshot keeps for View besides the record and
// the game: the table's open choices and latest lines, and the version.
type viewSnapshot struct {
	pending map[string]pendingAction
	lines   []string
	undo    bool
	print   uint64
	version uint64
}

// viewLines is how many narration lines a view carries.
const viewLines = 8

// publish stores the table's snapshot, with what View needs, and reports
// whether the table changed since the last one. The game is cloned only
// when it moved since: a table read, not changed, costs no copy of its
// game. The caller holds the table's lock.
func (t *table) publish() bool {
	prev := t.snap.Load()
	snap := &tableSnapshot{}
	if t.rec != nil {
		snap.rec = *t.rec
		snap.rec.Seats = slices.Clone(t.rec.Seats)
		snap.rec.Options = maps.Clone(t.rec.Options)
		snap.rec.Log, snap.rec.Messages = nil, nil
		snap.view.pending = maps.Clone(t.pending)
		snap.view.lines = slices.Clone(t.told.history[max(0, len(t.told.history)-viewLines):])
		snap.view.undo = t.undo != nil
		if t.game != nil {
			snap.at = positionOf(t)
			if prev != nil && prev.game != nil && prev.at == snap.at {
				snap.game = prev.game // the same position: the same game
			} else {
				snap.game = t.game.Clone()
			}
		}
	}
	snap.view.print = t.fingerprint()
	changed := prev == nil || prev.view.print != snap.view.print
	if prev != nil {
		snap.view.version = prev.view.version
	}
	if changed {
		snap.view.version++
	}
	t.snap.Store(snap)
	// A table's first snapshot is news only when it holds a game (one just
	// opened); loading an empty one is not.
	return changed && (prev != nil || snap.view.print != 0)
}

// fingerprint sums up what a reader's page shows of the table: the game,
// its seats, its moves, the open choices.
func (t *table) fingerprint() uint64 {
	h := fnv.New64a()
	w := func(s string) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	if t.rec == nil {
		return 0
	}
	rec := t.rec
	w(rec.ID)
	w(rec.Status)
	w(strconv.Itoa(len(rec.Log)))
	for _, st := range rec.Seats {
		w(st.UserID)
		w(st.Name)
		w(st.Bot)
	}
	for _, u := range slices.Sorted(maps.Keys(t.pending)) {
		p := t.pending[u]
		w(u)
		fmt.Fprintf(h, "%d %v %v %d", p.turn, p.action, p.pay, len(p.trips))
	}
	w(strconv.FormatBool(t.undo != nil))
	if t.game != nil {
		w(strconv.Itoa(t.game.Turn()))
		w(strconv.Itoa(int(t.game.Phase())))
	}
	return h.Sum64()
}

// changedHook is what a channel's table calls when it changed: the
// activity's, if any.
func (s *Service) changedHook(channel string) func() {
	a := s.cfg.Activity
	if a == nil {
		return nil
	}
	return func() { a.Changed(channel) }
}

// View is the channel's table as user sees it, in the language of locale.
// It returns ErrNoGame when the channel has no game in the lobby or being
// played.
func (s *Service) View(channel, user, locale string) (*View, error) {
	snap := s.snapshot(channel)
	if snap == nil || snap.rec.ID == "" || (snap.rec.Status != store.StatusLobby && snap.rec.Status != store.StatusPlaying) {
		return nil, ErrNoGame
	}
	rec := &snap.rec
	b, err := s.cfg.Catalog.Board(rec.Map)
	if err != nil {
		return nil, err
	}
	v := &View{Game: rec.ID, Guild: rec.Guild, Channel: rec.Channel, Parent: rec.Options[optParent], Version: snap.view.version,
		Board: b, Variant: rec.Variant, TableLocale: rec.Options[optLocale], Lines: snap.view.lines, Seat: seatOf(rec, user)}
	for _, st := range rec.Seats {
		seat := ViewSeat{Name: st.Name, Bot: st.Bot != ""}
		if st.Bot == "" {
			seat.User = st.UserID
		}
		v.Seats = append(v.Seats, seat)
	}
	if snap.game == nil {
		v.Lobby = true
		v.LobbyControls = lobbyMessage(s.cfg.Catalog, rec, locale).Components
		return v, nil
	}
	g := snap.game
	pub := g.Public()
	v.Public = &pub
	if v.Seat < 0 {
		return v, nil
	}
	// The buttons and prompts are the bot's, built from the snapshot.
	c := controls{rec: rec, game: g, pending: snap.view.pending, page: s.cfg.Activity != nil}
	pv := g.View(v.Seat)
	v.Private = &pv
	if m, ok := c.pendingPrompt(v.Seat, user, locale); ok {
		v.Prompt = &m
	}
	if g.Current() == v.Seat {
		switch g.Phase() {
		case engine.PhaseTurn:
			v.CanClaim = true
			v.Claimable = g.AppendClaimable(v.Seat, nil)
			v.Draws = drawsOf(c.boardButtons(locale))
		case engine.PhaseSecondDraw:
			v.Draws = drawsOf(c.drawRows(locale, true))
		}
	}
	return v, nil
}

// LiveGame is a game in the lobby or being played, for a picker.
type LiveGame struct {
	Game, Channel, Guild string
	Map, Variant         string
	Seats                []string
	Lobby                bool
}

// LiveGames lists the games in the lobby or being played in a guild's
// channel: the channel's own and those of its threads (found by the
// store's index, reading only their headers).
func (s *Service) LiveGames(guild, channel string) ([]LiveGame, error) {
	threads, err := s.cfg.Store.Threads(channel)
	if err != nil {
		return nil, err
	}
	channels := []string{channel}
	for _, th := range threads {
		channels = append(channels, th.Channel)
	}
	var out []LiveGame
	for _, ch := range channels {
		rec, err := s.cfg.Store.Header(ch)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if rec.Guild != guild || (rec.Status != store.StatusLobby && rec.Status != store.StatusPlaying) {
			continue
		}
		g := LiveGame{Game: rec.ID, Channel: rec.Channel, Guild: rec.Guild, Map: rec.Map, Variant: rec.Variant, Lobby: rec.Status == store.StatusLobby}
		for _, st := range rec.Seats {
			g.Seats = append(g.Seats, st.Name)
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b LiveGame) int {
		if a.Channel < b.Channel {
			return -1
		}
		if a.Channel > b.Channel {
			return 1
		}
		return 0
	})
	return out, nil
}
