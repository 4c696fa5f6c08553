package publicapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	godoc "go/doc"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/kokua-policy/kokua-policy"

// public are the packages a host outside the module imports.
var public = []string{"lint", "compile", "policy", "server", "diag", "kokua"}

// TestNoInternalTypes fails on any exported name of a public package
// whose type, in `go doc -all`, mentions a type of a package under
// internal/: a constant's or variable's type, a function's or method's
// parameters and results, an exported field (an embedded one's promoted
// methods too), an interface's methods, an alias's target. A host could
// not name such a type, and often could not call what takes it.
func TestNoInternalTypes(t *testing.T) {
	var paths []string
	for _, p := range public {
		paths = append(paths, module+"/"+p)
	}
	pkgs := load(t, paths)
	for _, p := range pkgs {
		for _, problem := range internalUses(p) {
			t.Errorf("%s", problem)
		}
	}
}

// TestFindsInternalTypes checks that the check sees what it looks for:
// each way an internal type can show through an exported name is found
// in a package written for it, and an unexported use is not.
func TestFindsInternalTypes(t *testing.T) {
	pkgs := load(t, []string{module + "/internal/publicapi/testdata/leaky"})
	got := internalUses(pkgs[0])
	want := []string{
		"leaky.Alias", "leaky.Const", "leaky.Embeds.Get", "leaky.Field.F", "leaky.Func", "leaky.Iface.Get", "leaky.Map",
		"leaky.Method.Get", "leaky.Promotes.F", "leaky.Var",
	}
	var names []string
	for _, g := range got {
		names = append(names, strings.SplitN(g, ":", 2)[0])
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if !slices.Equal(names, want) {
		t.Errorf("the check found %q, want %q:\n%s", names, want, strings.Join(got, "\n"))
	}
}

// TestNoMutableVars fails on any exported variable of a public package
// that holds a map, a slice or an array: a host could change it for
// every other package of its process (issue 40). Such a fact is a
// function that returns a copy, or a lookup.
func TestNoMutableVars(t *testing.T) {
	var paths []string
	for _, p := range public {
		paths = append(paths, module+"/"+p)
	}
	for _, p := range load(t, paths) {
		for _, name := range mutableVars(p) {
			t.Errorf("%s.%s is an exported map, slice or array", p.Name(), name)
		}
	}
}

// TestFindsMutableVars checks that the check sees each kind it looks for
// in a package written for it, and lets an error variable and an
// unexported map be.
func TestFindsMutableVars(t *testing.T) {
	got := mutableVars(load(t, []string{module + "/internal/publicapi/testdata/mutable"})[0])
	if want := []string{"Array", "Map", "Named", "Slice"}; !slices.Equal(got, want) {
		t.Errorf("the check found %q, want %q", got, want)
	}
}

// mutableVars lists, sorted, the exported package-level variables of p
// whose type is a map, a slice or an array.
func mutableVars(p *types.Package) []string {
	var out []string
	scope := p.Scope()
	for _, name := range scope.Names() {
		v, ok := scope.Lookup(name).(*types.Var)
		if !ok || !v.Exported() {
			continue
		}
		switch v.Type().Underlying().(type) {
		case *types.Map, *types.Slice, *types.Array:
			out = append(out, name)
		}
	}
	return out
}

// TestDocsAndExamples holds each public package to what issue 40 asks of
// it: a package comment that says what a host does with it, and at least
// one runnable example, one with an // Output: comment that go test
// checks.
func TestDocsAndExamples(t *testing.T) {
	for _, name := range public {
		dir := filepath.Join("..", "..", name)
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		var doc string
		var tests []*ast.File
		for _, fname := range files {
			f, err := parser.ParseFile(token.NewFileSet(), fname, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(fname, "_test.go") {
				tests = append(tests, f)
			} else if f.Doc != nil {
				doc += f.Doc.Text()
			}
		}
		if !strings.Contains(doc, "host") {
			t.Errorf("package %s: its comment does not say what a host does with it:\n%s", name, doc)
		}
		runnable := 0
		for _, ex := range godoc.Examples(tests...) {
			if ex.Output != "" || ex.EmptyOutput {
				runnable++
			}
		}
		if runnable == 0 {
			t.Errorf("package %s has no example with an // Output: comment", name)
		}
	}
}

// load type-checks packages from the export data the go command writes
// for them and their dependencies.
func load(t *testing.T, paths []string) []*types.Package {
	t.Helper()
	args := append([]string{"list", "-export", "-deps", "-json=ImportPath,Export,Error"}, paths...)
	cmd := exec.Command("go", args...)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Export string
			Error              *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Error != nil {
			t.Fatalf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		exports[p.ImportPath] = p.Export
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	var pkgs []*types.Package
	for _, path := range paths {
		p, err := imp.Import(path)
		if err != nil {
			t.Fatalf("importing %s: %v", path, err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// internalUses lists, one "pkg.Name: type" line each, the exported names
// of p whose declared type mentions an internal package's type.
func internalUses(p *types.Package) []string {
	var out []string
	report := func(name string, t types.Type) {
		if path := internalIn(t, p, map[types.Type]bool{}); path != "" {
			out = append(out, fmt.Sprintf("%s.%s: %s names %s", p.Name(), name, types.TypeString(t, nil), path))
		}
	}
	scope := p.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		tn, ok := obj.(*types.TypeName)
		if !ok {
			report(name, obj.Type())
			continue
		}
		if tn.IsAlias() {
			report(name, types.Unalias(obj.Type()))
			continue
		}
		named, ok := obj.Type().(*types.Named)
		if !ok {
			continue
		}
		switch u := named.Underlying().(type) {
		case *types.Struct:
			fields(name, u, report, map[*types.Struct]bool{})
		case *types.Interface:
			// Its methods are in its method set, below.
		default:
			report(name, u)
		}
		// The methods, declared and promoted, of T and *T.
		for _, t := range []types.Type{named, types.NewPointer(named)} {
			ms := types.NewMethodSet(t)
			for sel := range ms.Methods() {
				if sel.Obj().Exported() {
					report(name+"."+sel.Obj().Name(), sel.Type())
				}
			}
		}
	}
	return out
}

// fields reports the exported fields of a struct, and those promoted to
// it through an unexported embedded field, which a host reaches as
// though they were its own though go doc does not list them.
func fields(name string, s *types.Struct, report func(string, types.Type), seen map[*types.Struct]bool) {
	if seen[s] {
		return
	}
	seen[s] = true
	for f := range s.Fields() {
		switch {
		case f.Exported():
			report(name+"."+f.Name(), f.Type())
		case f.Embedded():
			t := f.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if inner, ok := t.Underlying().(*types.Struct); ok {
				fields(name, inner, report, seen)
			}
		}
	}
}

// internalIn returns the path of the first internal package a type
// mentions, or "". A named type of self, the package checked, or of
// another public package is checked where it is declared; one of another module or the standard library is the
// library's own business, so neither is followed into.
func internalIn(t types.Type, self *types.Package, seen map[types.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Alias:
		return internalIn(types.Unalias(t), self, seen)
	case *types.Named:
		if pkg := t.Obj().Pkg(); pkg != nil && pkg != self && isInternal(pkg.Path()) {
			return pkg.Path()
		}
		for a := range t.TypeArgs().Types() {
			if path := internalIn(a, self, seen); path != "" {
				return path
			}
		}
		return ""
	case *types.Pointer:
		return internalIn(t.Elem(), self, seen)
	case *types.Slice:
		return internalIn(t.Elem(), self, seen)
	case *types.Array:
		return internalIn(t.Elem(), self, seen)
	case *types.Map:
		if path := internalIn(t.Key(), self, seen); path != "" {
			return path
		}
		return internalIn(t.Elem(), self, seen)
	case *types.Chan:
		return internalIn(t.Elem(), self, seen)
	case *types.Signature:
		for _, tuple := range []*types.Tuple{t.Params(), t.Results()} {
			for v := range tuple.Variables() {
				if path := internalIn(v.Type(), self, seen); path != "" {
					return path
				}
			}
		}
		return ""
	case *types.Struct:
		for f := range t.Fields() {
			if path := internalIn(f.Type(), self, seen); path != "" {
				return path
			}
		}
		return ""
	case *types.Interface:
		for m := range t.Methods() {
			if path := internalIn(m.Type(), self, seen); path != "" {
				return path
			}
		}
		return ""
	}
	return ""
}

// isInternal reports whether an import path is under an internal folder.
func isInternal(path string) bool {
	return strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal") || strings.HasPrefix(path, "internal/")
}
