package data

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// A deck file replaces a board's tickets. It is plain text, one ticket a line:
//
//	# The Märklin edition's own deck
//	map: marklin
//	Kiel, Stuttgart, 17, marklin, long
//	Berlin, Leipzig, 5
//
// Fields: first end, second end, points, then optionally the deck (default:
// the deck of the board's first variant) and the flags "long" and
// "big_cities". Blank lines and lines starting with # are ignored.
//
// "mode: add" keeps the board's tickets and adds the file's, for example
// bonus tickets (deck "bonus") for Europe's bonus-tickets option:
//
//	map: europe
//	mode: add
//	Lisboa, Moskva, 20, bonus, long

// DeckFile is a parsed deck file.
type DeckFile struct {
	Map string
	// Add keeps the board's own tickets and adds the file's.
	Add     bool
	entries []ticketEntry
	lines   []int
}

// ParseDeckFile reads a deck file; errors name the line and what is wrong.
func ParseDeckFile(name string, src []byte) (*DeckFile, error) {
	df := &DeckFile{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if k, v, ok := strings.Cut(text, ":"); ok && !strings.Contains(k, ",") {
			switch strings.TrimSpace(strings.ToLower(k)) {
			case "map":
				df.Map = strings.TrimSpace(v)
				continue
			case "mode":
				switch strings.TrimSpace(strings.ToLower(v)) {
				case "add":
					df.Add = true
				case "replace":
					df.Add = false
				default:
					return nil, fmt.Errorf("%s:%d: mode is \"replace\" (the file is the whole deck, the default) or \"add\" (the file adds to the board's tickets), not %q", name, line, strings.TrimSpace(v))
				}
				continue
			default:
				return nil, fmt.Errorf("%s:%d: unknown setting %q (\"map: NAME\" and \"mode: replace|add\" are understood)", name, line, k)
			}
		}
		fields := strings.Split(text, ",")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s:%d: expected \"city, city, points\" but found %q", name, line, text)
		}
		pts, err := strconv.Atoi(fields[2])
		if err != nil || pts <= 0 {
			return nil, fmt.Errorf("%s:%d: points must be a positive whole number, not %q", name, line, fields[2])
		}
		e := ticketEntry{A: fields[0], B: fields[1], Points: pts}
		for _, f := range fields[3:] {
			switch strings.ToLower(f) {
			case "long":
				e.Long = true
			case "short", "regular":
			case "big_cities", "big cities", "bigcities":
				e.BigCities = true
			case "":
				return nil, fmt.Errorf("%s:%d: empty field", name, line)
			default:
				if e.Deck != "" {
					return nil, fmt.Errorf("%s:%d: %q is not a flag (long, big_cities) and the deck is already %q", name, line, f, e.Deck)
				}
				e.Deck = f
			}
		}
		df.entries = append(df.entries, e)
		df.lines = append(df.lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if df.Map == "" {
		return nil, fmt.Errorf("%s: no \"map: NAME\" line says which board the deck is for", name)
	}
	if len(df.entries) == 0 {
		return nil, fmt.Errorf("%s: no tickets", name)
	}
	return df, nil
}

// Apply returns a copy of b whose tickets are the file's, validated like the
// embedded ones.
func (df *DeckFile) Apply(name string, b *Board) (*Board, error) {
	if df.Map != b.ID {
		return nil, fmt.Errorf("%s: deck is for map %q, not %q", name, df.Map, b.ID)
	}
	entries := make([]ticketEntry, len(df.entries))
	copy(entries, df.entries)
	for i := range entries {
		if entries[i].Deck == "" && len(b.Variants) > 0 && len(b.Variants[0].Decks) > 0 {
			entries[i].Deck = b.Variants[0].Decks[0]
		}
	}
	nb := *b
	tickets, err := nb.resolveTickets(entries, func(i int) string { return fmt.Sprintf("%s:%d", name, df.lines[i]) })
	if err != nil {
		return nil, err
	}
	if df.Add {
		for i := range tickets {
			tickets[i].ID = TicketID(len(b.Tickets) + i)
		}
		tickets = append(append([]Ticket(nil), b.Tickets...), tickets...)
		nb.TicketsNote = strings.TrimSpace(b.TicketsNote + " Tickets added from " + name + ".")
	} else {
		nb.TicketsSubstitute = false
		nb.TicketsNote = "Tickets loaded from " + name + "."
	}
	nb.Tickets = tickets
	if err := nb.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &nb, nil
}

// LoadDeckFile parses a deck file and puts it on its board in the catalog.
func (c *Catalog) LoadDeckFile(name string, src []byte) (*Catalog, error) {
	df, err := ParseDeckFile(name, src)
	if err != nil {
		return nil, err
	}
	b, err := c.Board(df.Map)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	nb, err := df.Apply(name, b)
	if err != nil {
		return nil, err
	}
	return c.With(nb), nil
}
