package diff_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/lint"
)

// side loads one file of a case folder under its base name, so that the
// places in the report do not depend on where the test runs.
func side(t testing.TB, path string, m *lint.Manifest) *diff.Side {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, res, err := diff.Load(lint.Source{Name: filepath.Base(path), Data: data}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		t.Fatalf("%s does not lint clean: %v", path, res.Diagnostics)
	}
	return s
}

// TestGolden compares the report of every case of testdata/diff (old.toml
// to new.toml) in the three formats with want.txt, want.md and want.json;
// go test ./internal/diff -update rewrites them; a case is compiled
// against its manifest.json, or each side against old.manifest.json and
// new.manifest.json, when it has them. The first line of old.toml says
// what the case shows; a case whose folder ends in what it expects is
// held to it: every case but no-change, resident-moved,
// confirm-to-review-auto-off and floor-dropped-auto-off changes
// something, and the widened ones are named in widens below.
func TestGolden(t *testing.T) {
	widens := map[string]bool{
		"available-gained": true, "gate-removed": true, "deferred-gate-removed": true,
		"confirm-to-review-auto-on": true, "auto-approval-on": true, "floor-dropped-auto-on": true,
		"delegation-gained": true, "agent-added": true, "declared-pair": true, "entry-agent-changed": true,
		"pr-researcher-fs-write": true, "pr-auto-approval-on": true, "pr-researcher-delegates-coder": true, "pr-coder-capabilities": true,
		"manifest-classes-cleared": true,
	}
	empty := map[string]bool{"no-change": true, "confirm-to-review-auto-off": true, "resident-moved": true, "resident-declared": true,
		"pr-run-command-confirm": true, "pr-refactor": true, "pr-reviewer-rewrite": true, "reviewer-limits": true}
	// The six pull requests of issue 25 and the reviewer rewrite, graded as
	// a security reviewer would: the delegation and capabilities ones
	// critical, the narrowing nothing, the refactor info only.
	grades := map[string]reach.Grade{
		"pr-researcher-fs-write": reach.High, "pr-run-command-confirm": reach.NoGrade, "pr-auto-approval-on": reach.Critical,
		"pr-researcher-delegates-coder": reach.Critical, "pr-coder-capabilities": reach.Critical, "pr-refactor": reach.Info,
		"pr-reviewer-rewrite": reach.High, "reviewer-limits": reach.High, "no-change": reach.NoGrade, "resident-declared": reach.Info, "declared-pair": reach.Critical,
	}
	m := lint.DefaultManifest()
	for _, dir := range golden.Cases(t, "diff") {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			om, nm := caseManifests(t, dir, m)
			r := diff.Compare(side(t, filepath.Join(dir, "old.toml"), om), side(t, filepath.Join(dir, "new.toml"), nm))
			if r.Widened != widens[name] {
				t.Errorf("widened = %v, want %v", r.Widened, widens[name])
			}
			if r.Empty() != empty[name] {
				t.Errorf("empty = %v, want %v", r.Empty(), empty[name])
			}
			if g, ok := grades[name]; ok && r.Grade != g {
				t.Errorf("grade = %v, want %v", r.Grade, g)
			}
			for format, file := range map[string]string{"human": "want.txt", "markdown": "want.md", "json": "want.json"} {
				var b bytes.Buffer
				if err := diff.Write(&b, format, r); err != nil {
					t.Fatal(err)
				}
				if format == "json" && !json.Valid(b.Bytes()) {
					t.Errorf("the JSON report is not JSON")
				}
				golden.Check(t, filepath.Join(dir, file), b.Bytes())
			}
		})
	}
}

// maybeSide is side for a file that may not exist: nil then.
func maybeSide(t testing.TB, path string, m *lint.Manifest) *diff.Side {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return side(t, path, m)
}
