package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// riskConfig is a config whose researcher reads the web and holds the
// toolsets in available, with confirm and review as [assistant.tools]'s
// pair and nothing in never_auto_approve.
func riskConfig(available, confirm, review []string) string {
	q := func(xs []string) string {
		var out []string
		for _, x := range xs {
			out = append(out, fmt.Sprintf("%q", x))
		}
		return "[" + strings.Join(out, ", ") + "]"
	}
	return "[assistant]\nagent = \"researcher\"\n\n[assistant.tools]\nconfirm = " + q(confirm) + "\nreview = " + q(review) +
		"\n\n[agents.researcher.tools]\navailable = " + q(append([]string{"web"}, available...)) + "\n\n[security]\nnever_auto_approve = []\n"
}

// TestRisksFailOn: risks --fail-on GRADE exits 1 when a path is graded
// GRADE or above, with one line on stderr that counts them, and 0, with
// the same listing, when the worst path is below it or there is none;
// without --fail-on it exits 0 whatever it lists. One config at each
// grade, each run under every value; the worst grade is read from the
// JSON listing, so the table cannot drift from the configs.
func TestRisksFailOn(t *testing.T) {
	dir := t.TempDir()
	webToShell := filepath.Join(golden.Root(t), "testdata", "risks", "web-to-shell", "config.toml")
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const fail, pass = cli.ExitFindings, cli.ExitOK
	tests := []struct {
		name, config, worst string
		// codes are the exits under --fail-on critical, high, medium.
		codes [3]int
	}{
		{"critical: web content reaches a shell unasked", webToShell, "critical", [3]int{fail, fail, fail}},
		{"high: web content reaches a shell that asks", write("high.toml", riskConfig([]string{"compute"}, []string{"compute.run_command", "compute.execute_python"}, nil)), "high", [3]int{pass, fail, fail}},
		{"medium: web content reaches scheduling that asks", write("medium.toml", riskConfig([]string{"scheduling"}, []string{"scheduling"}, nil)), "medium", [3]int{pass, pass, fail}},
		{"none: web and time", write("none.toml", riskConfig([]string{"time"}, nil, nil)), "none", [3]int{pass, pass, pass}},
	}
	for _, tt := range tests {
		if got := worstRisk(t, tt.config); got != tt.worst {
			t.Fatalf("%s: the worst path is %s, want %s", tt.name, got, tt.worst)
		}
		_, listing, _ := clitest.Run(Main, "kokua-compile", "", "risks", tt.config).Split()
		if code, out, stderr := clitest.Run(Main, "kokua-compile", "", "risks", tt.config).Split(); code != pass || stderr != "" || out != listing {
			t.Errorf("%s: without --fail-on, exit %d, stderr %q; want 0 and nothing", tt.name, code, stderr)
		}
		for i, failOn := range []string{"critical", "high", "medium"} {
			code, out, stderr := clitest.Run(Main, "kokua-compile", "", "risks", "--fail-on", failOn, tt.config).Split()
			if code != tt.codes[i] {
				t.Errorf("%s: --fail-on %s exits %d, want %d (%s)", tt.name, failOn, code, tt.codes[i], stderr)
			}
			if out != listing {
				t.Errorf("%s: --fail-on %s changed the listing:\n%s", tt.name, failOn, out)
			}
			want := ""
			if code == fail {
				want = fmt.Sprintf("kokua-compile: %s has 1 risk path graded %s or above (--fail-on %s)\n", tt.config, failOn, failOn)
				if tt.worst == "critical" {
					// web-to-shell's paths: 2 critical, 1 high.
					n := map[string]int{"critical": 2, "high": 3, "medium": 3}[failOn]
					want = fmt.Sprintf("kokua-compile: %s has %d risk paths graded %s or above (--fail-on %s)\n", tt.config, n, failOn, failOn)
				}
			}
			if stderr != want {
				t.Errorf("%s: --fail-on %s: stderr %q, want %q", tt.name, failOn, stderr, want)
			}
		}
	}
	for _, bad := range []string{"any", "info", "none", "Critical", ""} {
		code, _, stderr := clitest.Run(Main, "kokua-compile", "", "risks", "--fail-on="+bad, webToShell).Split()
		if code != cli.ExitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--fail-on") {
			t.Errorf("--fail-on=%q: exit %d, stderr %q; want a usage error", bad, code, stderr)
		}
	}
}

