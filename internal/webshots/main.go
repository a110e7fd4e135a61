// Command webshots writes the documentation's pictures of the live page and
// the replay page (docs/images/web-*.png) with headless Chromium:
//
//	go run ./internal/webshots
//
// The pictures come from web's TestScreenshots, which plays a game through
// the fake Discord and opens the page as the real SDK does; this command
// runs it with the directory to write to. It needs Chromium (Debian:
// apt-get install chromium fonts-noto-color-emoji).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	dir, err := filepath.Abs(filepath.Join("docs", "images"))
	if err == nil {
		_, err = os.Stat(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "webshots: run it from the repository's root:", err)
		os.Exit(2)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestScreenshots$", "-v", "./web")
	cmd.Env = append(os.Environ(), "CONDUCTOR_WEBSHOTS="+dir, "CONDUCTOR_REQUIRE_BROWSER=1")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "webshots:", err)
		os.Exit(1)
	}
}
