package ai

// options tune the planning bot; the levels differ only by them.
type options struct {
	model    costModel
	orders   int // ticket orders tried by the planner
	reroutes int // rip-up-and-reroute rounds
	// prune drops pursued tickets that no longer pay for themselves.
	prune bool
	// blocking ranks claims by how badly losing them would hurt, watches
	// opponents near needed tracks and draws their colours first.
	blocking bool
	// smartDraws weighs every face-up card, locomotives and the blind draw;
	// otherwise the bot takes a needed colour face up or draws blind.
	smartDraws bool
	// ticketDraws weighs drawing more tickets by sampling the unseen ones;
	// otherwise it draws only with nothing left to build and many trains.
	ticketDraws bool
	// endgame plays the last turns for immediate points.
	endgame bool
	// passengers places and moves Märklin passengers with care; otherwise
	// it places them on the first end offered and moves them only on its
	// last turn.
	passengers bool
	// tunnelCare claims tunnels only with a spare card for the surprise.
	tunnelCare bool
	// refine replans with the cards in hand credited at this weight per
	// card (0: no replanning).
	refine float64
	// drawSamples and ticketSamples are the samples of the draw
	// simulation and of a ticket draw's value (0: simSamples, ticketSamples).
	drawSamples, ticketSamples int
	// crowd is the turns of slack a plan loses per seat beyond two: with
	// more players, more of the tracks it wants are taken and the end
	// comes sooner, so it slips more.
	crowd float64
	// drawPerSeat raises the gain a ticket draw must promise, per seat
	// beyond two.
	drawPerSeat float64
	// keepPerSeat is what each ticket kept beyond the fewest allowed
	// costs, in points, per seat beyond two.
	keepPerSeat float64
	// droppedStopsDraws: no ticket draw while the plan has given up a
	// ticket held. A draw must keep one, which the plan may give up in
	// turn: at 4 and 5 seats, where the end comes soon, hard drew again
	// and again, keeping and failing a ticket each time (a Märklin game
	// failed 5). With it hard won 53.7 / 51.5 / 50.6% against hard without
	// it at 2 seats (usa / europe classic / marklin) and 25.2 / 27.1% at
	// 4 seats (usa / marklin, fair 25%), 1,000 games a line, seed 201.
	droppedStopsDraws bool
	// claimLength weighs a ready planned track's length against its
	// detour if lost (up to 30) times the threat to it, choosing which
	// track to claim first.
	claimLength float64
	// richTrip is the goods a passenger's trip must collect to be made
	// before the end (with passengers).
	richTrip float64
}

// hardOptions: on Europe a tunnel costs 2 cards beyond its length and a
// ferry's locomotive 0.75 beyond the card; with the earlier 1.2 and 1.5
// hard won 2.7 points less at 4 seats and 2.6 at 5 (docs/bots-measurements.md,
// "Hard's tunnel and ferry costs on Europe").
var hardOptions = options{
	model: costModel{claimTurn: 2, perTrain: 0.3, routePoints: 0.8, colorPenalty: 0.25,
		ferryLoco: 0.75, tunnelRisk: 2, stations: true, goods: 0.8},
	orders: 3, reroutes: 2,
	prune: true, blocking: true, smartDraws: true, ticketDraws: true, endgame: true,
	passengers: true, richTrip: richTrip, tunnelCare: true, refine: 0.5, droppedStopsDraws: true,
	claimLength: 0.5,
}

var normalOptions = options{
	model:  costModel{claimTurn: 1, perTrain: 0, routePoints: 0, ferryLoco: 1, tunnelRisk: 0.5},
	orders: 1, reroutes: 0,
	endgame: true, claimLength: 0.5,
}
