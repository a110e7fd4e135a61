package ai

import (
	"context"

	"conductor/engine"
)

// The expert's choice of its initial tickets. Hard keeps the tickets
// whose plan promises most (bestKeep); the expert races hard's keep
// against the others over whole games played out from worlds dealt
// during the setup (engine.DeterminizeWeighted), where each other seat
// chooses its own tickets as hard would, from its own offer. A choice of
// tickets decides more of a game than any one move, and no board is
// claimed yet, so whole-game playouts are what can judge it.

// searchesSetup reports whether the expert searches this choice: its own
// initial tickets, dealt, in a setup of one step (the engine builds
// worlds for no other), at a table of 3 to 5 seats (or with the tuning
// harness's setupAnySize, any size), with hard playing the worlds out (the
// fast rollout policy plays only turns).
func (e *expert) searchesSetup(v *engine.PlayerView, legal []engine.Action) bool {
	n := len(v.Players)
	if !e.setup || !e.hardRoll || (!e.setupAnySize && (n < minSetupSeats || n > maxSetupSeats)) ||
		v.Phase != engine.PhaseSetup || len(v.Pending) == 0 || len(legal) < 2 {
		return false
	}
	variant, ok := v.Board.Variant(v.Variant)
	return ok && len(variant.Setup) == 1 && legal[0].Kind == engine.ActKeep
}

// chooseSetup races hard's keep (bestKeep's, the first by its plans:
// rankKeeps) against the next best, setupCandidates in all, with the
// setup's budget, setupEffort shared by the seats: a whole game played
// out costs some 230 decisions at 4 seats, so a race of every keep of four
// tickets (11) would see only a few worlds each.
func (e *expert) chooseSetup(ctx context.Context, v *engine.PlayerView, legal []engine.Action) engine.Action {
	cands := e.mine(v).rankKeeps(v, legal)
	cands = cands[:min(len(cands), setupCandidates)]
	n := len(v.Players)
	if best, ok := e.race(ctx, v, cands, e.setupEffort/n, e.setupRound(n)); ok {
		return cands[best]
	}
	return cands[0]
}

// setupRound is the worlds in a round of the setup's race at a table of
// n seats. The race checks its budget between rounds; at 5 seats a whole
// game played out is some 300 decisions, so a round of 8 worlds for 4
// candidates (9,600 decisions) is most of a seat's budget (11,200), and a
// second round would overshoot it by as much: a round of 4 stops near it.
func (e *expert) setupRound(n int) int {
	if n >= 5 {
		return min(e.round, 4)
	}
	return e.round
}

// setupCandidates is how many keeps the setup's race runs.
const setupCandidates = 4

// The tables whose setup the expert searches: those it was measured at.
// Two-handed it keeps as hard does.
const minSetupSeats, maxSetupSeats = 3, 5

// setupEffort is the setup search's budget, in decisions made in the
// playouts, for the whole table: a seat's search gets setupEffort/seats.
// A whole game played out is some 120 decisions two-handed and 300 at 5
// seats, and a decision costs more at a fuller table (on Europe, the
// dearest board, some 65 µs at 3 seats, 85 at 4, 115 at 5), so the
// search's CPU stays about even: at 4 seats 14,000 decisions, some 1.2 s
// on Europe (18,000 took 1.6 s there); at 5 seats 11,200, some 1.1 s.
const setupEffort = 56000
