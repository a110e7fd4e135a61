//go:build race

package engine

// raceEnabled: the race detector slows everything ~10×; long soak tests
// play fewer games under it. (internal/testall runs this package without
// it: nothing here starts a goroutine.)
const raceEnabled = true
