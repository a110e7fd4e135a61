// Command docgen writes the parts of the documentation that are made from
// the program, so that they show what it does now: the pictures in
// docs/images (recorded games replayed and drawn by the bot's own
// renderer, in English, French and German) and the tables generated from
// the code's own tables (the seat colours and marks for colour-blind
// players, the letters on cards and tracks). Run it from the module root
// after changing a picture, a catalogue word or a table, and commit what
// it changed:
//
//	go run ./internal/docgen
//
// Its test fails while a generated file differs from what it would write.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root, err := moduleRoot()
	if err == nil {
		err = generate(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
}

// generate writes every generated file under root and says which changed.
func generate(root string) error {
	outs, err := outputs(root)
	if err != nil {
		return err
	}
	for _, o := range outs {
		path := filepath.Join(root, o.path)
		old, _ := os.ReadFile(path)
		if bytes.Equal(old, o.data) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, o.data, 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s (%d bytes)\n", o.path, len(o.data))
	}
	return nil
}

// output is one generated file: its path under the module root and its
// whole content.
type output struct {
	path string
	data []byte
	// picture: compared by its pixels (see the test), not its bytes.
	picture bool
}

// outputs makes every generated file.
func outputs(root string) ([]output, error) {
	pics, err := pictures(root)
	if err != nil {
		return nil, err
	}
	docs, err := sections(root)
	if err != nil {
		return nil, err
	}
	return append(pics, docs...), nil
}

// moduleRoot is the directory holding go.mod, from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: run from the module")
		}
		dir = parent
	}
}
