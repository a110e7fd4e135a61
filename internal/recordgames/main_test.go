package main

import (
	"slices"
	"testing"

	"conductor/engine"
	"conductor/internal/testkit"
	"conductor/internal/testkit/recorded"
)

// Every spec has its record in engine/testdata/games and every record its
// spec, so that the records can be written again.
func TestSpecsMatchRecords(t *testing.T) {
	var specNames, recordNames []string
	for _, s := range allSpecs() {
		specNames = append(specNames, s.name)
	}
	for _, g := range recorded.All(t) {
		recordNames = append(recordNames, g.Name)
	}
	slices.Sort(specNames)
	slices.Sort(recordNames)
	if !slices.Equal(specNames, recordNames) {
		t.Errorf("specs %v, records %v", specNames, recordNames)
	}
}

// What the generator writes holds: read back, each game replays to the
// scores, ranking and corners written, and shows the corners its spec wants.
// (The games themselves follow the bots of the day, so they are not
// compared with the stored records.)
func TestGeneratedRecordsHold(t *testing.T) {
	cat := testkit.Catalog()
	for _, s := range allSpecs() {
		// The steered games under the latest rules: the bot games and the
		// older revisions go through the same code.
		if len(s.want) == 0 || s.rules != engine.LatestRevision {
			continue
		}
		// Start from the seed the record found, to skip the search.
		s.seed = recorded.Load(t, s.name).Seed
		g, err := s.record(cat)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		back, err := recorded.Parse(g.Name, g.Format())
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for _, p := range back.Check(cat) {
			t.Error(p)
		}
		for _, w := range s.want {
			if !slices.Contains(back.Checks, w) {
				t.Errorf("%s: the record does not list %s", s.name, w)
			}
		}
	}
}
