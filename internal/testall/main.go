// Command testall runs the module's tests, under the race detector where
// goroutines live and without it elsewhere. From the module root:
//
//	go run ./internal/testall                  # every package
//	go run ./internal/testall -run X -v ./ai   # go test's flags and packages
//
// The race detector reports two goroutines touching the same memory
// unsynchronised, and costs a test binary five to ten times its time. A
// test binary in which nothing starts a second goroutine cannot report
// one, so testall reads the source and runs under -race:
//
//   - all the tests of a package whose code starts goroutines (a go
//     statement; a call of a method or function named Go, AfterFunc,
//     Parallel, RunParallel or Batch, which run a function on a goroutine
//     of their own), imports an outside package that calls our code from
//     its own goroutines (net/http, httptest, discordgo, errgroup), or
//     imports, in its code or its tests, a package of ours whose
//     goroutines may run alongside it;
//   - in any other package, the tests that start a goroutine through the
//     test files' functions (t.Parallel counts); the package's other tests
//     run without the race detector (go test -skip divides them).
//
// A function marked //testall:joined (its goroutines end before it
// returns and run none of its callers' code, like imaging's PNG encoder's
// bands) puts under the race detector the tests of its own package that
// reach it, not its importers: a caller cannot race with goroutines that
// run only while it waits. testall refuses the mark on a function that
// waits for nothing.
//
// Tests reach functions through calls matched by name, within the
// package (testkit.Board is not the package's Board); without types, a
// selector x.M that is not called counts only when a test file declares
// an M, so a method of the package's code passed as a value is not
// followed (in a package of joined goroutines only, that can miss none
// but a joined one).
//
// The rest run without it. The reading over-approximates (a method called
// Go counts wherever it is from): a mistake costs time, not a race left
// unlooked for. testall prints each package's class and why, runs the two
// go test invocations side by side (the race one's output first), and
// fails when either fails. Flags and packages pass through to go test;
// -timeout is 20m unless given.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// valueFlags are go test's flags (its own, the build's and the test
// binary's) that take a value as the next argument.
var valueFlags = map[string]bool{
	"run": true, "skip": true, "count": true, "timeout": true, "p": true, "cpu": true,
	"bench": true, "benchtime": true, "parallel": true, "shuffle": true, "list": true,
	"fuzz": true, "fuzztime": true, "fuzzminimizetime": true, "coverprofile": true,
	"cpuprofile": true, "memprofile": true, "memprofilerate": true, "blockprofile": true,
	"blockprofilerate": true, "mutexprofile": true, "mutexprofilefraction": true,
	"trace": true, "outputdir": true, "covermode": true, "coverpkg": true, "o": true,
	"exec": true, "vet": true, "tags": true, "ldflags": true, "gcflags": true,
	"asmflags": true, "gccgoflags": true, "mod": true, "modfile": true, "pkgdir": true,
	"overlay": true, "C": true, "toolexec": true, "pgo": true, "artifacts": true,
}

// args is the command line, sorted out.
type args struct {
	flags    []string // for go test, -skip aside
	skip     string   // the caller's -skip
	tags     []string // -tags, for go list too
	packages []string
	tail     []string // -args and after
}

func parseArgs(in []string) args {
	var a args
	timeout := false
	for i := 0; i < len(in); i++ {
		arg := in[i]
		if !strings.HasPrefix(arg, "-") {
			a.packages = append(a.packages, arg)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if name == "args" {
			a.tail = in[i:]
			break
		}
		if !hasValue && valueFlags[name] && i+1 < len(in) {
			i++
			value, hasValue = in[i], true
		}
		switch name {
		case "skip":
			a.skip = value
			continue
		case "timeout":
			timeout = true
		case "tags":
			a.tags = []string{"-tags", value}
		}
		a.flags = append(a.flags, "-"+name)
		if hasValue {
			a.flags[len(a.flags)-1] += "=" + value
		}
	}
	if !timeout {
		a.flags = append(a.flags, "-timeout=20m")
	}
	return a
}

// list runs go list -json over patterns in dir.
func list(dir string, tags []string, patterns ...string) ([]*Package, error) {
	cmd := exec.Command("go", append(append([]string{"list", "-e", "-json=ImportPath,Dir,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,Imports,TestImports,XTestImports"}, tags...), patterns...)...)
	cmd.Dir, cmd.Stderr = dir, os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []*Package
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p Package
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, &p)
	}
}

