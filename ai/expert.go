package ai

import (
	"context"
	"math"
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
// candidate meets the same sampled worlds, so their differences are
// differences of the move. It keeps hard's move unless another is better
// by the margin.
//
// The search is a race (race): round after round of worlds, a candidate
// whose paired difference from the leader is clearly negative drops out,
// and the race ends when the verdict is clear, when the effort budget is
// spent or at maxWorlds: close decisions get many worlds, clear ones few.
// The budget counts the decisions made in the playouts, not the clock, so
// a decision is the same on a loaded machine as on an idle one; a wall
// clock deadline is a safety net only.
//
// It searches only near the end (some player down to endTrains trains):
// there the playouts are short and their verdicts sound, while self-play
// showed its mid-game departures from hard losing more games than they
// won. Its playouts are played by hard at every seat (hardRoll), each
// seat from its own view of the world: a rollout improvement of hard.
// At a full table its own moves, and its seat in the playouts, take three
// knobs of hard's that win one hard more against hards (tableOptions).
//
// It never reads the real game: the games it plays out are its own, built
// from the view it is handed.
type expert struct {
	hard   *plannerBot // the level's move, planned afresh
	roller *plannerBot // hard in the playouts, keeping plans between moves
	// tableKnobs: at a full table (fullTable) the expert's own moves are
	// tableHard's, and its playouts play its seat as ownRoller, the same
	// knobs with the roller's samples: a search must model its own seat as
	// it moves.
	tableKnobs           bool
	tableHard, ownRoller *plannerBot
	seed                 uint64
	// maxWorlds bounds the determinisations of a decision; round is the
	// worlds every live candidate meets between two verdicts.
	maxWorlds, round int
	// effort is the playouts' budget a decision: the decisions made in
	// them (hard playouts) or their steps (fast policy).
	effort int
	// deadline is the wall clock safety cap of a decision (0: none),
	// checked after each world.
	deadline time.Duration
	margin   float64 // how much better than hard's move a candidate must be
	// departZ is how many standard errors of the paired difference the
	// best candidate must clear hard's move by, beyond the margin, to be
	// played (0: its mean beating the margin is enough).
	departZ float64
	// contest adds the claims the other seats' inferred tickets want most
	// (ticketReader.demand), up to this many (at most 4), to the
	// candidates of a turn.
	contest int
	// pathClaim adds to a turn's candidates, on a board with a longest
	// path bonus, the claim that lengthens the seat's longest path most:
	// neither hard's plan nor the longest claims aim at the bonus.
	pathClaim bool
	paths     engine.PathSearch // pathLengthening's
	own       []data.TrackID    // pathLengthening's
	// endTrains: the expert searches only once some player has this many
	// trains or fewer; before, it plays hard's move.
	endTrains int
	// secondDraw searches the second card of a draw too, once the end
	// nears: near the end it matters as much as the first.
	secondDraw bool
	// allKeeps searches every choice of drawn tickets, however early.
	allKeeps bool
	// setup searches the choice of the initial tickets (searchesSetup),
	// with setupEffort shared by the seats as its budget.
	setup       bool
	setupEffort int
	// setupAnySize searches the setup at any table size (3 to 5 seats
	// otherwise, minSetupSeats to maxSetupSeats), for measurements.
	setupAnySize bool
	// hardRoll plays the candidates out with hard at every seat (each
	// seeing only its own view of the expert's game) instead of the fast
	// rollout policy: slower, but its verdicts are about how hard would go
	// on, so the search improves on hard's own move.
	hardRoll bool
	// reader gives the odds the other seats' tickets are dealt by.
	reader *ticketReader
	// peek, for measurements only, replaces the reader's odds: the tuning
	// harness's oracle, which knows the real tickets, bounds what better
	// inference could gain. A table's expert never has one.
	peek    engine.TicketOdds
	legal   []engine.Action   // playHard's buffer
	view    engine.PlayerView // playHard's view, filled again for each move
	trips   engine.TripSearch // playHard's passengers' trips
	scratch engine.Game
	roll    *rollout
	board   *data.Board
	spent   int                      // effort spent in this decision
	vals    [maxCandidates][]float64 // by candidate, by world
	stats   searchStats
}

// searchStats counts what the searches did, for measurements.
type searchStats struct {
	Searches, Worlds, Playouts, Effort, Departures int
}

func newExpert(seed uint64) *expert {
	return &expert{hard: newPlannerBot(hardOptions), roller: newRoller(), seed: seed,
		tableKnobs: true, tableHard: newPlannerBot(tableOptions), ownRoller: newTableRoller(),
		maxWorlds: 256, round: 8, effort: defaultEffort, deadline: 1400 * time.Millisecond,
		margin: 0.03, endTrains: 15, hardRoll: true, pathClaim: true, secondDraw: true, setup: true, setupEffort: setupEffort}
}

// defaultEffort is the playouts' budget of a decision, in decisions made
// in them: about a second on one core.
const defaultEffort = 16000

// raceZ is how many standard errors of the paired difference make a
// verdict clear.
const raceZ = 2.0

// newRoller is hard as the playouts play it: keeping each seat's plan
// while it holds (planKeeper).
func newRoller() *plannerBot {
	p := newPlannerBot(rollerOptions)
	p.keep = newPlanKeeper(0) // a plan serves until something it was made from changes
	return p
}

// tableOptions are hard's with three knobs that each win one hard about
// a point against three hards at 4 and 5 seats, 1–2 points together
// (bots-measurements.md, "The expert's own moves"): a ticket draw must
// promise 2 points more a seat beyond two, a ready track's length weighs
// 2 against its detour if lost, and a colour penalty of 0.15. In the
// expert's moves alone they gained nothing; with its seat in the playouts
// played with them too, +1.5 ± 1.1 points over six runs at 4 and 5 seats
// ("The expert's own seat played with hard's table knobs"). Hard keeps its
// own knobs: they would raise the bar the expert is measured against.
var tableOptions = func() options {
	o := hardOptions
	o.drawPerSeat, o.claimLength, o.model.colorPenalty = 2, 2, 0.15
	return o
}()

// fullTable reports whether the expert plays tableOptions: at 4 and 5
// seats, where they were measured to gain, on a board without a
// most-tickets bonus (there a ticket draw is worth more than its
// tickets' points, and asking more of one lost 2.9 points on Märklin).
func fullTable(b *data.Board, players int) bool {
	return players >= 4 && b.Rules.MostTicketsBonus == 0
}

// tableKnobsAt reports whether the expert plays its table knobs on board
// b at a table of players seats.
func (e *expert) tableKnobsAt(b *data.Board, players int) bool {
	return e.tableKnobs && fullTable(b, players)
}

// newTableRoller is the expert's own seat in its playouts at a full
// table: its moves' knobs (tableOptions), the roller's samples and kept
// plans.
func newTableRoller() *plannerBot {
	o := tableOptions
	o.drawSamples, o.ticketSamples = rollerOptions.drawSamples, rollerOptions.ticketSamples
	p := newPlannerBot(o)
	p.keep = newPlanKeeper(0)
	return p
}

// mine is the planner of the expert's own moves in v.
func (e *expert) mine(v *engine.PlayerView) *plannerBot {
	if e.tableKnobsAt(v.Board, len(v.Players)) {
		return e.tableHard
	}
	return e.hard
}

// rollerOptions are hard's, with fewer samples in its simulations.
var rollerOptions = func() options {
	o := hardOptions
	o.drawSamples, o.ticketSamples = 12, 40
	return o
}()

// maxCandidates bounds the moves searched: hard's and six others of the
// usual kinds (baseCandidates), then the claim lengthening the longest
// path and the contested claims.
const (
	baseCandidates = 7
	maxCandidates  = baseCandidates + 4
)

func (e *expert) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	return e.decide(context.Background(), v, legal)
}

