package commands

import "conductor/store"

// botNames are the names bots take, per level, so that a table reads
// "Ada (expert)" rather than "Bot 1". Names are the same in every
// language; so are the level words, which /ttr addbot takes as typed.
var botNames = map[string][]string{
	"easy":   {"Tom", "Lina", "Max", "Zoe", "Ben"},
	"normal": {"Nora", "Emil", "Ivo", "Mia", "Leo"},
	"hard":   {"Vera", "Otto", "Rosa", "Karl", "Ines"},
	"expert": {"Ada", "Alan", "Grace", "Edsger", "Barbara"},
}

// botName names the next bot of a level at a table: the level's first
// name not yet seated, with the level.
func botName(seats []store.Seat, level string) string {
	names := botNames[level]
	if len(names) == 0 {
		names = []string{"Bot"}
	}
	taken := map[string]bool{}
	for _, st := range seats {
		taken[st.Name] = true
	}
	for i := 0; ; i++ {
		name := names[i%len(names)]
		if i >= len(names) {
			name += " " + string(rune('1'+i/len(names)))
		}
		if full := name + " (" + level + ")"; !taken[full] {
			return full
		}
	}
}
