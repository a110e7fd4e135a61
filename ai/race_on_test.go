//go:build race

package ai

// raceEnabled: the race detector slows everything about tenfold; the tests
// that compare decisions over whole games check fewer positions under it.
const raceEnabled = true
