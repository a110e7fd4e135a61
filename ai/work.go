package ai

import (
	"math/rand/v2"

	"conductor/data"
	"conductor/engine"
)

// work is a planning bot's scratch space, kept from decision to decision so
// that a decision allocates nothing once its buffers have grown: the
// expert's playouts ask hard for every move of every seat, thousands of
// times a second. Everything in it is rebuilt or reset by each decision
// (the path memo too); nothing in it outlives the decision that filled it.
type work struct {
	b    *data.Board
	view engine.PlayerView // the view decided on (a copy: s.v points here)
	sit  situation

	// base is the cost of every track for the bot's cost model in this
	// decision's situation (costModel.fillBaseCosts), computed once.
	base      []float64
	baseSet   bool
	baseModel *costModel

	planners []*planner // pool, nPlan of them in use this decision
	nPlan    int
	plans    []*plan // pool, nPlans of them in use this decision
	nPlans   int

	r, r2 *router
	memo  pathMemo
	ctx   uint32 // the last cost context handed out (pathMemo keys)

	opts claimSet
	rngs [2]rngSlot // viewRand streams of this decision, by salt
	sim  drawSim
	// drawSamples and ticketSamples set the samples of the draw
	// simulation and of a ticket draw's value (0: the defaults).
	drawSamples, ticketSamples int
	crowd                      float64 // options.crowd

	// Buffers, each for one purpose (named by the function that uses it),
	// so that no two live uses share one.
	goals   []goal              // situation.incomplete
	rest    []goal              // currentPlan, bestKeep: a ticket set
	rest2   []data.TrackID      // claimPlanned, payment: the other claims
	ints    []int               // claimPlanned: ready claims
	acts    []engine.Action     // payClaim, tunnelSpare: plain payments
	legal   []engine.Action     // choose: the legal moves but a tunnel given up (notGivenUp)
	acts2   []engine.Action     // finalTurn: plain payments
	stops   []engine.Action     // buildStation: station options
	net     engine.Connectivity // ticketGain
	joined  engine.Connectivity // marginal
	touches []bool              // routeTargets, by city
	targets []data.TrackID      // routeTargets
	cands   []routeCand         // routeTargets
	inPlan  []bool              // creditHand, by track
	eff     []float64           // marginal
	sources []data.CityID       // marginal
	seen    []bool              // marginal, by city
	pathA   []data.TrackID      // marginal
	pathB   []data.TrackID      // marginal
	path    []data.TrackID      // marginal
	values  [2][]float64        // ticketValues, by pile
	pool    [2][]data.TicketID  // unseen, by pile
	mine    []bool              // unseen, by ticket
	perm    []int               // appendSample
	drawn   []float64           // drawValue
	taken   []int8              // tripPoints, by city
	saved   []float64           // detour
	longest longestWatch        // finalTurn
	group   []data.TrackID      // detour
}

// rngSlot is a viewRand stream of the decision.
type rngSlot struct {
	set  bool   // seed computed for this decision
	seed uint64 // viewSeed
	pcg  rand.PCG
	rand *rand.Rand
}

func newWork() *work {
	return &work{}
}

// begin starts a decision from view v: it sizes the buffers for v's board
// and forgets the previous decision.
func (w *work) begin(v *engine.PlayerView) *situation {
	w.view = *v
	if w.b != v.Board {
		b := v.Board
		w.b = b
		w.base = make([]float64, len(b.Tracks))
		w.r, w.r2 = newRouter(b), newRouter(b)
		w.memo.init(b)
	}
	w.baseSet = false
	w.nPlan, w.nPlans = 0, 0
	w.memo.reset()
	for i := range w.rngs {
		w.rngs[i].set = false
	}
	w.sit.w = w
	w.sit.load(&w.view)
	return &w.sit
}

// viewRand is the decision's random stream for salt (see viewRand): the
// same stream, restarted, each time it is asked for.
func (w *work) viewRand(s *situation, salt uint64) *rand.Rand {
	slot := &w.rngs[0]
	if salt == saltTickets {
		slot = &w.rngs[1]
	} else if salt != saltDraws {
		panic("viewRand: unknown salt")
	}
	if !slot.set {
		slot.seed, slot.set = viewSeed(s.v, salt), true
	}
	h := slot.seed
	slot.pcg.Seed(h, h^0x5bd1e995)
	if slot.rand == nil {
		slot.rand = rand.New(&slot.pcg)
	}
	return slot.rand
}

// baseCosts returns the decision's base costs for model m.
func (w *work) baseCosts(s *situation, m *costModel) []float64 {
	if !w.baseSet || w.baseModel != m {
		m.fillBaseCosts(s, w.base)
		w.baseSet, w.baseModel = true, m
		w.memo.baseCtx = w.newCtx()
	}
	return w.base
}

// newCtx hands out a fresh cost context for the path memo.
func (w *work) newCtx() uint32 {
	w.ctx++
	if w.ctx == 0 {
		w.ctx = 1
	}
	return w.ctx
}

// planner returns a planner for s with the decision's base costs.
func (w *work) planner(s *situation, m *costModel, orders, reroutes int) *planner {
	if w.nPlan == len(w.planners) {
		w.planners = append(w.planners, &planner{})
	}
	p := w.planners[w.nPlan]
	w.nPlan++
	base := w.baseCosts(s, m)
	p.s, p.w, p.r = s, w, w.r
	p.base = append(p.base[:0], base...)
	p.orders, p.reroutes = max(orders, 1), reroutes
	p.ctx = w.memo.baseCtx
	return p
}

// newPlan returns an empty plan for the decision's board.
func (w *work) newPlan() *plan {
	if w.nPlans == len(w.plans) {
		w.plans = append(w.plans, &plan{})
	}
	pl := w.plans[w.nPlans]
	w.nPlans++
	pl.reset(len(w.b.Tracks))
	return pl
}

// grow returns buf with length n, reusing its storage when it is large
// enough (the contents are not cleared).
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}