func main() {
	a := parseArgs(os.Args[1:])
	code, err := run(a, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testall:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// plan classifies the module's packages and plans the runs of those the
// caller selected.
func plan(a args) ([]Class, []Run, error) {
	root, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	module, err := list(root, a.tags, "./...")
	if err != nil {
		return nil, nil, err
	}
	classes, err := Classify(root, module)
	if err != nil {
		return nil, nil, err
	}
	if len(a.packages) > 0 {
		chosen, err := list(root, a.tags, a.packages...)
		if err != nil {
			return nil, nil, err
		}
		classes = slices.DeleteFunc(classes, func(cl Class) bool {
			return !slices.ContainsFunc(chosen, func(p *Package) bool { return p.ImportPath == cl.Path })
		})
		if len(classes) == 0 {
			return nil, nil, fmt.Errorf("no package of this module matches %s", strings.Join(a.packages, " "))
		}
	}
	return classes, Plan(classes), nil
}

func run(a args, stdout, stderr io.Writer) (int, error) {
	classes, runs, err := plan(a)
	if err != nil {
		return 0, err
	}
	fmt.Fprintln(stderr, "testall: the race detector where goroutines live (go doc ./internal/testall says why)")
	for _, cl := range classes {
		fmt.Fprintf(stderr, "  %-5s %-36s %s\n", cl.Mode, cl.Path, cl.Why)
		for _, t := range cl.Tests {
			if why := cl.RaceTests[t]; why != "" {
				fmt.Fprintf(stderr, "        race: %s (%s)\n", t, filepath.ToSlash(why))
			}
		}
	}
	// The runs go side by side (two cores stay busy through each one's
	// last package); the first's output streams, the others' wait their
	// turn so that no two interleave.
	type result struct {
		out bytes.Buffer
		err error
	}
	results := make([]*result, len(runs))
	var wg sync.WaitGroup
	for i, r := range runs {
		res := &result{}
		results[i] = res
		cmdArgs := append(r.Args(a.flags, a.skip), a.tail...)
		shown := quoted(cmdArgs)
		if i := slices.Index(cmdArgs, "-skip"); i >= 0 && len(r.Skip) > 0 {
			// The names would fill the screen; the plan above lists them.
			shown[i+1] = fmt.Sprintf("<the %d tests the other run has>", len(r.Skip))
			if a.skip != "" {
				shown[i+1] = fmt.Sprintf("<%s, or the %d tests the other run has>", a.skip, len(r.Skip))
			}
		}
		fmt.Fprintln(stderr, "testall: go", strings.Join(shown, " "))
		cmd := exec.Command("go", cmdArgs...)
		if i == 0 {
			cmd.Stdout, cmd.Stderr = stdout, stderr
		} else {
			w := &lockedWriter{w: &res.out}
			cmd.Stdout, cmd.Stderr = w, w
		}
		wg.Go(func() { res.err = cmd.Run() })
	}
	wg.Wait()
	code := 0
	for i, res := range results {
		if i > 0 {
			if _, err := stdout.Write(res.out.Bytes()); err != nil {
				return 0, err
			}
		}
		var exit *exec.ExitError
		switch {
		case errors.As(res.err, &exit):
			code = 1
		case res.err != nil:
			return 0, res.err
		}
	}
	if code != 0 {
		fmt.Fprintln(stderr, "testall: FAIL")
	}
	return code, nil
}

// lockedWriter serialises the writes of a command's two pipes to one buffer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// quoted quotes the arguments a shell would split or expand.
func quoted(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " |()^$*?[]\\'\"") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return out
}
