package recorded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Ext ends every record's file name.
const Ext = ".game"

// Dir returns engine/testdata/games of this module, found by walking up
// from the working directory to go.mod (go test runs each package's tests in
// its own directory).
func Dir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "engine", "testdata", "games"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("recorded: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Read parses the record in file path.
func Read(path string) (*Game, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(strings.TrimSuffix(filepath.Base(path), Ext), src)
}

// All returns every record, by file name, failing the test when one does
// not parse or there are none.
func All(t testing.TB) []*Game {
	t.Helper()
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*"+Ext))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no recorded games in %s", dir)
	}
	var out []*Game
	for _, p := range paths {
		g, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

// Load returns the record called name (without .game).
func Load(t testing.TB, name string) *Game {
	t.Helper()
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Read(filepath.Join(dir, name+Ext))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Write stores g as dir/NAME.game.
func Write(dir string, g *Game) error {
	if g.Name == "" || strings.ContainsAny(g.Name, `/\`) {
		return fmt.Errorf("recorded: bad game name %q", g.Name)
	}
	return os.WriteFile(filepath.Join(dir, g.Name+Ext), g.Format(), 0o644)
}