// decide searches until its budget is spent or ctx is done, whichever
// comes first, and plays the best move found by then.
func (e *expert) decide(ctx context.Context, v engine.PlayerView, legal []engine.Action) engine.Action {
	if e.searchesSetup(&v, legal) {
		return e.chooseSetup(ctx, &v, legal)
	}
	base := e.mine(&v).Choose(v, legal)
	if !e.searchesTurn(&v, legal) {
		return base
	}
	cands := e.candidates(v, legal, base)
	if len(cands) < 2 {
		return base
	}
	if best, ok := e.race(ctx, &v, cands, e.effort, e.round); ok {
		return cands[best]
	}
	return base
}

// searches reports whether the expert searches this decision rather than
// playing hard's move: its initial tickets at a full table
// (searchesSetup), then, once the end nears, its turns, the second cards
// of its draws and its ticket choices, how to pay a move chosen excepted
// (hard's way).
func (e *expert) searches(v *engine.PlayerView, legal []engine.Action) bool {
	return e.searchesSetup(v, legal) || e.searchesTurn(v, legal)
}

// searchesTurn reports whether the expert searches a turn, the second
// card of a draw (with secondDraw) or a choice of drawn tickets: once the
// end nears.
func (e *expert) searchesTurn(v *engine.PlayerView, legal []engine.Action) bool {
	searched := v.Phase == engine.PhaseTurn || v.Phase == engine.PhaseKeepTickets ||
		v.Phase == engine.PhaseSecondDraw && e.secondDraw
	if len(legal) < 2 || !searched {
		return false
	}
	if _, _, pay := paymentChoice(legal); pay {
		return false
	}
	return fewestTrains(v) <= e.endTrains || (e.allKeeps && v.Phase == engine.PhaseKeepTickets)
}

