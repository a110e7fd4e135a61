package local

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// Seats the terminal cannot seat are refused before any table is opened,
// with what to type instead.
func TestSetupRefusesBadSeats(t *testing.T) {
	levels := []string{"easy", "normal", "hard"}
	for _, c := range []struct {
		seats []string
		want  string
	}{
		{[]string{"alice"}, "2 to 5 seats"},
		{[]string{"a", "b", "c", "d", "e", "f"}, "2 to 5 seats"},
		{[]string{"alice", " "}, "empty seat"},
		{[]string{"alice", "alice"}, `two players are called "alice"`},
		{[]string{"hard", "easy"}, "at least one person"},
	} {
		term := NewTerminal(strings.NewReader(""), io.Discard)
		err := term.newGame(context.Background(), Setup{Seats: c.seats, Map: "usa", Levels: levels})
		var bad *SetupError
		if !errors.As(err, &bad) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a SetupError saying %q", c.seats, err, c.want)
		}
	}
}
