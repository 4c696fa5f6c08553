package compile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// compileDir compiles a case folder's config.toml against its manifest.json
// (or the embedded default install), naming the files as the folder does.
func compileDir(t testing.TB, dir string) (doc []byte, agents string) {
	t.Helper()
	cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := lint.DefaultManifest()
	if data, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err == nil {
		m = lint.LoadManifest(lint.Source{Name: "manifest.json", Data: data})
	}
	res := lint.Lint(lint.Source{Name: "config.toml", Data: cfg}, m)
	if res.HasErrors() {
		t.Fatalf("%s does not lint clean: %v", dir, res.Diagnostics)
	}
	out, err := policy.Marshal(compile.Compile(res.World,
		compile.Input{Name: "config.toml", Data: cfg}, compile.Input{Name: m.Source.Name, Data: m.Source.Data}))
	if err != nil {
		t.Fatal(err)
	}
	var view bytes.Buffer
	if err := compile.WriteAgents(&view, res.World); err != nil {
		t.Fatal(err)
	}
	return out, view.String()
}

func compileCases(t *testing.T) []string {
	t.Helper()
	return golden.Cases(t, "compile")
}

// TestGolden compiles every case of testdata/compile and compares the
// policy with want.json and the agents view with want-agents.txt; go test
// ./compile -update rewrites them.
func TestGolden(t *testing.T) {
	for _, dir := range compileCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			doc, agents := compileDir(t, dir)
			if _, err := policy.Parse("want.json", doc); err != nil {
				t.Errorf("the runtime refuses the compiled policy: %v", err)
			}
			golden.Check(t, filepath.Join(dir, "want.json"), doc)
			golden.Check(t, filepath.Join(dir, "want-agents.txt"), []byte(agents))
		})
	}
}

// TestDeterministic compiles every case with one and with several threads
// and twice each: the bytes never differ.
func TestDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, dir := range compileCases(t) {
		var first []byte
		for _, procs := range []int{1, 4, 1, 8} {
			runtime.GOMAXPROCS(procs)
			doc, _ := compileDir(t, dir)
			if first == nil {
				first = doc
			} else if !bytes.Equal(doc, first) {
				t.Errorf("%s: GOMAXPROCS=%d gives different bytes", dir, procs)
			}
		}
	}
}
