package ops

import (
	"os"
	"strings"

	"conductor/data"
)

// Catalog is the embedded boards with the deck files of CONDUCTOR_TICKETS
// and decks (--tickets) applied; a deck that cannot be read or used is a
// ConfigError (bad input).
func Catalog(decks []string) (*data.Catalog, error) {
	c := data.Embedded()
	if env := os.Getenv("CONDUCTOR_TICKETS"); env != "" {
		decks = append(strings.Split(env, ","), decks...)
	}
	for _, path := range decks {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, badSetting("tickets: %v", err)
		}
		if c, err = c.LoadDeckFile(path, src); err != nil {
			return nil, badSetting("%v", err)
		}
	}
	return c, nil
}
