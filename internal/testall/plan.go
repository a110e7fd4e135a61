package main

import (
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Run is one go test invocation.
type Run struct {
	Race     bool
	Packages []string
	// Skip names the top-level tests this invocation leaves to the
	// other (the Split packages' other half); it becomes -skip.
	Skip []string
}

// Args are the go test arguments of the run, with the caller's flags
// (userSkip is the caller's -skip, "" if none; flags the caller's other
// flags).
func (r Run) Args(flags []string, userSkip string) []string {
	args := []string{"test"}
	if r.Race {
		args = append(args, "-race")
	}
	args = append(args, flags...)
	if skip := skipPattern(r.Skip, userSkip); skip != "" {
		args = append(args, "-skip", skip)
	}
	return append(args, r.Packages...)
}

// skipPattern joins the caller's -skip and the names a run leaves to the
// other run with |: go test splits a pattern at its top-level |s into
// alternatives, each a pattern per level of subtests, and skips a test
// that any matches; the names' | are inside parentheses.
func skipPattern(names []string, userSkip string) string {
	var alts []string
	if userSkip != "" {
		alts = append(alts, userSkip)
	}
	if len(names) > 0 {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = regexp.QuoteMeta(n)
		}
		alts = append(alts, "^(?:"+strings.Join(quoted, "|")+")$")
	}
	return strings.Join(alts, "|")
}

// Plan turns the classes of the packages to test into go test
// invocations: one under the race detector, one without, each Split
// package's tests divided between them by -skip. A Split package goes to
// an invocation of its own where its -skip would also skip a test of
// another package sharing the invocation.
func Plan(classes []Class) []Run {
	race, plain := &Run{Race: true}, &Run{}
	var extra []Run
	// wants: the tests each package of a run must run, by run.
	wants := map[*Run]map[string][]string{race: {}, plain: {}}
	// add puts package p into run r, to run want of its tests all,
	// unless the names it must skip would skip a test that a package of
	// the run (p included) must run.
	add := func(r *Run, p string, all, want []string) bool {
		skip := slices.Clone(r.Skip)
		for _, t := range all {
			if !slices.Contains(want, t) && !slices.Contains(skip, t) {
				skip = append(skip, t)
			}
		}
		for _, w := range append(slices.Collect(maps.Values(wants[r])), want) {
			for _, t := range w {
				if slices.Contains(skip, t) {
					return false
				}
			}
		}
		r.Skip = skip
		r.Packages = append(r.Packages, p)
		wants[r][p] = want
		return true
	}
	// Whole packages first, so that a Split package's -skip is checked
	// against every test they run.
	var splits []Class
	for _, cl := range classes {
		switch {
		case len(cl.Tests) == 0:
			// Built, to catch what does not compile; nothing runs.
			add(plain, cl.Path, nil, nil)
		case cl.Mode == Race:
			add(race, cl.Path, cl.Tests, cl.Tests)
		case cl.Mode == Plain:
			add(plain, cl.Path, cl.Tests, cl.Tests)
		default:
			splits = append(splits, cl)
		}
	}
	for _, cl := range splits {
		plainTests := cl.PlainTests()
		raceTests := slices.DeleteFunc(slices.Clone(cl.Tests), func(t string) bool { return slices.Contains(plainTests, t) })
		if !add(race, cl.Path, cl.Tests, raceTests) {
			extra = append(extra, Run{Race: true, Packages: []string{cl.Path}, Skip: plainTests})
		}
		if !add(plain, cl.Path, cl.Tests, plainTests) {
			extra = append(extra, Run{Packages: []string{cl.Path}, Skip: raceTests})
		}
	}
	var out []Run
	for _, r := range append([]Run{*race, *plain}, extra...) {
		if len(r.Packages) > 0 {
			out = append(out, r)
		}
	}
	return out
}