// fewestTrains is the fewest trains any player has left: the end nears
// as it falls.
func fewestTrains(v *engine.PlayerView) int {
	fewest := 1 << 30
	for _, p := range v.Players {
		fewest = min(fewest, p.Trains)
	}
	return fewest
}

// race plays the candidates out world by world, round after round of
// worlds, until effort is spent, and returns the one to play (0 is hard's
// move); false when no world could be built.
func (e *expert) race(ctx context.Context, v *engine.PlayerView, cands []engine.Action, effort, round int) (int, bool) {
	e.prepare(v)
	odds := e.reader.read(v, sharpness(v.Board))
	if e.peek != nil {
		odds = e.peek
	}
	// The same view gives the same worlds: the seed mixes the expert's own
	// seed with public facts of the position.
	mix := e.seed*0x9e3779b97f4a7c15 ^ uint64(v.Turn)*0xbf58476d1ce4e5b9 ^ uint64(v.Deck)<<20 ^ uint64(v.Phase)
	start := time.Now()
	e.spent = 0
	e.stats.Searches++
	var alive [maxCandidates]int
	n := len(cands)
	for i := range n {
		alive[i] = i
		e.vals[i] = e.vals[i][:0]
	}
	live := alive[:n]
	played := 0
	for played < e.maxWorlds {
		over := false
		for end := min(e.maxWorlds, played+round); played < end && !over; played++ {
			g, err := engine.DeterminizeWeighted(*v, mix+uint64(played)*0x94d049bb133111eb, odds)
			if err != nil {
				return 0, false
			}
			for _, c := range live {
				e.vals[c] = append(e.vals[c], e.playout(g, v.Seat, cands[c], mix+uint64(played)))
			}
			e.stats.Worlds++
			e.stats.Playouts += len(live)
			// Checked after each world, every live candidate having met
			// it: the time cap, or ctx (a server shutting down).
			over = ctx.Err() != nil || (e.deadline > 0 && time.Since(start) > e.deadline)
		}
		if over || e.spent >= effort {
			break
		}
		var done bool
		live, done = e.verdict(live, played)
		if done {
			break
		}
	}
	e.stats.Effort += e.spent
	best := 0
	for _, c := range live {
		if mean(e.vals[c][:played]) > mean(e.vals[best][:played]) {
			best = c
		}
	}
	if best != 0 && e.departs(e.vals[best][:played], e.vals[0][:played]) {
		e.stats.Departures++
		return best, true
	}
	return 0, true
}

