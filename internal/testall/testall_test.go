package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// classes classifies the module in dir.
func classes(t *testing.T, dir string) []Class {
	t.Helper()
	root, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := list(root, nil, "./...")
	if err != nil {
		t.Fatal(err)
	}
	cls, err := Classify(root, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return cls
}

func byPath(cls []Class) map[string]Class {
	m := map[string]Class{}
	for _, cl := range cls {
		m[cl.Path] = cl
	}
	return m
}

// The fixture module holds one package per case: a goroutine started in
// a package's code, through an import of ours (one or two steps, or only
// in the tests), by an outside package (net/http) or in TestMain puts the
// whole package under the race detector; goroutines started only in
// some tests (directly, through helpers, t.Parallel, WaitGroup.Go,
// time.AfterFunc, in the external test package) put those tests under it
// and no other; a package that starts none (a method called Parallel is
// not t.Parallel), or only calls a function marked joined, runs without
// it; the marked function's own package runs with it.
func TestClassifiesByWhereGoroutinesStart(t *testing.T) {
	got := byPath(classes(t, "testdata/fixture"))
	for path, want := range map[string]struct {
		mode Mode
		why  string
	}{
		"fixture/spawn":      {Race, "spawn/spawn.go:4: go statement"},
		"fixture/uses":       {Race, "imports fixture/spawn (spawn/spawn.go:4: go statement)"},
		"fixture/deep":       {Race, "imports fixture/uses (imports fixture/spawn"},
		"fixture/testimport": {Race, "imports fixture/spawn"},
		"fixture/server":     {Race, "imports net/http"},
		"fixture/setup":      {Race, "TestMain reaches setup/setup_test.go:9: go statement"},
		"fixture/joined":     {Split, "its goroutines end within a call (joined/joined.go:13: Go call"},
		"fixture/drawer":     {Plain, ""},
		"fixture/pure":       {Plain, ""},
		"fixture/tests":      {Split, "7 of its 10 tests do"},
	} {
		cl, ok := got[path]
		if !ok {
			t.Errorf("%s not classified", path)
			continue
		}
		if cl.Mode != want.mode || !strings.Contains(filepath.ToSlash(cl.Why), want.why) {
			t.Errorf("%s: %s (%s), want %s (%s)", path, cl.Mode, cl.Why, want.mode, want.why)
		}
	}
	split := got["fixture/tests"]
	wantRace := []string{"TestAfterFunc", "TestExternalParallel", "TestGoStatement", "TestHelperAsValue",
		"TestParallelSubtests", "TestThroughHelpers", "TestWaitGroupGo"}
	if races := slices.Sorted(maps.Keys(split.RaceTests)); !slices.Equal(races, wantRace) {
		t.Errorf("race tests %v, want %v", races, wantRace)
	}
	if plain := split.PlainTests(); !slices.Equal(slices.Sorted(slices.Values(plain)), []string{"BenchmarkPlain", "TestExternalPlain", "TestPlain"}) {
		t.Errorf("plain tests %v", plain)
	}
	if why := split.RaceTests["TestThroughHelpers"]; !strings.Contains(filepath.ToSlash(why), "tests/tests_test.go:12: go statement") {
		t.Errorf("TestThroughHelpers reaches %q, want helper's go statement", why)
	}
	if joined := got["fixture/joined"]; !slices.Equal(slices.Collect(maps.Keys(joined.RaceTests)), []string{"TestSum"}) {
		t.Errorf("joined's race tests %v, want TestSum alone", joined.RaceTests)
	}
	if pure := got["fixture/pure"]; !slices.Equal(pure.Tests, []string{"TestAdd", "ExampleAdd"}) {
		t.Errorf("pure's tests %v", pure.Tests)
	}
}

// runsOf returns the indexes of the runs that run test name of package
// path, skipping as go test would.
func runsOf(t *testing.T, runs []Run, path, name, userSkip string) []int {
	t.Helper()
	var out []int
	for i, r := range runs {
		if !slices.Contains(r.Packages, path) {
			continue
		}
		if p := skipPattern(r.Skip, userSkip); p != "" && regexp.MustCompile(p).MatchString(name) {
			continue
		}
		out = append(out, i)
	}
	return out
}

// checkRuns: every test the caller's -skip leaves runs exactly once, and
// under the race detector if its package is Race or it starts a
// goroutine; a test the caller's -skip names does not run.
func checkRuns(t *testing.T, cls []Class, runs []Run, userSkip string) {
	t.Helper()
	for _, cl := range cls {
		for _, name := range cl.Tests {
			in := runsOf(t, runs, cl.Path, name, userSkip)
			if userSkip != "" && regexp.MustCompile(userSkip).MatchString(name) {
				if len(in) != 0 {
					t.Errorf("%s %s: runs despite -skip %s", cl.Path, name, userSkip)
				}
				continue
			}
			if len(in) != 1 {
				t.Errorf("%s %s: runs %d times, want once", cl.Path, name, len(in))
				continue
			}
			if (cl.Mode == Race || cl.RaceTests[name] != "") && !runs[in[0]].Race {
				t.Errorf("%s %s starts goroutines (%s%s) but runs without the race detector", cl.Path, name, cl.Why, cl.RaceTests[name])
			}
			if cl.Mode == Plain && runs[in[0]].Race {
				t.Errorf("%s %s: runs under the race detector, for nothing", cl.Path, name)
			}
		}
	}
}

// The plan of the fixture and of this module runs each test once, and
// those that may start goroutines under the race detector, with and
// without a -skip of the caller's.
func TestEveryTestRunsOnceUnderTheRightDetector(t *testing.T) {
	for _, dir := range []string{"testdata/fixture", "../.."} {
		cls := classes(t, dir)
		runs := Plan(cls)
		if dir == "testdata/fixture" && len(runs) != 2 {
			t.Errorf("%s: %d runs, want 2 (one with the race detector, one without)", dir, len(runs))
		}
		for _, userSkip := range []string{"", "Plain|TestDeep"} {
			checkRuns(t, cls, runs, userSkip)
		}
	}
}

// The joined mark is refused on a function that waits for nothing.
func TestJoinedMarkNeedsAWait(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module bad\n\ngo 1.26\n",
		"bad.go": "package bad\n\n// Start does not wait.\n//\n//testall:joined\nfunc Start(f func()) { go f() }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := list(dir, nil, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Classify(dir, pkgs); err == nil || !strings.Contains(err.Error(), "waits for none") {
		t.Fatalf("a joined mark on a function that does not wait: %v", err)
	}
}

