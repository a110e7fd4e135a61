package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/present"
)

// Sections of hand-written Markdown files that are generated: each lies
// between the lines "<!-- docgen:NAME -->" and "<!-- /docgen:NAME -->",
// which stay in the file.

// section is one generated part of a Markdown file.
type section struct {
	file, name string
	make       func() string
}

var generatedSections = []section{
	{"docs/commands.md", "marks", marksTable},
	{"docs/commands.md", "letters", lettersTable},
}

// sections fills the generated sections of each file in.
func sections(root string) ([]output, error) {
	var out []output
	texts := map[string]string{}
	var order []string
	for _, s := range generatedSections {
		text, ok := texts[s.file]
		if !ok {
			src, err := os.ReadFile(filepath.Join(root, s.file))
			if err != nil {
				return nil, err
			}
			text = string(src)
			order = append(order, s.file)
		}
		begin, end := "<!-- docgen:"+s.name+" -->\n", "<!-- /docgen:"+s.name+" -->"
		i, j := strings.Index(text, begin), strings.Index(text, end)
		if i < 0 || j < i {
			return nil, fmt.Errorf("%s: no lines %q and %q to write the %s table between", s.file, strings.TrimSpace(begin), end, s.name)
		}
		texts[s.file] = text[:i+len(begin)] + s.make() + text[j:]
	}
	for _, f := range order {
		out = append(out, output{path: f, data: []byte(texts[f])})
	}
	return out, nil
}

// marksTable is the seat colours with the mark drawn on each seat's
// trains and stations, from imaging's table, named in English.
func marksTable() string {
	var b strings.Builder
	b.WriteString("| seat | colour | mark on its trains, stations and swatch |\n|---|---|---|\n")
	for seat := range engine.MaxPlayers {
		colour, shape := imaging.SeatMark(seat)
		fmt.Fprintf(&b, "| %d | %s %s | %s |\n", seat+1, present.ColorDot(seat), present.T("en", "color."+colour), shape)
	}
	return b.String()
}

// lettersTable is the letter printed on each kind of card and on tracks of
// its colour in each language, as the board picture's legend explains it
// (the Märklin deck has every kind).
func lettersTable() string {
	var b strings.Builder
	b.WriteString("| card |")
	for _, l := range present.Languages {
		fmt.Fprintf(&b, " %s |", l)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(present.Languages)))
	b.WriteString("\n")
	marklin, err := data.Embedded().Board("marklin")
	if err != nil {
		panic(err) // the boards are compiled in
	}
	for _, c := range present.LegendCards(marklin) {
		fmt.Fprintf(&b, "| %s %s |", present.CardEmoji(c), present.CardName("en", c))
		for _, l := range present.Languages {
			fmt.Fprintf(&b, " %s (%s) |", present.Letters(l)[c], present.CardName(l, c))
		}
		b.WriteString("\n")
	}
	return b.String()
}