// departs reports whether a candidate's values beat hard's by the
// margin, and by departZ standard errors beyond it when that is set
// (apart, because a search cut short after one world has an infinite
// standard error).
func (e *expert) departs(cand, hard []float64) bool {
	if e.departZ == 0 {
		return mean(cand)-mean(hard) > e.margin
	}
	d, se := pairedDiff(cand, hard)
	return d-e.margin > e.departZ*se
}

// prepare sizes the expert's helpers for v's board and table.
func (e *expert) prepare(v *engine.PlayerView) {
	if e.roll == nil || e.board != v.Board || len(e.roll.want) != len(v.Players) {
		e.roll = newRollout(v.Board, len(v.Players), 1)
		e.reader = newTicketReader(v.Board)
		e.board = v.Board
	}
}

// verdict drops the candidates clearly worse than the leader over the
// first played worlds (hard's move, 0, stays), and reports whether the
// race is decided: hard's move alone, or one rival clearly better or
// clearly no better by the margin.
func (e *expert) verdict(live []int, played int) ([]int, bool) {
	lead := live[0]
	for _, c := range live {
		if mean(e.vals[c][:played]) > mean(e.vals[lead][:played]) {
			lead = c
		}
	}
	next := live[:0]
	for _, c := range live {
		if c != 0 && c != lead {
			if d, se := pairedDiff(e.vals[c][:played], e.vals[lead][:played]); d+raceZ*se < 0 {
				continue
			}
		}
		next = append(next, c)
	}
	switch len(next) {
	case 1:
		return next, true
	case 2:
		d, se := pairedDiff(e.vals[next[1]][:played], e.vals[0][:played])
		if d-e.margin > raceZ*se || d-e.margin+raceZ*se < 0 {
			return next, true
		}
	}
	return next, false
}