// A split package whose -skip would also skip a test of another package
// of the same run gets runs of its own.
func TestSplitPackageWhoseSkipCollidesRunsAlone(t *testing.T) {
	cls := []Class{
		{Path: "a", Mode: Split, Tests: []string{"TestX", "TestY"}, RaceTests: map[string]string{"TestX": "go"}},
		{Path: "b", Mode: Race, Tests: []string{"TestY"}},
		{Path: "c", Mode: Plain, Tests: []string{"TestZ"}},
	}
	runs := Plan(cls)
	checkRuns(t, cls, runs, "")
	if len(runs) != 3 {
		t.Errorf("%d runs, want 3 (a's race half alone): %+v", len(runs), runs)
	}
}

// In this module, a go statement in a package's code puts the whole
// package under the race detector (or, in a function marked joined, the
// tests that reach it), and one in a test file puts at least the tests
// around it there. Read here with nothing but go/ast, as a check of the
// classifier's own reading.
func TestGoStatementsAreNeverRunWithoutRace(t *testing.T) {
	cls := byPath(classes(t, "../.."))
	pkgs, err := list("../..", nil, "./...")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := 0
	for _, p := range pkgs {
		cl := cls[p.ImportPath]
		for _, name := range slices.Concat(p.GoFiles, p.TestGoFiles, p.XTestGoFiles) {
			src, err := os.ReadFile(filepath.Join(p.Dir, name))
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fd, isFunc := d.(*ast.FuncDecl)
				ast.Inspect(d, func(n ast.Node) bool {
					if _, ok := n.(*ast.GoStmt); !ok {
						return true
					}
					found++
					switch {
					case cl.Mode == Race:
					case strings.HasSuffix(name, "_test.go") && isFunc && fd.Recv == nil && isTest(fd.Name.Name):
						if cl.RaceTests[fd.Name.Name] == "" {
							t.Errorf("%s: %s starts a goroutine at %s but runs without the race detector", p.ImportPath, fd.Name.Name, fset.Position(n.Pos()))
						}
					case strings.HasSuffix(name, "_test.go"):
						if cl.Mode != Split {
							t.Errorf("%s: a test helper starts a goroutine at %s, yet no test is under the race detector", p.ImportPath, fset.Position(n.Pos()))
						}
					case isFunc && fd.Doc != nil && hasJoinedMark(fd):
						if cl.Mode != Split || !slices.ContainsFunc(slices.Collect(maps.Values(cl.RaceTests)), func(why string) bool {
							return strings.Contains(why, fmt.Sprintf("%s:%d", name, fset.Position(n.Pos()).Line))
						}) {
							t.Errorf("%s: no test reaching the joined goroutine at %s runs under the race detector", p.ImportPath, fset.Position(n.Pos()))
						}
					default:
						t.Errorf("%s starts a goroutine at %s in its code, yet is %s", p.ImportPath, fset.Position(n.Pos()), cl.Mode)
					}
					return true
				})
			}
		}
	}
	if found < 10 {
		t.Fatalf("only %d go statements found in the module", found)
	}
}

func hasJoinedMark(fd *ast.FuncDecl) bool {
	return slices.ContainsFunc(fd.Doc.List, func(c *ast.Comment) bool { return c.Text == "//testall:joined" })
}

func TestIsTestFollowsTheGoCommand(t *testing.T) {
	for name, want := range map[string]bool{
		"Test": true, "TestX": true, "Test_x": true, "Testing": false, "TestMain": false,
		"Benchmark": true, "BenchmarkX": true, "Benchmarks": false, "ExampleNew": true,
		"Example_x": true, "Exampler": false, "FuzzX": true, "helper": false,
	} {
		if isTest(name) != want {
			t.Errorf("isTest(%q) = %v, want %v", name, !want, want)
		}
	}
}

func TestParseArgsPassesFlagsAndPackages(t *testing.T) {
	a := parseArgs([]string{"-run", "TestX", "-v", "-skip=Slow", "./ai", "-count", "1", "--tags", "x", "./engine", "-args", "-soak"})
	if want := []string{"-run=TestX", "-v", "-count=1", "-tags=x", "-timeout=20m"}; !slices.Equal(a.flags, want) {
		t.Errorf("flags %q, want %q", a.flags, want)
	}
	if a.skip != "Slow" || !slices.Equal(a.packages, []string{"./ai", "./engine"}) || !slices.Equal(a.tail, []string{"-args", "-soak"}) {
		t.Errorf("skip %q, packages %q, tail %q", a.skip, a.packages, a.tail)
	}
	if b := parseArgs([]string{"-timeout", "5m"}); !slices.Equal(b.flags, []string{"-timeout=5m"}) {
		t.Errorf("a timeout given: flags %q", b.flags)
	}
}
