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
// worlds for no other), at a table of 3 or 4 seats (or with the tuning
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
	cands := e.hard.rankKeeps(v, legal)
	cands = cands[:min(len(cands), setupCandidates)]
	if best, ok := e.race(ctx, v, cands, e.setupEffort/len(v.Players)); ok {
		return cands[best]
	}
	return cands[0]
}

// setupCandidates is how many keeps the setup's race runs.
const setupCandidates = 4

// The tables whose setup the expert searches: those it was measured at.
// Two-handed and at 5 seats it keeps as hard does.
const minSetupSeats, maxSetupSeats = 3, 4

// setupEffort is the setup search's budget, in decisions made in the
// playouts, for the whole table: a seat's search gets setupEffort/seats.
// A whole game played out is some 120 decisions two-handed and 300 at 5
// seats, and a decision costs more at a fuller table (on Europe, the
// dearest board, some 65 µs at 3 seats, 85 at 4, 115 at 5), so the
// search's CPU stays about even: at 4 seats 14,000 decisions, some 1.2 s
// on Europe (18,000 took 1.6 s there).
const setupEffort = 56000
