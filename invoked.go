package main

import (
	"regexp"
	"strings"
)

// How the user started Conductor, for the hints that tell them what to
// run next ("run … play again"): a `go run .` user has no `conductor`
// command, and an installed one may have renamed it.

var (
	// goBuildDir is the temporary folder `go run` builds in ("go-build"
	// and digits, in the system's temporary folder).
	goBuildDir = regexp.MustCompile(`^go-build[0-9]+$`)
	// cachedRun is where Go 1.24 and later keep an executable `go run`
	// built, in the build cache: a folder of two hex digits, then one of
	// the build's hash and "-d".
	cacheDir, cacheEntry = regexp.MustCompile(`^[0-9a-f]{2}$`), regexp.MustCompile(`^[0-9a-f]{64}-d$`)
)

// invokedAs is how the program was started, from its arg0: "go run ."
// for an executable `go run` built, otherwise arg0 as the user typed it
// ("conductor", "./conductor", "/opt/conductor/bin/conductor"), which
// runs it again from where they are.
func invokedAs(arg0 string) string {
	if arg0 == "" {
		return "conductor"
	}
	// Either separator: a Windows path reads the same wherever it is read.
	parts := strings.FieldsFunc(arg0, func(r rune) bool { return r == '/' || r == '\\' })
	dirs := parts[:max(0, len(parts)-1)]
	for _, d := range dirs {
		if goBuildDir.MatchString(d) {
			return "go run ."
		}
	}
	if n := len(dirs); n >= 2 && cacheEntry.MatchString(dirs[n-1]) && cacheDir.MatchString(dirs[n-2]) {
		return "go run ."
	}
	return arg0
}
