package expect_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/expect"
)

// FuzzTestFile: the test-file parser never panics; it returns a file or
// diagnostics, never both, never neither; every diagnostic is an error
// inside the file; and every claim it returns names an agent, a tool and
// at least one decision that expands.
func FuzzTestFile(f *testing.F) {
	for _, p := range []string{
		filepath.Join("..", "..", "examples", "kokua.test.toml"),
		filepath.Join("..", "..", "testdata", "policytest", "team", "kokua.test.toml"),
		filepath.Join("..", "..", "testdata", "policytest", "bad-file", "kokua.test.toml"),
	} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("[[expect]]\nagent = \"*\"\ntool = \"*\"\ndecision = \"not run\"\nloaded = []\n"))
	f.Add([]byte("expect = [{agent = \"a\", tool = \"t\", decision = [\"asks\"]}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, ds := expect.Parse("kokua.test.toml", data)
		if (file == nil) == (len(ds) == 0) {
			t.Fatalf("file %v with %d diagnostics", file != nil, len(ds))
		}
		for _, d := range ds {
			if d.Span.File != "kokua.test.toml" || d.Span.Start.Offset > len(data) || d.Span.End.Offset > len(data) || d.Message == "" {
				t.Fatalf("diagnostic out of the file: %+v", d)
			}
		}
		if file == nil {
			return
		}
		for _, e := range file.Expects {
			if e.Agent.Text == "" || e.Tool.Text == "" || len(e.Decision) == 0 || len(e.Wanted()) == 0 || e.Title() == "" {
				t.Fatalf("an incomplete claim: %+v", e)
			}
		}
	})
}