// pairedDiff is the mean of x−y over the worlds and its standard error.
func pairedDiff(x, y []float64) (float64, float64) {
	n := float64(len(x))
	if n < 2 {
		return 0, math.Inf(1)
	}
	sum, sq := 0.0, 0.0
	for i := range x {
		d := x[i] - y[i]
		sum += d
		sq += d * d
	}
	m := sum / n
	v := max(0, sq/n-m*m) * n / (n - 1)
	return m, math.Sqrt(v / n)
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// playout applies a to a copy of world and plays it out; the value is a
// win (1), a share of a shared win or a loss (0), plus a little for the
// margin to the best other seat.
func (e *expert) playout(world *engine.Game, seat int, a engine.Action, stream uint64) float64 {
	world.CloneInto(&e.scratch)
	g := &e.scratch
	if err := g.Play(seat, a); err != nil {
		return -1
	}
	e.roll.rng = stream*0x2545f4914f6cdd1d | 1
	if e.hardRoll {
		e.playHard(g, seat)
	} else {
		e.spent += e.roll.play(g)
	}
	f := g.Final()
	if f == nil {
		return 0
	}
	win := 0.0
	if f.Places[seat] == 1 {
		first := 0
		for _, p := range f.Places {
			if p == 1 {
				first++
			}
		}
		win = 1 / float64(first) // a shared win is shared
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
// with hard at every seat, each choosing from its own view of g (the
// setup's seats in turn); at a full table the expert's own seat, seat,
// plays as the expert's own moves do (ownRoller).
func (e *expert) playHard(g *engine.Game, seat int) {
	e.roller.keep.forget()
	e.ownRoller.keep.forget()
	own := e.roller
	if e.tableKnobsAt(g.Board(), g.NumPlayers()) {
		own = e.ownRoller
	}
	for steps := 0; g.Phase() != engine.PhaseOver && steps < maxSteps; steps++ {
		e.spent++
		s := g.ToAct()
		e.legal = g.LegalActionsWith(s, e.legal[:0], &e.trips)
		if len(e.legal) == 0 {
			return
		}
		g.ViewInto(s, &e.view)
		r := e.roller
		if s == seat {
			r = own
		}
		if g.Play(s, r.choose(&e.view, e.legal)) != nil {
			return
		}
	}
}

// candidates returns hard's move first, then a few alternatives: a draw
// of short tickets, the richest passenger trip, the longest claims
// (cheapest payment), the blind draw and the face-up cards, then the claim
// that lengthens the longest path most; or, choosing tickets, keeping all
// or the fewest.
func (e *expert) candidates(v engine.PlayerView, legal []engine.Action, base engine.Action) []engine.Action {
	out := []engine.Action{base}
	// addUpTo appends a move not yet among the candidates while they are
	// fewer than limit.
	addUpTo := func(limit int, a engine.Action) {
		if len(out) < limit && !slices.ContainsFunc(out, func(b engine.Action) bool { return sameMove(a, b) }) {
			out = append(out, a)
		}
	}
	add := func(a engine.Action) { addUpTo(baseCandidates, a) }
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
	// A draw of tickets, and the richest passenger trip (Märklin): hard
	// seldom draws tickets once its plan is built, and moves a passenger
	// early only for a rich trip, but near the end short tickets the
	// network already joins, and trips made before an opponent's, win
	// games (docs/bots-measurements.md, "Tickets and trips searched").
	if a, ok := shortTicketDraw(legal); ok {
		add(a)
	}
	if a, ok := richestTrip(&v, legal); ok {
		add(a)
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
	// Beyond the usual seven: the claim lengthening the longest path, then
	// the contested claims.
	if a, ok := e.pathLengthening(&v, claims); ok {
		addUpTo(maxCandidates, a)
	}
	for _, a := range e.contested(&v, legal) {
		addUpTo(maxCandidates, a)
	}
	return out
}

// contested returns, with contest set, the claims (cheapest payment) of
// the tracks the other seats' inferred tickets want most (ticketReader's
// demand), most wanted first: taken first, they are neither lost nor left
// to an opponent.
func (e *expert) contested(v *engine.PlayerView, legal []engine.Action) []engine.Action {
	if e.contest <= 0 {
		return nil
	}
	e.prepare(v)
	e.reader.read(v, sharpness(v.Board))
	var best [4]engine.Action
	var score [4]float64
	limit := min(e.contest, len(best))
	n := 0
	for _, a := range legal {
		if a.Kind != engine.ActClaim || a.Passenger {
			continue
		}
		d := e.reader.demand[a.Track]
		if d <= 0.05 {
			continue
		}
		k := 0
		for k < n && best[k].Track != a.Track {
			k++
		}
		if k < n {
			if a.Locos+a.Locos4 < best[k].Locos+best[k].Locos4 {
				best[k] = a // the cheapest payment
			}
			continue
		}
		at := n
		for at > 0 && d > score[at-1] {
			at--
		}
		if at < limit {
			copy(best[at+1:], best[at:])
			copy(score[at+1:], score[at:])
			best[at], score[at] = a, d
			n = min(n+1, limit)
		}
	}
	return best[:n]
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

// sortBy sorts s by key, stably.
func sortBy[T any](s []T, key func(T) float64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && key(s[j]) < key(s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// pathLengthening is the claim of claims (one a track) that lengthens the
// seat's longest path most, with pathClaim set on a board with the bonus;
// false when none lengthens it.
func (e *expert) pathLengthening(v *engine.PlayerView, claims []engine.Action) (engine.Action, bool) {
	if !e.pathClaim || v.Board.Rules.LongestPathBonus == 0 {
		return engine.Action{}, false
	}
	e.own = e.own[:0]
	for t, o := range v.Owners {
		if int(o) == v.Seat {
			e.own = append(e.own, data.TrackID(t))
		}
	}
	n := len(e.own)
	longest, _ := e.paths.Longest(v.Board, e.own)
	var best engine.Action
	found := false
	for _, c := range claims {
		e.own = append(e.own[:n], c.Track)
		if l, _ := e.paths.Longest(v.Board, e.own); l > longest {
			best, longest, found = c, l, true
		}
	}
	return best, found
}
