package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sharedPath matches a path that climbs out of the repository into the
// reference material beside it (its name is spelt in two parts so that
// this file does not match itself).
var sharedPath = regexp.MustCompile(`(\.\./)+` + "sha" + `red\b`)

// The repository stands alone: no Go file, test or not, reads the
// reference material beside it
// (what a test needs is copied into a testdata/ with its licence). CI runs
// the tests once, in a clone with nothing beside it, on the strength of
// this.
func TestNoGoFileReadsShared(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(src), "\n") {
			if loc := sharedPath.FindStringIndex(line); loc != nil && !strings.HasPrefix(strings.TrimSpace(line), "//") {
				t.Errorf("%s:%d reads the reference material beside the repository: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked", checked)
	}
}
