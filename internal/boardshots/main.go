// Command boardshots writes the documentation's pictures of the thread's
// latest board message as Discord's client shows it in a window 400 px
// wide (docs/images/thread-board.{en,fr,de}.png) with headless Chromium:
//
//	go run ./internal/boardshots
//
// The pictures come from bot's TestBoardMessagePictures, which plays games
// through the fake Discord and draws the board message it recorded with
// internal/msgshots; this command runs it with the directory to write to.
// It needs Chromium and the fonts (Debian: apt-get install chromium
// fonts-noto-core fonts-noto-color-emoji).
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
		fmt.Fprintln(os.Stderr, "boardshots: run it from the repository's root:", err)
		os.Exit(2)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestBoardMessagePictures$", "-v", "./bot")
	cmd.Env = append(os.Environ(), "CONDUCTOR_MSGSHOTS="+dir)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "boardshots:", err)
		os.Exit(1)
	}
}
