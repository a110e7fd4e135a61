package web

import (
	"errors"
	"sync"
	"time"
)

// rateLimits counts events per key in one-minute windows (all keys share
// the window; a key's count starts again with each minute). It holds at
// most maxLimitKeys keys a minute: past that, new keys share one count,
// so a flood of addresses costs memory it cannot grow.
type rateLimits struct {
	mu     sync.Mutex
	window time.Time
	counts map[string]int
}

const maxLimitKeys = 100000

// overflowKey is the count the keys past maxLimitKeys share.
const overflowKey = "\x00overflow"

func (l *rateLimits) keyLocked(key string, now time.Time) string {
	if l.counts == nil || now.Sub(l.window) >= time.Minute || now.Before(l.window) {
		l.window, l.counts = now, map[string]int{}
	}
	if _, ok := l.counts[key]; !ok && len(l.counts) >= maxLimitKeys {
		return overflowKey
	}
	return key
}

// allow counts one event of key and says whether it is within limit.
func (l *rateLimits) allow(key string, limit int, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	key = l.keyLocked(key, now)
	l.counts[key]++
	return l.counts[key] <= limit
}

// over says whether key already counted limit events this minute,
// counting nothing.
func (l *rateLimits) over(key string, limit int, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.counts[l.keyLocked(key, now)] >= limit
}

// note counts one event of key.
func (l *rateLimits) note(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.counts[l.keyLocked(key, now)]++
}

// errLimited: a request past one of its limits (answered 429).
var errLimited = errors.New("over a limit")

// inFlight counts what is under way per key (not per minute): a key's
// count goes down as each ends. Keys at zero are forgotten, so it holds no
// more keys than requests under way.
type inFlight struct {
	mu sync.Mutex
	n  map[string]int
}

// acquire counts one more under way for key, unless limit already are.
func (f *inFlight) acquire(key string, limit int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == nil {
		f.n = map[string]int{}
	}
	if f.n[key] >= limit {
		return false
	}
	f.n[key]++
	return true
}

func (f *inFlight) release(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[key]--; f.n[key] <= 0 {
		delete(f.n, key)
	}
}
