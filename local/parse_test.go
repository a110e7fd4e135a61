package local

import (
	"reflect"
	"testing"
)

func TestParseCommandLikeDiscord(t *testing.T) {
	cases := []struct {
		line      string
		name, sub string
		opts      map[string]string
	}{
		{"/draw 3", "draw", "", map[string]string{"card": "3"}},
		{"/draw deck", "draw", "", map[string]string{"card": "deck"}},
		{"/claim Paris Frankfurt color=white locos=1", "claim", "", map[string]string{"route": "Paris Frankfurt", "color": "white", "locomotives": "1"}},
		{"/claim New York - Washington", "claim", "", map[string]string{"route": "New York - Washington"}},
		{"/station Wien colour=red", "station", "", map[string]string{"city": "Wien", "color": "red"}},
		{"/passenger Berlin > Leipzig > Dresden", "passenger", "", map[string]string{"from": "Berlin", "path": "Berlin > Leipzig > Dresden"}},
		{"/tickets 2", "tickets", "", map[string]string{"long": "2"}},
		{"/hand dm", "hand", "", map[string]string{"dm": "true"}},
		{"/ttr rules tunnels", "ttr", "rules", map[string]string{"topic": "tunnels"}},
		{"/ttr undo", "ttr", "undo", map[string]string{}},
	}
	for _, c := range cases {
		req, err := parseCommand(c.line)
		if err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		if req.Name != c.name || req.Sub != c.sub || !reflect.DeepEqual(req.Options, c.opts) {
			t.Errorf("%q: got %s %s %v, want %s %s %v", c.line, req.Name, req.Sub, req.Options, c.name, c.sub, c.opts)
		}
	}
	for _, bad := range []string{"/", "/ttr", "/board Paris"} {
		if _, err := parseCommand(bad); err == nil {
			t.Errorf("%q should be refused with a hint", bad)
		}
	}
}