// worstRisk is the grade of the most serious path risks --format json
// lists for config, "none" when it lists none.
func worstRisk(t *testing.T, config string) string {
	t.Helper()
	code, out, stderr := clitest.Run(Main, "kokua-compile", "", "risks", "--format", "json", config).Split()
	if code != cli.ExitOK {
		t.Fatalf("risks %s: exit %d: %s", config, code, stderr)
	}
	var r struct {
		Agents []struct {
			Paths []struct {
				Grade string `json:"grade"`
			} `json:"paths"`
		} `json:"agents"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{"none": 0, "medium": 1, "high": 2, "critical": 3}
	worst := "none"
	for _, a := range r.Agents {
		for _, p := range a.Paths {
			if _, ok := rank[p.Grade]; !ok {
				t.Fatalf("a path graded %q", p.Grade)
			}
			if rank[p.Grade] > rank[worst] {
				worst = p.Grade
			}
		}
	}
	return worst
}

// TestRisksFailOnProperty: over generated configs (the researcher reads
// the web and holds some of the dangerous toolsets, each gated or not),
// risks --fail-on GRADE exits 0 exactly when no path its JSON listing
// gives is graded GRADE or above: an exit 0 lets a change through, so it
// is held against the listing itself, read independently of the count the
// command makes.
func TestRisksFailOnProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 6))
	toolsets := []string{"compute", "fs", "fs_write", "scheduling", "config", "memory", "time", "skills"}
	entries := []string{"compute.run_command", "compute.execute_python", "fs_write", "scheduling", "config.update_config", "skills"}
	dir := t.TempDir()
	rank := map[string]int{"none": 0, "medium": 1, "high": 2, "critical": 3}
	const n = 60 // well under a second, so -short runs them all
	seen := map[string]int{}
	for i := range n {
		var available, confirm, review []string
		for _, ts := range toolsets {
			if rng.IntN(4) == 0 {
				available = append(available, ts)
			}
		}
		for _, e := range entries {
			ts, _, _ := strings.Cut(e, ".")
			if !slices.Contains(available, ts) {
				continue // an entry no agent's toolset holds is an error
			}
			switch rng.IntN(3) {
			case 0:
				confirm = append(confirm, e)
			case 1:
				review = append(review, e)
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("gen%d.toml", i))
		if err := os.WriteFile(path, []byte(riskConfig(available, confirm, review)), 0o644); err != nil {
			t.Fatal(err)
		}
		worst := worstRisk(t, path)
		seen[worst]++
		for _, failOn := range []string{"critical", "high", "medium"} {
			want := cli.ExitOK
			if rank[worst] >= rank[failOn] {
				want = cli.ExitFindings
			}
			if code, _, stderr := clitest.Run(Main, "kokua-compile", "", "risks", "--fail-on", failOn, path).Split(); code != want {
				t.Errorf("%s (worst path %s): --fail-on %s exits %d, want %d (%s)\n%s", path, worst, failOn, code, want, stderr, riskConfig(available, confirm, review))
			}
		}
	}
	// The generator reaches every grade, so every exit is exercised.
	for g := range rank {
		if seen[g] == 0 {
			t.Errorf("no generated config has its worst path %s (%v)", g, seen)
		}
	}
}

// TestRisksFailOnDoc: docs/risks.md's --fail-on example is what the
// commands print, stderr and exit code included, run in the folder of
// testdata/risks/web-to-shell, the config the page lists.
func TestRisksFailOnDoc(t *testing.T) {
	root := golden.Root(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "risks.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```text\n$ kokua-compile risks --fail-on")
	want, _, ok2 := strings.Cut("$ kokua-compile risks --fail-on"+rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/risks.md has no risks --fail-on example")
	}
	got := transcript(t, filepath.Join(root, "testdata", "risks", "web-to-shell"), want)
	if got != want {
		t.Errorf("docs/risks.md's --fail-on example differs from what the commands print:\n--- printed\n%s--- page\n%s", got, want)
	}
}

// transcript runs the "$ " lines of a doc's example in dir, in process,
// and returns them with what each printed, stderr after stdout: a
// kokua-compile command (its stdout left out when the line sends it to
// /dev/null), or echo $? for the exit code of the one before.
func transcript(t *testing.T, dir, example string) string {
	t.Helper()
	var out strings.Builder
	code := 0
	for _, line := range strings.Split(example, "\n") {
		cmd, ok := strings.CutPrefix(line, "$ ")
		if !ok {
			continue
		}
		out.WriteString(line + "\n")
		if cmd == "echo $?" {
			fmt.Fprintf(&out, "%d\n", code)
			continue
		}
		cmd, quiet := strings.CutSuffix(cmd, " > /dev/null")
		args := strings.Fields(cmd)
		if args[0] != "kokua-compile" {
			t.Fatalf("the example runs %q, which the test cannot", cmd)
		}
		r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", args[1:]...)
		code = r.Code
		if !quiet {
			out.WriteString(r.Stdout)
		}
		out.WriteString(r.Stderr)
	}
	return out.String()
}
