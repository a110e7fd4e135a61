package main

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

func TestRenderDrawsAPosition(t *testing.T) {
	pos := `{"map":"europe","face_up":["red","locomotive","blue","white","green"],"players":[` +
		`{"name":"A","routes":[["Paris","Frankfurt","white"]],"stations":["Sarajevo"],"tickets":[["Budapest","Sofia"]]},` +
		`{"name":"B","routes":[["Sofia","Sarajevo","gray"]],"tickets":[]}]}`
	for _, args := range [][]string{{"render"}, {"render", "--final"}, {"render", "--map", "europe"}, {"render", "--lang", "de-AT", "--final"}} {
		var out, errb bytes.Buffer
		if code := realMain(args, strings.NewReader(pos), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		im, err := png.Decode(&out)
		if err != nil {
			t.Fatalf("%v: not a PNG: %v", args, err)
		}
		if w := im.Bounds().Dx(); w != 1600 {
			t.Errorf("%v: %d px wide, want 1600", args, w)
		}
	}
}

func TestRenderRefusesBadInput(t *testing.T) {
	cases := []struct {
		args     []string
		in, want string
	}{
		{[]string{"render"}, `{"map":"europe","players":[{"name":"A","routes":[["Paris","Berlinn","white"]]}]}`, "Berlin"},
		{[]string{"render", "--map", "usa"}, `{"map":"europe","players":[{"name":"A"}]}`, "--map usa"},
		{[]string{"render"}, `{"map":"europe","face_up":["mauve"],"players":[{"name":"A"}]}`, "mauve"},
		{[]string{"render"}, `not json`, "JSON"},
		{[]string{"render", "--lang", "es"}, `{"map":"europe","players":[{"name":"A"}]}`, "en, fr, it, de"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := realMain(c.args, strings.NewReader(c.in), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v %s: exit %d, stderr %q; want 2 and %q", c.args, c.in, code, errb.String(), c.want)
		}
	}
}

func TestHelpExitsZero(t *testing.T) {
	for _, cmd := range []string{"maps", "score", "render"} {
		var out, errb bytes.Buffer
		if code := realMain([]string{cmd, "-h"}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Errorf("%s -h: exit %d", cmd, code)
		}
	}
}

// TestRenderSpeaksTheLanguage: --lang changes the picture's words (the
// panel's headings and legend), nothing else.
func TestRenderSpeaksTheLanguage(t *testing.T) {
	pos := `{"map":"usa","players":[{"name":"A","routes":[["Denver","Omaha","pink"]]},{"name":"B"}]}`
	draw := func(lang string) []byte {
		var out, errb bytes.Buffer
		if code := realMain([]string{"render", "--lang", lang}, strings.NewReader(pos), &out, &errb); code != 0 {
			t.Fatalf("--lang %s: exit %d: %s", lang, code, errb.String())
		}
		return out.Bytes()
	}
	en, fr := draw("en"), draw("fr")
	if bytes.Equal(en, fr) {
		t.Error("the French picture is the English one")
	}
	if !bytes.Equal(en, draw("en-GB")) {
		t.Error("en-GB does not draw the English picture")
	}
}
