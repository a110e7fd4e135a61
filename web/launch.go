package web

import (
	"sync"
	"time"

	"conductor/commands"
)

// Which game an activity instance shows. Discord reports the instance of
// a LAUNCH_ACTIVITY answer to the bot, with the thread and the user that
// launched it (an interaction Discord signed): that is trusted, and kept
// in memory for a while (on PostgreSQL in the database too, for every
// process: fleet.go). An instance the bot did not launch (Discord's
// own Entry Point handler, a restart) is placed by the channel Discord
// says it runs in.

// launchKept is how long a launch is remembered after its last use.
const launchKept = 12 * time.Hour

// maxLaunches bounds the launches kept.
const maxLaunches = 20000

type launchEntry struct {
	l    commands.Launch
	used time.Time
}

type launches struct {
	mu sync.Mutex
	m  map[string]*launchEntry
}

func (ls *launches) init() { ls.m = map[string]*launchEntry{} }

func (ls *launches) put(l commands.Launch, now time.Time) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if len(ls.m) >= maxLaunches {
		for k, e := range ls.m {
			if now.Sub(e.used) > launchKept || len(ls.m) >= maxLaunches {
				delete(ls.m, k)
			}
		}
	}
	ls.m[l.Instance] = &launchEntry{l: l, used: now}
}

func (ls *launches) get(instance string, now time.Time) (commands.Launch, bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	e, ok := ls.m[instance]
	if !ok || now.Sub(e.used) > launchKept {
		return commands.Launch{}, false
	}
	e.used = now
	return e.l, true
}
