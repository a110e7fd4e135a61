package engine

import (
	"fmt"

	"conductor/data"
)

// Phase is where the game stands.
type Phase uint8

const (
	// PhaseSetup: every player chooses initial tickets, all at once.
	PhaseSetup Phase = iota
	// PhaseTurn: the current player starts a turn.
	PhaseTurn
	// PhaseSecondDraw: the current player drew one card and draws another.
	PhaseSecondDraw
	// PhaseKeepTickets: the current player keeps some of the tickets drawn.
	PhaseKeepTickets
	// PhaseTunnel: the current player pays a tunnel's extra cards or gives up.
	PhaseTunnel
	// PhaseOver: the game has ended and is scored.
	PhaseOver
)

func (p Phase) String() string {
	return [...]string{"setup", "turn", "second draw", "keep tickets", "tunnel", "over"}[p]
}

// MaxPlayers is the most players any edition seats.
const MaxPlayers = 5

// Config says which game to set up.
type Config struct {
	Board        *data.Board
	Variant      string // "" = the board's first variant
	BonusTickets bool   // shuffle the board's "bonus" tickets into the regular deck
	Players      int
	Seed         uint64
	// Revision is the rules revision the game is played under; 0 means
	// LatestRevision. Stored games keep the revision they started with so
	// that their logs replay exactly as they were played.
	Revision int
}

// Rules revisions. A fix that changes what a logged move leads to gets a new
// revision; games started before it keep the old behaviour.
const (
	// Revision1 is the first release.
	Revision1 = 1
	// Revision2 refills empty face-up slots as soon as cards are available
	// again, and shuffles the setup tickets returned by all players together
	// before they go under the deck (Mega Europe, Big Cities).
	Revision2 = 2
	// LatestRevision is what new games use.
	LatestRevision = Revision2
)

// Game is the whole state of a game. It is mutated by Apply; Clone copies it.
type Game struct {
	board   *data.Board
	variant *data.Variant
	cfg     Config
	rng     rng

	players []Player
	phase   Phase
	current int
	turn    int // turns completed

	deck    []Card // top is the end
	discard []Card
	faceUp  []Card // NoCard marks an empty slot

	// tickets[0] is the regular (short) deck, tickets[1] the long one; the top
	// is the end.
	tickets [2][]data.TicketID

	owner     []int8 // per track: seat or -1
	station   []int8 // per city: seat or -1
	passenger []int8 // per city: seat of the passenger standing there, or -1
	goods     []int8 // per city: goods tokens taken so far

	// setupReturned collects the tickets returned during setup that go under
	// the deck once everyone has chosen (Revision2).
	setupReturned []data.TicketID

	tunnel tunnelState
	// finalTurns counts the turns left once a player's trains fell to
	// EndTrains or fewer; -1 before.
	finalTurns int
	// passes counts the passes in a row; a whole round of them ends the game.
	passes int
	final  *FinalScore

	log []Move
	// logBuf is storage CloneInto owns for the log of a game it copies
	// into, so that a search's playouts append to it without allocating.
	logBuf []Move

	// events collects what Apply narrates; nil when not narrating.
	events   []Event
	narrate  bool
	lastMove lastMove
}

// Move is one applied action, as kept in the game's log.
type Move struct {
	Seat   int
	Action Action
}

// Player is one seat's state.
type Player struct {
	Hand     Hand
	Tickets  []data.TicketID
	Pending  []data.TicketID // drawn, not yet kept
	Trains   int
	Stations int // stations left to build
	// Score is the running score: route points and goods collected.
	Score          int
	Goods          []int // goods token values collected (Märklin)
	PassengersLeft int   // passengers not yet placed (Märklin)
	PassengersUsed int   // passengers moved and gone

	setupStep   int  // index of the setup step being chosen
	setupKept   int  // tickets kept during setup so far
	setupNeedMx bool // must announce a mix before the step's tickets are dealt
	givenBack   []givenBack
	// shown counts the cards the table saw the player take face up and
	// has not seen it play since: a lower bound of its hand that everyone
	// knows.
	shown Hand
	// gaveUp is the tunnel the player gave up on its turn just past
	// (gaveUpSet), which everyone saw: cleared by its next move.
	gaveUp    data.TrackID
	gaveUpSet bool
}

