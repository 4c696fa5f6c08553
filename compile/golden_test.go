package compile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/engine"
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
	// The policy comes from the public API, bytes in, as a host calls
	// it; the agents view, which no host is given, from the engine.
	var manifest []byte
	opts := compile.Options{ConfigName: "config.toml"}
	m := lint.DefaultManifest()
	if data, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err == nil {
		manifest, opts.ManifestName = data, "manifest.json"
		m = lint.LoadManifest(lint.Source{Name: "manifest.json", Data: data})
	}
	compiled, ds, err := compile.Compile(cfg, manifest, opts)
	if err != nil {
		t.Fatalf("%s does not lint clean: %v\n%v", dir, err, ds)
	}
	out, err := policy.Marshal(compiled)
	if err != nil {
		t.Fatal(err)
	}
	res := engine.Run(lint.Source{Name: "config.toml", Data: cfg}, m)
	var view bytes.Buffer
	if err := engine.WriteAgents(&view, res.World); err != nil {
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
