package commands

import (
	"strings"
	"testing"

	"conductor/engine"
)

// Bots added to a table get names per level, shown with the level.
func TestBotsGetNamesPerLevel(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.bots(func(level string, seed uint64) (Bot, error) { return viewBot{&[]engine.PlayerView{}}, nil }, "easy", "normal", "hard", "expert")
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "expert"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "expert"})
	a := w.cmd("u1", "ttr", "addbot", nil)
	for _, want := range []string{"🤖 Ada (expert)", "🤖 Alan (expert)", "🤖 Nora (normal)"} {
		if !strings.Contains(a.msg.Content+embedText(a.msg), want) {
			t.Fatalf("lobby %q lacks %q", a.msg.Content+embedText(a.msg), want)
		}
	}
}

func embedText(m Message) string {
	s := ""
	for _, e := range m.Embeds {
		s += e.Title + "\n" + e.Description + "\n"
		for _, f := range e.Fields {
			s += f.Name + " " + f.Value + "\n"
		}
	}
	return s
}