// tunnelState is a tunnel claim waiting for its extra cards. The cards
// played stay in the hand until the claim completes.
type tunnelState struct {
	claim    Action
	revealed []Card
	extra    int
}

type lastMove struct {
	seat   int
	tracks []data.TrackID
	cities []data.CityID
}

// New sets up a game: shuffles, deals cards and the initial tickets.
func New(cfg Config) (*Game, error) {
	b := cfg.Board
	if b == nil {
		return nil, fmt.Errorf("no board")
	}
	if cfg.Players < 2 || cfg.Players > 5 {
		//lint:ignore ST1005 the message starts with the game's name, which is capitalised
		return nil, fmt.Errorf("Ticket to Ride is played by 2 to 5 players, not %d", cfg.Players)
	}
	var v *data.Variant
	if cfg.Variant == "" {
		if len(b.Variants) == 0 {
			return nil, fmt.Errorf("board %s has no variant", b.ID)
		}
		v = &b.Variants[0]
	} else {
		var ok bool
		if v, ok = b.Variant(cfg.Variant); !ok {
			ids := ""
			for i, vv := range b.Variants {
				if i > 0 {
					ids += ", "
				}
				ids += vv.ID
			}
			return nil, fmt.Errorf("the %s board has no variant %q (variants: %s)", b.ID, cfg.Variant, ids)
		}
	}
	if cfg.Revision == 0 {
		cfg.Revision = LatestRevision
	}
	if cfg.Revision < Revision1 || cfg.Revision > LatestRevision {
		return nil, fmt.Errorf("rules revision %d is unknown (this version knows 1 to %d): update Conductor", cfg.Revision, LatestRevision)
	}
	if cfg.BonusTickets && b.DeckSize("bonus") == 0 {
		return nil, fmt.Errorf("the %s board has no bonus tickets: their list is not published, so the bonus-tickets option has nothing to add; give a deck file with tickets marked \"bonus\" (--tickets FILE) to play with them", b.ID)
	}
	g := &Game{board: b, variant: v, cfg: cfg, rng: newRNG(cfg.Seed), finalTurns: -1}
	r := &b.Rules
	g.players = make([]Player, cfg.Players)
	for i := range g.players {
		p := &g.players[i]
		p.Trains = r.Trains
		p.Stations = r.Stations
		p.PassengersLeft = r.Passengers
	}
	g.owner = filled(len(b.Tracks))
	g.station = filled(len(b.Cities))
	g.passenger = filled(len(b.Cities))
	g.goods = make([]int8, len(b.Cities))

	// Train cards.
	g.deck = make([]Card, 0, r.Cards.Total())
	for _, c := range data.CardColors {
		for range r.Cards.Colors {
			g.deck = append(g.deck, ColorCard(c))
		}
	}
	g.deck = appendN(g.deck, Locomotive, r.Cards.Locomotives)
	g.deck = appendN(g.deck, Locomotive4, r.Cards.Locomotives4)
	g.deck = appendN(g.deck, Passenger, r.Cards.Passengers)
	shuffle(&g.rng, g.deck)
	g.discard = make([]Card, 0, len(g.deck))
	for range r.Hand {
		for i := range g.players {
			g.players[i].Hand[g.popDeck()]++
		}
	}
	g.faceUp = make([]Card, r.FaceUp)
	for i := range g.faceUp {
		g.faceUp[i] = g.popDeck()
	}
	g.checkFlush()

	// Tickets.
	for _, t := range b.Tickets {
		if v.Uses(&t) || (cfg.BonusTickets && t.Deck == "bonus") {
			pile := 0
			if t.Long {
				pile = 1
			}
			g.tickets[pile] = append(g.tickets[pile], t.ID)
		}
	}
	shuffle(&g.rng, g.tickets[0])
	shuffle(&g.rng, g.tickets[1])
	if len(v.Setup) == 0 {
		g.phase = PhaseTurn
		return g, nil
	}
	for i := range g.players {
		g.startSetupStep(i)
	}
	return g, nil
}

