package diff_test

import (
	"bytes"
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
// to new.toml) with want.txt and want.md, and checks its JSON report
// (checkJSONReport; want.json for jsonDiffCase alone);
// go test ./internal/diff -update rewrites them; a case is compiled
// against its manifest.json, or each side against old.manifest.json and
// new.manifest.json, when it has them. The first line of old.toml says
// what the case shows; a case whose folder ends in what it expects is
// held to it: every case but no-change, resident-moved,
// confirm-to-review-auto-off and floor-dropped-auto-off changes
// something, the widened ones are named in widens below, and each case
// states its grades and counts in outcomes.
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
	// Each case's grade, its count of changes of each grade, and how many
	// tools widened and narrowed, stated here so that -update cannot accept
	// a change of them. The six pull requests of issue 25 and the reviewer
	// rewrite are graded as a security reviewer would: the delegation and
	// capabilities ones critical, the narrowing nothing, the refactor info
	// only.
	type outcome struct {
		grade             reach.Grade
		grades            diff.GradeCount
		widened, narrowed int
	}
	outcomes := map[string]outcome{
		"agent-added":                   {reach.Medium, diff.GradeCount{Medium: 6, Info: 1}, 6, 0},
		"agent-removed":                 {reach.Info, diff.GradeCount{Info: 1}, 0, 7},
		"auto-approval-off":             {reach.Info, diff.GradeCount{Info: 1}, 0, 9},
		"auto-approval-on":              {reach.Critical, diff.GradeCount{Critical: 4, High: 12}, 9, 0},
		"available-gained":              {reach.High, diff.GradeCount{High: 3, Info: 1}, 2, 0},
		"available-lost":                {reach.Info, diff.GradeCount{Info: 1}, 0, 2},
		"composed-lost":                 {reach.Info, diff.GradeCount{Info: 1}, 0, 3},
		"confirm-to-review-auto-off":    {reach.NoGrade, diff.GradeCount{}, 0, 0},
		"confirm-to-review-auto-on":     {reach.Medium, diff.GradeCount{Medium: 2}, 2, 0},
		"declared-pair":                 {reach.Critical, diff.GradeCount{Critical: 1, High: 3}, 2, 0},
		"deferred-gate-removed":         {reach.Critical, diff.GradeCount{Critical: 1, High: 1}, 1, 0},
		"delegation-gained":             {reach.Critical, diff.GradeCount{Critical: 1, High: 5, Medium: 1}, 2, 0},
		"delegation-lost":               {reach.NoGrade, diff.GradeCount{}, 0, 7},
		"entry-agent-changed":           {reach.Critical, diff.GradeCount{Critical: 4, High: 15, Medium: 31, Info: 3}, 40, 40},
		"floor-dropped-auto-off":        {reach.Info, diff.GradeCount{Info: 1}, 0, 0},
		"floor-dropped-auto-on":         {reach.High, diff.GradeCount{High: 1}, 1, 0},
		"gate-added":                    {reach.NoGrade, diff.GradeCount{}, 0, 2},
		"gate-removed":                  {reach.Critical, diff.GradeCount{Critical: 2, High: 4}, 4, 0},
		"manifest-classes-cleared":      {reach.Critical, diff.GradeCount{Critical: 2, High: 6, Info: 1}, 2, 0},
		"mcp-server-moved":              {reach.High, diff.GradeCount{High: 2}, 0, 0},
		"no-change":                     {reach.NoGrade, diff.GradeCount{}, 0, 0},
		"pr-auto-approval-on":           {reach.Critical, diff.GradeCount{Critical: 4, High: 12}, 9, 0},
		"pr-coder-capabilities":         {reach.Critical, diff.GradeCount{Critical: 3, High: 8, Medium: 2, Info: 1}, 3, 0},
		"pr-refactor":                   {reach.Info, diff.GradeCount{Info: 3}, 0, 0},
		"pr-researcher-delegates-coder": {reach.Critical, diff.GradeCount{Critical: 1, High: 5, Medium: 1}, 2, 0},
		"pr-researcher-fs-write":        {reach.High, diff.GradeCount{High: 3, Info: 2}, 2, 0},
		"pr-reviewer-rewrite":           {reach.High, diff.GradeCount{High: 2}, 0, 0},
		"pr-run-command-confirm":        {reach.NoGrade, diff.GradeCount{}, 0, 0},
		"resident-declared":             {reach.Info, diff.GradeCount{Info: 2}, 0, 0},
		"resident-moved":                {reach.Info, diff.GradeCount{Info: 1}, 0, 0},
		"reviewer-limits":               {reach.High, diff.GradeCount{High: 1, Info: 1}, 0, 0},
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
			want, ok := outcomes[name]
			if !ok {
				t.Fatalf("state the case's grade, grade counts and tools widened and narrowed in outcomes")
			}
			if got := (outcome{r.Grade, r.Grades, r.WidenedCount, r.NarrowedCount}); got != want {
				t.Errorf("grade %v, grade counts %+v, %d widened, %d narrowed; want %v, %+v, %d, %d",
					got.grade, got.grades, got.widened, got.narrowed, want.grade, want.grades, want.widened, want.narrowed)
			}
			for format, file := range map[string]string{"human": "want.txt", "markdown": "want.md", "json": "want.json"} {
				var b bytes.Buffer
				if err := diff.Write(&b, format, r); err != nil {
					t.Fatal(err)
				}
				if format == "json" {
					checkJSONReport(t, b.Bytes(), r)
					if name != jsonDiffCase {
						golden.CheckOptional(t, filepath.Join(dir, file), nil)
						continue
					}
				}
				golden.Check(t, filepath.Join(dir, file), b.Bytes())
			}
		})
	}
}

// jsonDiffCase is the one case of testdata/diff whose JSON report is a
// golden, want.json: a pull request that widens one agent, with a risk
// path. Every case's JSON report is checked by checkJSONReport.
const jsonDiffCase = "pr-researcher-fs-write"

// maybeSide is side for a file that may not exist: nil then.
func maybeSide(t testing.TB, path string, m *lint.Manifest) *diff.Side {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return side(t, path, m)
}
