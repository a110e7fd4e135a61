package commands

import (
	"conductor/present"
	"conductor/store"
)

// botNames are the names bots take, per level, so that a table reads
// "Ada (expert)" rather than "Bot 1". Names are the same in every
// language; the level is said in the table's language where the name is
// shown (present.PlayerName), and /ttr addbot takes it as typed.
var botNames = map[string][]string{
	"easy":   {"Tom", "Lina", "Max", "Zoe", "Ben"},
	"normal": {"Nora", "Emil", "Ivo", "Mia", "Leo"},
	"hard":   {"Vera", "Otto", "Rosa", "Karl", "Ines"},
	"expert": {"Ada", "Alan", "Grace", "Edsger", "Barbara"},
}

// botName names the next bot of a level at a table: the level's first
// name not yet seated (seats stored by earlier versions hold the name
// with its level, "Nora (normal)").
func botName(seats []store.Seat, level string) string {
	names := botNames[level]
	if len(names) == 0 {
		names = []string{"Bot"}
	}
	taken := map[string]bool{}
	for _, st := range seats {
		taken[present.BotBaseName(st.Name, st.Bot)] = true
	}
	for i := 0; ; i++ {
		name := names[i%len(names)]
		if i >= len(names) {
			name += " " + string(rune('1'+i/len(names)))
		}
		if !taken[name] {
			return name
		}
	}
}
