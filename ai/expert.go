package ai

import (
	"slices"
	"time"

	"conductor/data"
	"conductor/engine"
)

// expert is the search level. It asks hard for its move, adds a few
// alternatives of other kinds, and plays each candidate out over games
// determinised from its own view (engine.DeterminizeWeighted: only what
// its seat cannot see is resampled, the other seats' tickets by the odds
// their tracks give, ticketReader), with common random numbers: every
// candidate meets the same sampled worlds and the same rollout streams, so
// their differences are differences of the move. Successive halving spends
// the playouts on the candidates still in the race. It keeps hard's move
// unless another is better by the margin.
//
// It searches only near the end (some player down to endTrains trains):
// there the playouts are short and their verdicts sound, while self-play
// showed its mid-game departures from hard losing more games than they
// won (the fast policy is too far from how hard plays). Its playouts are
// played by hard at every seat (hardRoll): a rollout improvement of hard.
//
// It never reads the real game: the games it plays out are its own, built
// from the view it is handed.
type expert struct {
	hard   *plannerBot // the level's move, planned afresh
	roller *plannerBot // hard in the playouts, keeping plans between moves
	seed   uint64
	worlds int           // determinisations per decision
	budget time.Duration // safety cap (wall clock) per decision
	margin float64       // how much better than hard's move a candidate must be
	// endTrains: the expert searches only once some player has this many
	// trains or fewer; before, it plays hard's move.
	endTrains int
	// hardRoll plays the candidates out with hard at every seat (each
	// seeing only its own view of the expert's game) instead of the fast
	// rollout policy: slower, but its verdicts are about how hard would go
	// on, so the search improves on hard's own move.
	hardRoll bool
	// reader gives the odds the other seats' tickets are dealt by.
	reader  *ticketReader
	legal   []engine.Action   // playHard's buffer
	view    engine.PlayerView // playHard's view, filled again for each move
	scratch engine.Game
	roll    *rollout
	board   *data.Board
}

func newExpert(seed uint64) *expert {
	return &expert{hard: newPlannerBot(hardOptions), roller: newRoller(), seed: seed, worlds: 64, budget: 1200 * time.Millisecond,
		margin: 0.03, endTrains: 15, hardRoll: true}
}

// newRoller is hard as the playouts play it: keeping each seat's plan
// while it holds (planKeeper).
func newRoller() *plannerBot {
	p := newPlannerBot(rollerOptions)
	p.keep = newPlanKeeper(rollerMaxAge)
	return p
}

// rollerMaxAge is how many decisions a kept plan serves at most.
var rollerMaxAge = 0

// rollerOptions are hard's, with fewer samples in its simulations.
var rollerOptions = func() options {
	o := hardOptions
	o.drawSamples, o.ticketSamples = 12, 40
	return o
}()

// maxCandidates bounds the moves searched.
const maxCandidates = 7

func (e *expert) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	base := e.hard.Choose(v, legal)
	if len(legal) < 2 || (v.Phase != engine.PhaseTurn && v.Phase != engine.PhaseKeepTickets) {
		return base
	}
	fewest := 1 << 30
	for _, p := range v.Players {
		fewest = min(fewest, p.Trains)
	}
	if fewest > e.endTrains {
		return base
	}
	cands := e.candidates(v, legal, base)
	if len(cands) < 2 {
		return base
	}
	if e.roll == nil || e.board != v.Board || len(e.roll.want) != len(v.Players) {
		e.roll = newRollout(v.Board, len(v.Players), 1)
		e.reader = newTicketReader(v.Board)
		e.board = v.Board
	}
	odds := e.reader.read(&v, sharpness(v.Board))
	// The same view gives the same worlds: the seed mixes the expert's own
	// seed with public facts of the position.
	mix := e.seed*0x9e3779b97f4a7c15 ^ uint64(v.Turn)*0xbf58476d1ce4e5b9 ^ uint64(v.Deck)<<20 ^ uint64(v.Phase)
	worlds := make([]*engine.Game, 0, e.worlds)
	for w := range e.worlds {
		g, err := engine.DeterminizeWeighted(v, mix+uint64(w)*0x94d049bb133111eb, odds)
		if err != nil {
			return base
		}
		worlds = append(worlds, g)
	}
	start := time.Now()
	sum := make([]float64, len(cands))
	alive := make([]int, len(cands))
	for i := range alive {
		alive[i] = i
	}
	played := 0
	// Successive halving: each round plays every live candidate over the
	// next worlds, then the worse half drops out (hard's move stays).
	per := e.worlds / 4
	for round := 0; played < e.worlds && len(alive) > 0; round++ {
		end := min(e.worlds, played+per)
		over := false
		// World by world, so that the time cap (checked after each world,
		// every live candidate having met it) cuts a round short.
		for w := played; w < end && !over; w++ {
			for _, c := range alive {
				sum[c] += e.playout(worlds[w], v.Seat, cands[c], mix+uint64(w))
			}
			played = w + 1
			over = time.Since(start) > e.budget
		}
		if over {
			break
		}
		if len(alive) > 2 {
			keep := (len(alive) + 1) / 2
			sortBy(alive, func(i int) float64 { return -sum[i] })
			next := alive[:keep]
			if !contains(next, 0) {
				next = append(next, 0)
			}
			alive = next
		}
	}
	best := 0
	for _, c := range alive {
		if sum[c] > sum[best] {
			best = c
		}
	}
	if best != 0 && (sum[best]-sum[0])/float64(played) > e.margin {
		return cands[best]
	}
	return base
}

