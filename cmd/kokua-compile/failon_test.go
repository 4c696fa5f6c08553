package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestDiffFailOnExitCodes runs kokua-compile diff on real config pairs,
// one at each grade, under every --fail-on value: it exits 1 when the
// report's most serious change is at least the value's grade (for any:
// medium, or any widening) and 0 when it is just below. The report's
// grade and widening are read from its JSON, so the table cannot drift
// from the cases it names. The high reviewer rewrite widens nothing and
// still fails --fail-on any; a lowered max_per_turn, alone, fails none.
func TestDiffFailOnExitCodes(t *testing.T) {
	limits := filepath.Join(t.TempDir(), "lowered.toml")
	lOld, _ := diffCase(t, "reviewer-limits")
	data, err := os.ReadFile(lOld)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(limits, bytes.Replace(data, []byte("max_per_turn = 5\n"), []byte("max_per_turn = 2\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	const fail, pass = cli.ExitFindings, cli.ExitOK
	tests := []struct {
		name    string
		old     string
		new     string
		grade   string
		widened bool
		// codes are the exits under --fail-on critical, high, medium, any.
		codes [4]int
	}{
		{"critical", "pr-auto-approval-on", "", "critical", true, [4]int{fail, fail, fail, fail}},
		{"high, widened", "pr-researcher-fs-write", "", "high", true, [4]int{pass, fail, fail, fail}},
		{"high, nothing widened", "pr-reviewer-rewrite", "", "high", false, [4]int{pass, fail, fail, fail}},
		{"medium", "agent-added", "", "medium", true, [4]int{pass, pass, fail, fail}},
		{"info", "pr-refactor", "", "info", false, [4]int{pass, pass, pass, pass}},
		{"info, a reviewer limit lowered", "reviewer-limits", limits, "info", false, [4]int{pass, pass, pass, pass}},
		{"none", "gate-added", "", "none", false, [4]int{pass, pass, pass, pass}},
	}
	for _, tt := range tests {
		oldFile, newFile := diffCase(t, tt.old)
		if tt.new != "" {
			newFile = tt.new
		}
		_, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "diff", "--format", "json", "--allow-widen", oldFile, newFile).Split()
		var r struct {
			Grade   string `json:"grade"`
			Widened bool   `json:"widened"`
		}
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("%s: %v\n%s", tt.name, err, stderr)
		}
		if r.Grade != tt.grade || r.Widened != tt.widened {
			t.Fatalf("%s: the report is graded %s (widened %v), want %s (widened %v)", tt.name, r.Grade, r.Widened, tt.grade, tt.widened)
		}
		for i, failOn := range []string{"critical", "high", "medium", "any"} {
			code, _, stderr := clitest.Run(Main, "kokua-compile", "", "diff", "--fail-on", failOn, oldFile, newFile).Split()
			if code != tt.codes[i] {
				t.Errorf("%s: --fail-on %s exits %d, want %d %s", tt.name, failOn, code, tt.codes[i], stderr)
			}
		}
		// The default is any.
		if code, _, _ := clitest.Run(Main, "kokua-compile", "", "diff", oldFile, newFile).Split(); code != tt.codes[3] {
			t.Errorf("%s: with no --fail-on, exit %d, want %d", tt.name, code, tt.codes[3])
		}
	}
}
