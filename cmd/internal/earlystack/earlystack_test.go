package earlystack_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/kokua-policy/kokua-policy/cmd/internal/earlystack"
)

// TestFirst holds what the package's place rests on: it imports nothing
// but unsafe, and so its init runs before internal/godebug's, the first
// deep init of a command, as GODEBUG=inittrace=1 of this test binary
// shows (the test is an external package, so that its own imports are not
// the package's).
func TestFirst(t *testing.T) {
	if os.Getenv("EARLYSTACK_CHILD") != "" {
		return // the child only initializes, for the trace
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if imp.Path.Value != `"unsafe"` {
				t.Errorf("%s imports %s: with an import, the package may no longer initialize first", name, imp.Path.Value)
			}
		}
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestFirst$")
	cmd.Env = append(os.Environ(), "EARLYSTACK_CHILD=1", "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	order := map[string]int{}
	n := 0
	for line := range strings.Lines(string(out)) {
		if pkg, ok := strings.CutPrefix(line, "init "); ok {
			pkg, _, _ = strings.Cut(pkg, " ")
			order[pkg] = n
			n++
		}
	}
	self, ok := order["github.com/kokua-policy/kokua-policy/cmd/internal/earlystack"]
	godebug, ok2 := order["internal/godebug"]
	if !ok || !ok2 {
		t.Fatalf("inittrace names neither this package nor internal/godebug:\n%s", out)
	}
	if self > godebug {
		t.Errorf("this package initialized after internal/godebug:\n%s", out)
	}
}
