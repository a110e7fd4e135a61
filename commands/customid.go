package commands

import (
	"strconv"
	"strings"
)

// Custom ids of buttons and menus are "kind:game:turn:arg". The game id and
// the turn let a click on an old message be recognised and answered
// harmlessly instead of acting on the current state.
func cid(kind, game string, turn int, arg string) string {
	return kind + ":" + game + ":" + strconv.Itoa(turn) + ":" + arg
}

type customID struct {
	kind, game string
	turn       int
	arg        string
}

func parseCID(s string) (customID, bool) {
	parts := strings.SplitN(s, ":", 4)
	if len(parts) != 4 {
		return customID{}, false
	}
	turn, err := strconv.Atoi(parts[2])
	if err != nil {
		return customID{}, false
	}
	return customID{kind: parts[0], game: parts[1], turn: turn, arg: parts[3]}, true
}
