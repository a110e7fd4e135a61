package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Package is what go list tells of a package (the fields testall asks for).
type Package struct {
	ImportPath   string
	Dir          string
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// Mode is how a package's tests run.
type Mode int

const (
	// Plain: nothing in the test binary starts a goroutine; no race detector.
	Plain Mode = iota
	// Split: only some of its tests start goroutines, or reach the
	// package's joined ones; those run under the race detector, the
	// others without.
	Split
	// Race: its code (or code of ours it imports) starts goroutines that
	// may run alongside it, so any of its tests may run them; all run
	// under the race detector.
	Race
)

func (m Mode) String() string { return [...]string{"plain", "split", "race"}[m] }

// Class is a package's classification.
type Class struct {
	Path string
	Mode Mode
	// Why: for Race the first reason found (a place in the code, or the
	// import through which the package runs concurrent code); for Plain
	// and Split a sentence.
	Why string
	// Tests are the top-level tests, benchmarks, examples and fuzz tests,
	// in file order.
	Tests []string
	// RaceTests, for Split, names the tests that reach a goroutine and
	// where (file:line and what starts it).
	RaceTests map[string]string
}

// startingCalls are method and package-function calls that run a
// function on a goroutine of their own, matched by the name called and
// its number of arguments (the type is not looked up: any x.Go(f) counts,
// which costs time, never a missed race).
var startingCalls = map[string]struct {
	args int
	what string
}{
	"Go":          {1, "Go call (sync.WaitGroup, errgroup.Group)"},
	"AfterFunc":   {2, "AfterFunc call (time, context)"},
	"Parallel":    {0, "t.Parallel()"},
	"RunParallel": {1, "b.RunParallel"},
	"Batch":       {1, "Batch call (bbolt's DB.Batch runs it from a timer's goroutine)"},
}

// concurrentImports are packages from outside the module that call our
// code from goroutines of their own (an HTTP server's handlers, a Discord
// session's event handlers, an errgroup's functions): a package importing
// one runs concurrent code even without a go statement of its own.
var concurrentImports = map[string]bool{
	"net/http":                      true,
	"net/http/httptest":             true,
	"github.com/bwmarrin/discordgo": true,
	"golang.org/x/sync/errgroup":    true,
}

// site is a place where something starts a goroutine.
type site struct {
	pos  token.Position
	what string
}

func (s site) String() string { return fmt.Sprintf("%s:%d: %s", s.pos.Filename, s.pos.Line, s.what) }

// starters returns the places in n that start a goroutine.
func starters(fset *token.FileSet, n ast.Node) []site {
	var out []site
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			out = append(out, site{fset.Position(n.Go), "go statement"})
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if c, ok := startingCalls[sel.Sel.Name]; ok && len(n.Args) == c.args {
				out = append(out, site{fset.Position(n.Lparen), c.what})
			}
		}
		return true
	})
	return out
}

// joinedDirective marks a function whose goroutines all end before it
// returns and run none of its callers' code (a fork and join, say over
// the bands of a picture): its own package's tests run it under the race
// detector, its importers' tests need not, as a caller cannot race with
// goroutines that run only while it waits. testall checks the function
// waits (a .Wait() call) and refuses the mark elsewhere.
const joinedDirective = "//testall:joined"

// code is what a package's code (not its tests) runs concurrently.
type code struct {
	// own says why the package's own tests run concurrent code (its
	// goroutines, joined or not, or what importers says); "" if they do not.
	own string
	// importers says why the tests of a package importing it do: a
	// goroutine it starts outside a joined function, an outside package
	// that calls it back from its goroutines, or an import of ours whose
	// importers do.
	importers string
}

// classifier classifies the packages of a module.
type classifier struct {
	root string // the module's directory, to print paths relative to it
	pkgs map[string]*Package
	fset *token.FileSet
	code map[string]*code // by import path, once computed
}

func newClassifier(root string, pkgs []*Package) *classifier {
	c := &classifier{root: root, pkgs: map[string]*Package{}, fset: token.NewFileSet(), code: map[string]*code{}}
	for _, p := range pkgs {
		c.pkgs[p.ImportPath] = p
	}
	return c
}

