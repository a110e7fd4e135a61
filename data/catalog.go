package data

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed boards/*.json
var boardFiles embed.FS

// Catalog is a set of boards by id.
type Catalog struct {
	boards map[string]*Board
}

// Embedded parses the boards compiled into the binary. They are validated by
// tests, so an error here means a broken build.
func Embedded() *Catalog {
	c, err := LoadFS(boardFiles, "boards")
	if err != nil {
		panic(err)
	}
	return c
}

// LoadFS reads every *.json board in dir of fsys.
func LoadFS(fsys fs.FS, dir string) (*Catalog, error) {
	names, err := fs.Glob(fsys, dir+"/*.json")
	if err != nil {
		return nil, err
	}
	c := &Catalog{boards: map[string]*Board{}}
	for _, n := range names {
		src, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		b, err := Parse(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if _, dup := c.boards[b.ID]; dup {
			return nil, fmt.Errorf("%s: board id %q used twice", n, b.ID)
		}
		c.boards[b.ID] = b
	}
	return c, nil
}

// Board returns the board with the given id.
func (c *Catalog) Board(id string) (*Board, error) {
	if b, ok := c.boards[id]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("%w %q (boards: %s)", errNoBoard, id, strings.Join(c.IDs(), ", "))
}

// IDs lists the board ids in a stable order: usa, europe, marklin first.
func (c *Catalog) IDs() []string {
	order := map[string]int{"usa": 0, "europe": 1, "marklin": 2}
	ids := make([]string, 0, len(c.boards))
	for id := range c.boards {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		oi, iok := order[ids[i]]
		oj, jok := order[ids[j]]
		switch {
		case iok && jok:
			return oi < oj
		case iok != jok:
			return iok
		}
		return ids[i] < ids[j]
	})
	return ids
}

// Boards returns every board in IDs order.
func (c *Catalog) Boards() []*Board {
	out := make([]*Board, 0, len(c.boards))
	for _, id := range c.IDs() {
		out = append(out, c.boards[id])
	}
	return out
}

// With returns a catalog in which b replaces the board of the same id.
func (c *Catalog) With(b *Board) *Catalog {
	n := &Catalog{boards: make(map[string]*Board, len(c.boards)+1)}
	for k, v := range c.boards {
		n.boards[k] = v
	}
	n.boards[b.ID] = b
	return n
}