func filled(n int) []int8 {
	s := make([]int8, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

func appendN(s []Card, c Card, n int) []Card {
	for range n {
		s = append(s, c)
	}
	return s
}

// Board returns the board being played.
func (g *Game) Board() *data.Board { return g.board }

// Variant returns the variant being played.
func (g *Game) Variant() *data.Variant { return g.variant }

// Config returns the configuration the game was created with.
func (g *Game) Config() Config { return g.cfg }

// Phase returns where the game stands.
func (g *Game) Phase() Phase { return g.phase }

// Current returns the seat whose turn it is.
func (g *Game) Current() int { return g.current }

// ToAct returns the seat whose action the game waits for next: the current
// seat, or during setup, which every seat plays at once, the first seat that
// has not chosen its tickets yet. Whoever plays a game alone (bots, tests,
// the arena) asks it which seat to move; a table also asks every seat that
// still owes its setup (SetupDone). Once the game is over, nobody acts: -1.
func (g *Game) ToAct() int {
	switch g.phase {
	case PhaseOver:
		return -1
	case PhaseSetup:
		for s := range g.players {
			if !g.SetupDone(s) {
				return s
			}
		}
	}
	return g.current
}

// NumPlayers counts the seats.
func (g *Game) NumPlayers() int { return len(g.players) }

// Player returns a seat's state. Callers must not modify it.
func (g *Game) Player(seat int) *Player { return &g.players[seat] }

// Owner returns the seat holding a track, or -1.
func (g *Game) Owner(t data.TrackID) int { return int(g.owner[t]) }

// StationAt returns the seat with a station on a city, or -1.
func (g *Game) StationAt(c data.CityID) int { return int(g.station[c]) }

// PassengerAt returns the seat whose passenger stands on a city, or -1.
func (g *Game) PassengerAt(c data.CityID) int { return int(g.passenger[c]) }

// GoodsLeft returns the goods tokens left on a city, top first.
func (g *Game) GoodsLeft(c data.CityID) []int {
	return g.board.Cities[c].GoodsStack[g.goods[c]:]
}

// FaceUp returns the face-up display.
func (g *Game) FaceUp() []Card { return g.faceUp }

// DeckSize and DiscardSize count the train cards in the piles.
func (g *Game) DeckSize() int    { return len(g.deck) }
func (g *Game) DiscardSize() int { return len(g.discard) }

// TicketDeckSize counts the tickets left in the regular (0) or long (1) deck.
func (g *Game) TicketDeckSize(pile int) int { return len(g.tickets[pile]) }

// Log returns the moves applied so far.
func (g *Game) Log() []Move { return g.log }

// Turn counts the turns completed.
func (g *Game) Turn() int { return g.turn }

// LastRound reports whether the final round has begun, and how many turns remain.
func (g *Game) LastRound() (bool, int) { return g.finalTurns >= 0, g.finalTurns }

// Final returns the final scoring once the game is over, else nil.
func (g *Game) Final() *FinalScore { return g.final }

// TunnelReveal returns the cards revealed for a pending tunnel and the extra
// cards asked for.
func (g *Game) TunnelReveal() (track data.TrackID, revealed []Card, extra int, ok bool) {
	if g.phase != PhaseTunnel {
		return 0, nil, 0, false
	}
	return g.tunnel.claim.Track, g.tunnel.revealed, g.tunnel.extra, true
}

// Clone returns an independent copy of the game (bots explore with it).
// The copy does not narrate and shares the (immutable) log prefix.
func (g *Game) Clone() *Game {
	c := *g
	c.players = make([]Player, len(g.players))
	for i, p := range g.players {
		p.Tickets = append([]data.TicketID(nil), p.Tickets...)
		p.Pending = append([]data.TicketID(nil), p.Pending...)
		p.Goods = append([]int(nil), p.Goods...)
		p.givenBack = append([]givenBack(nil), p.givenBack...)
		c.players[i] = p
	}
	c.deck = append(make([]Card, 0, cap(g.deck)), g.deck...)
	c.discard = append(make([]Card, 0, cap(g.discard)), g.discard...)
	c.faceUp = append([]Card(nil), g.faceUp...)
	c.tickets[0] = append([]data.TicketID(nil), g.tickets[0]...)
	c.tickets[1] = append([]data.TicketID(nil), g.tickets[1]...)
	c.owner = append([]int8(nil), g.owner...)
	c.station = append([]int8(nil), g.station...)
	c.passenger = append([]int8(nil), g.passenger...)
	c.goods = append([]int8(nil), g.goods...)
	c.tunnel.revealed = append([]Card(nil), g.tunnel.revealed...)
	c.setupReturned = append([]data.TicketID(nil), g.setupReturned...)
	c.log = g.log[:len(g.log):len(g.log)]
	if g.logBuf != nil {
		// g's log lives in storage a later CloneInto overwrites: copy it.
		c.log = append([]Move(nil), g.log...)
	}
	c.logBuf = nil
	c.events, c.narrate = nil, false
	return &c
}

// CloneInto makes dst an independent copy of g, reusing dst's storage: a
// search cloning thousands of games a second allocates nothing once dst
// has grown. dst does not narrate; its log is a copy in storage it owns.
func (g *Game) CloneInto(dst *Game) {
	players, deck, discard, faceUp := dst.players, dst.deck, dst.discard, dst.faceUp
	t0, t1, owner, station, passenger, goods := dst.tickets[0], dst.tickets[1], dst.owner, dst.station, dst.passenger, dst.goods
	revealed, returned, logBuf := dst.tunnel.revealed, dst.setupReturned, dst.logBuf
	*dst = *g
	if cap(players) < len(g.players) {
		players = make([]Player, len(g.players))
	}
	players = players[:len(g.players)]
	for i := range g.players {
		p := g.players[i]
		q := &players[i]
		p.Tickets = append(q.Tickets[:0], p.Tickets...)
		p.Pending = append(q.Pending[:0], p.Pending...)
		p.Goods = append(q.Goods[:0], p.Goods...)
		p.givenBack = append(q.givenBack[:0], p.givenBack...)
		*q = p
	}
	dst.players = players
	dst.deck = append(deck[:0], g.deck...)
	dst.discard = append(discard[:0], g.discard...)
	dst.faceUp = append(faceUp[:0], g.faceUp...)
	dst.tickets[0] = append(t0[:0], g.tickets[0]...)
	dst.tickets[1] = append(t1[:0], g.tickets[1]...)
	dst.owner = append(owner[:0], g.owner...)
	dst.station = append(station[:0], g.station...)
	dst.passenger = append(passenger[:0], g.passenger...)
	dst.goods = append(goods[:0], g.goods...)
	dst.tunnel.revealed = append(revealed[:0], g.tunnel.revealed...)
	dst.setupReturned = append(returned[:0], g.setupReturned...)
	if cap(logBuf) < len(g.log)+256 {
		logBuf = make([]Move, 0, 2*len(g.log)+512)
	}
	dst.log = append(logBuf[:0], g.log...)
	dst.logBuf = dst.log[:0]
	dst.events, dst.narrate = nil, false
	dst.final = nil
	if g.final != nil {
		f := *g.final
		dst.final = &f
	}
}