func (c *classifier) parse(p *Package, files []string) ([]*ast.File, error) {
	var out []*ast.File
	for _, name := range files {
		path := filepath.Join(p.Dir, name)
		if rel, err := filepath.Rel(c.root, path); err == nil {
			path = rel
		}
		src, err := os.ReadFile(filepath.Join(p.Dir, name))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(c.fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// codeOf says what package path's code runs concurrently.
func (c *classifier) codeOf(path string) (*code, error) {
	if k := c.code[path]; k != nil {
		return k, nil
	}
	k := &code{}
	c.code[path] = k // an import cycle cannot happen; this ends recursion anyway
	p, ours := c.pkgs[path]
	if !ours {
		if concurrentImports[path] {
			k.own, k.importers = "calls our code from its goroutines", "calls our code from its goroutines"
		}
		return k, nil
	}
	files, err := c.parse(p, append(append([]string(nil), p.GoFiles...), p.CgoFiles...))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		for _, d := range f.Decls {
			s := starters(c.fset, d)
			joined, err := c.joined(d, s)
			if err != nil {
				return nil, err
			}
			if len(s) > 0 && k.own == "" {
				k.own = s[0].String()
			}
			if len(s) > 0 && !joined && k.importers == "" {
				k.importers = s[0].String()
			}
		}
	}
	why, err := c.importing(p.Imports)
	if err != nil {
		return nil, err
	}
	if k.own == "" {
		k.own = why
	}
	if k.importers == "" {
		k.importers = why
	}
	return k, nil
}

// joined reports whether d is a function marked joinedDirective, and
// refuses the mark on one that starts no goroutine or waits for none.
func (c *classifier) joined(d ast.Decl, starts []site) (bool, error) {
	fd, ok := d.(*ast.FuncDecl)
	if !ok || fd.Doc == nil || !slices.ContainsFunc(fd.Doc.List, func(cm *ast.Comment) bool { return cm.Text == joinedDirective }) {
		return false, nil
	}
	waits := false
	ast.Inspect(fd, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" && len(call.Args) == 0 {
				waits = true
			}
		}
		return true
	})
	if len(starts) == 0 || !waits {
		return false, fmt.Errorf("%s: %s on %s, which starts no goroutine or waits for none (no .Wait() call)",
			c.fset.Position(fd.Pos()), joinedDirective, fd.Name.Name)
	}
	return true, nil
}

// importing says why importing these packages brings concurrent code
// into a test binary.
func (c *classifier) importing(imports []string) (string, error) {
	for _, imp := range imports {
		k, err := c.codeOf(imp)
		if err != nil {
			return "", err
		}
		if k.importers != "" {
			return "imports " + imp + " (" + k.importers + ")", nil
		}
	}
	return "", nil
}

