package imaging

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestImagingKnowsNoLanguage: every word a picture shows comes from its
// scene (present fills them in the table's language), so no call that
// draws text is given a string literal with a letter in it. Card letters
// come from the cardLetters table, which the legend explains in words.
func TestImagingKnowsNoLanguage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	draws := map[string]bool{"text": true, "textAt": true, "haloTextAt": true, "newLabel": true, "fit": true, "wrap": true}
	checked := 0
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "probe.go" {
			continue // probe.go's made-up scenes only seed the palette: never shown
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := ""
			switch f := call.Fun.(type) {
			case *ast.SelectorExpr:
				fn = f.Sel.Name
			case *ast.Ident:
				fn = f.Name
			}
			if !draws[fn] {
				return true
			}
			checked++
			for _, arg := range call.Args {
				ast.Inspect(arg, func(n ast.Node) bool {
					lit, ok := n.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return true
					}
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					if strings.IndexFunc(s, unicode.IsLetter) >= 0 {
						t.Errorf("%s: %s draws the words %q: take them from the scene", fset.Position(lit.Pos()), fn, s)
					}
					return true
				})
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("only %d text-drawing calls found: the scan is broken", checked)
	}
}
