//go:build race

package engine

// raceEnabled: the race detector slows everything ~10×; long soak tests
// play fewer games under it (.ci/run also runs them at full size without it).
const raceEnabled = true