// playout applies a to a copy of world and plays it out; the value is a
// win (1), a shared win (0.5) or a loss (0), plus a little for the margin.
func (e *expert) playout(world *engine.Game, seat int, a engine.Action, stream uint64) float64 {
	world.CloneInto(&e.scratch)
	g := &e.scratch
	if err := g.Play(seat, a); err != nil {
		return -1
	}
	e.roll.rng = stream*0x2545f4914f6cdd1d | 1
	if e.hardRoll {
		e.playHard(g)
	} else {
		e.roll.play(g)
	}
	f := g.Final()
	if f == nil {
		return 0
	}
	win := 0.0
	if f.Places[seat] == 1 {
		win = 1
		for i, p := range f.Places {
			if i != seat && p == 1 {
				win = 0.5
			}
		}
	}
	mine, other := f.Players[seat].Total, -1<<30
	for i, p := range f.Players {
		if i != seat {
			other = max(other, p.Total)
		}
	}
	m := float64(mine-other) / 100
	return win + max(-0.3, min(0.3, m))
}

// playHard plays g, a game the expert built from its own view, to its end
// with hard at every seat, each choosing from its own view of g.
func (e *expert) playHard(g *engine.Game) {
	e.roller.keep.forget()
	for steps := 0; g.Phase() != engine.PhaseOver && steps < maxSteps; steps++ {
		s := g.Current()
		e.legal = g.LegalActions(s, e.legal[:0])
		if len(e.legal) == 0 {
			return
		}
		g.ViewInto(s, &e.view)
		if g.Play(s, e.roller.choose(&e.view, e.legal)) != nil {
			return
		}
	}
}

// candidates returns hard's move first, then a few alternatives: the
// longest claims (cheapest payment), the blind draw and the face-up cards;
// or, choosing tickets, keeping all or the fewest.
func (e *expert) candidates(v engine.PlayerView, legal []engine.Action, base engine.Action) []engine.Action {
	out := []engine.Action{base}
	add := func(a engine.Action) {
		if len(out) >= maxCandidates {
			return
		}
		for _, b := range out {
			if sameMove(a, b) {
				return
			}
		}
		out = append(out, a)
	}
	if v.Phase == engine.PhaseKeepTickets {
		// Keep everything, and keep the fewest (first legal ones).
		var all engine.Action
		for _, a := range legal {
			if a.Kind == engine.ActKeep && popcount(a.Keep) >= popcount(all.Keep) {
				all = a
			}
		}
		add(all)
		for _, a := range legal {
			if popcount(a.Keep) == v.KeepMin {
				add(a)
			}
		}
		return out
	}
	// Claims: the longest first, cheapest payment.
	var claims []engine.Action
	for _, a := range legal {
		if a.Kind != engine.ActClaim {
			continue
		}
		replaced := false
		for i, c := range claims {
			if c.Track == a.Track {
				if a.Locos+a.Locos4 < c.Locos+c.Locos4 {
					claims[i] = a
				}
				replaced = true
				break
			}
		}
		if !replaced {
			claims = append(claims, a)
		}
	}
	sortBy(claims, func(a engine.Action) float64 { return -float64(v.Board.Tracks[a.Track].Length) })
	for i, a := range claims {
		if i >= 3 {
			break
		}
		add(a)
	}
	// Draws compete with a claim of hard's too: the playouts once put
	// claims off too eagerly, but with hard playing them out over 64
	// worlds, drawing first (for the locomotive, or the colour an opponent
	// also needs) wins more games than it loses.
	for _, a := range legal {
		if a.Kind == engine.ActDraw && a.Slot == engine.DeckSlot {
			add(a)
		}
	}
	for _, a := range legal {
		if a.Kind == engine.ActDraw && a.Slot != engine.DeckSlot {
			add(a)
		}
	}
	return out
}

// sameMove reports whether two actions are the same move (the face-up
// slots showing the same card count as one).
func sameMove(a, b engine.Action) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case engine.ActDraw:
		return a.Slot == b.Slot
	case engine.ActClaim:
		return a.Track == b.Track && a.Color == b.Color && a.Locos == b.Locos && a.Locos4 == b.Locos4 && a.Passenger == b.Passenger && a.City == b.City
	case engine.ActKeep:
		return a.Keep == b.Keep
	case engine.ActDrawTickets:
		return a.Long == b.Long
	}
	return a.Track == b.Track && a.City == b.City && a.Color == b.Color && a.Locos == b.Locos && slices.Equal(a.Path, b.Path)
}

func popcount(m uint64) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// sortBy sorts s by key, stably.
func sortBy[T any](s []T, key func(T) float64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && key(s[j]) < key(s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
