// Command webshots writes the documentation's pictures that headless
// Chromium draws:
//
//	go run ./internal/webshots          # all of them
//	go run ./internal/webshots page     # the live page and the replay page (docs/images/web-*.png)
//	go run ./internal/webshots board    # the thread's latest board message, 400 px wide (docs/images/thread-board.*.png)
//
// Each set comes from a test that plays games through the fake Discord:
// web's TestScreenshots opens the page as the real SDK does; bot's
// TestBoardMessagePictures draws the board message the fake recorded with
// internal/msgshots. This command runs them with the directory to write
// to. It needs Chromium and the fonts (Debian: apt-get install chromium
// fonts-noto-core fonts-noto-color-emoji).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// shots are the sets of pictures: the test that writes each and the
// variable that gives it the directory.
var shots = []struct {
	name, test, pkg, env string
}{
	{"page", "^TestScreenshots$", "./web", "CONDUCTOR_WEBSHOTS"},
	{"board", "^TestBoardMessagePictures$", "./bot", "CONDUCTOR_MSGSHOTS"},
}

func main() {
	dir, err := filepath.Abs(filepath.Join("docs", "images"))
	if err == nil {
		_, err = os.Stat(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "webshots: run it from the repository's root:", err)
		os.Exit(2)
	}
	want := map[string]bool{}
	for _, a := range os.Args[1:] {
		want[a] = true
	}
	ran := 0
	for _, s := range shots {
		if len(want) > 0 && !want[s.name] {
			continue
		}
		delete(want, s.name)
		ran++
		cmd := exec.Command("go", "test", "-count=1", "-run", s.test, "-v", s.pkg)
		cmd.Env = append(os.Environ(), s.env+"="+dir, "CONDUCTOR_REQUIRE_BROWSER=1")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "webshots:", s.name+":", err)
			os.Exit(1)
		}
	}
	for name := range want {
		fmt.Fprintf(os.Stderr, "webshots: no pictures named %q: give page, board or nothing (all)\n", name)
		os.Exit(2)
	}
	if ran == 0 {
		os.Exit(2)
	}
}