// classify classifies one package of the module.
func (c *classifier) classify(path string) (Class, error) {
	p := c.pkgs[path]
	cl := Class{Path: path}
	k, err := c.codeOf(path)
	if err != nil {
		return cl, err
	}
	why := k.own
	// A package whose only goroutines are its joined functions' runs
	// under the race detector the tests that reach them, through its code
	// and its tests' functions alike: the others run nothing concurrent.
	joinedOnly := k.own != "" && k.importers == ""
	if joinedOnly {
		why = ""
	}
	if why == "" {
		why, err = c.importing(append(append([]string(nil), p.TestImports...), p.XTestImports...))
		if err != nil {
			return cl, err
		}
	}
	testFiles, err := c.parse(p, append(append([]string(nil), p.TestGoFiles...), p.XTestGoFiles...))
	if err != nil {
		return cl, err
	}
	var codeFiles []*ast.File
	if joinedOnly {
		if codeFiles, err = c.parse(p, append(append([]string(nil), p.GoFiles...), p.CgoFiles...)); err != nil {
			return cl, err
		}
	}
	// The functions by name (methods too: a call is matched by the name
	// alone, which can only add edges), what each starts directly and
	// which names it mentions: any identifier but a field's name in a
	// composite literal, and of the selectors x.M one that is called, or
	// whose M is a function of the test files (x.Hand that is not called
	// is taken for a field, unless a test helper is called Hand: without
	// types, a method value of the package's code passed around is not
	// followed, which in a package of joined goroutines only can miss no
	// goroutine but a joined one).
	type fn struct {
		starts []site
		refs   []string
	}
	funcs := map[string]*fn{}
	helpers := map[string]bool{}
	for _, f := range testFiles {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				helpers[fd.Name.Name] = true
			}
		}
	}
	for i, f := range append(testFiles, codeFiles...) {
		inTests := i < len(testFiles)
		others := otherPackages(f, path)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				// A goroutine started by a package-level initializer runs
				// whatever test is selected.
				if s := starters(c.fset, d); len(s) > 0 && why == "" {
					why = s[0].String()
				}
				continue
			}
			name := fd.Name.Name
			if inTests && fd.Recv == nil && isTest(name) {
				cl.Tests = append(cl.Tests, name)
			}
			e := funcs[name]
			if e == nil {
				e = &fn{}
				funcs[name] = e
			}
			if fd.Body == nil {
				continue
			}
			e.starts = append(e.starts, starters(c.fset, fd.Body)...)
			called, fields := map[ast.Node]bool{}, map[ast.Node]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					called[n.Fun] = true
				case *ast.CompositeLit:
					for _, el := range n.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							fields[kv.Key] = true
						}
					}
				case *ast.SelectorExpr:
					// testkit.Board is not this package's Board.
					if x, ok := n.X.(*ast.Ident); ok && others[x.Name] {
						return false
					}
					if called[n] || helpers[n.Sel.Name] {
						e.refs = append(e.refs, n.Sel.Name)
					}
					fields[n.Sel] = true // counted here, or not at all
				case *ast.Ident:
					if !fields[n] {
						e.refs = append(e.refs, n.Name)
					}
				}
				return true
			})
		}
	}
	// reached: the goroutine each function reaches through those
	// functions, if any (a fixed point over the calls, in name order so
	// that the same site is named every run).
	names := slices.Sorted(maps.Keys(funcs))
	reached := map[string]*site{}
	for _, name := range names {
		if e := funcs[name]; len(e.starts) > 0 {
			reached[name] = &e.starts[0]
		}
	}
	for changed := true; changed; {
		changed = false
		for _, name := range names {
			if reached[name] != nil {
				continue
			}
			for _, r := range funcs[name].refs {
				if s := reached[r]; s != nil {
					reached[name], changed = s, true
					break
				}
			}
		}
	}
	for _, setup := range []string{"TestMain", "init"} {
		if s := reached[setup]; s != nil && why == "" {
			why = setup + " reaches " + s.String()
		}
	}
	if why != "" {
		cl.Mode, cl.Why = Race, why
		return cl, nil
	}
	for _, t := range cl.Tests {
		if s := reached[t]; s != nil {
			if cl.RaceTests == nil {
				cl.RaceTests = map[string]string{}
			}
			cl.RaceTests[t] = s.String()
		}
	}
	switch {
	case len(cl.RaceTests) > 0 && joinedOnly:
		cl.Mode = Split
		cl.Why = fmt.Sprintf("its goroutines end within a call (%s); %d of its %d tests reach one", k.own, len(cl.RaceTests), len(cl.Tests))
	case len(cl.RaceTests) > 0:
		cl.Mode = Split
		cl.Why = fmt.Sprintf("its code starts no goroutine; %d of its %d tests do", len(cl.RaceTests), len(cl.Tests))
	case len(cl.Tests) == 0:
		cl.Why = "no tests"
	default:
		cl.Why = "starts no goroutine, nor do its imports outside a call"
	}
	return cl, nil
}

// otherPackages are the names under which file f imports packages other
// than self (an external test package imports the one it tests). A name
// is the import's alias or its path's last element; a package named
// otherwise is not recognised, which can only add edges.
func otherPackages(f *ast.File, self string) map[string]bool {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil || path == self {
			continue
		}
		name := pathpkg.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	return names
}

// isTest reports whether a top-level function is one go test runs (or
// benchmarks): Test, Benchmark, Example or Fuzz, then not a lower-case
// letter, as the go command decides.
func isTest(name string) bool {
	for _, prefix := range []string{"Test", "Benchmark", "Example", "Fuzz"} {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		if name == "TestMain" {
			return false
		}
		rest := name[len(prefix):]
		if rest == "" {
			return true
		}
		r, _ := utf8.DecodeRuneInString(rest)
		return !unicode.IsLower(r)
	}
	return false
}

// Classify classifies every package of the module (pkgs is go list's
// ./...), in their order.
func Classify(root string, pkgs []*Package) ([]Class, error) {
	c := newClassifier(root, pkgs)
	var out []Class
	for _, p := range pkgs {
		cl, err := c.classify(p.ImportPath)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.ImportPath, err)
		}
		out = append(out, cl)
	}
	return out, nil
}

// PlainTests are a Split package's tests that run without the race detector.
func (cl Class) PlainTests() []string {
	return slices.DeleteFunc(slices.Clone(cl.Tests), func(t string) bool { return cl.RaceTests[t] != "" })
}
