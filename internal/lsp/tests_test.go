package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testFileURI is the URI of kokua.test.toml in a folder whose config.toml
// is the shipped config, written to disk.
func testFileURI(t *testing.T) DocumentURI {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(shipped(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	return uriOf(filepath.Join(dir, "kokua.test.toml"))
}

// TestPolicyTestDiagnostics (issue 22): a policy test file is checked
// against the config beside it: a selector that matches nothing is an
// error at the selector, with the closest name; an unknown key is an
// error at its line; a file whose selectors all match has no diagnostic.
func TestPolicyTestDiagnostics(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	u := testFileURI(t)
	good, err := os.ReadFile(filepath.Join("..", "..", "examples", "kokua.test.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if ds := c.open(u, string(good)); len(ds) != 0 {
		t.Errorf("the shipped tests: %v", ds)
	}
	bad := "[[expect]]\nagent = \"reseacher\"\ntool = \"compute.run_comand\"\ndecision = \"unavailable\"\nreech = true\n"
	ds := c.change(u, 2, Range{Start: Position{}, End: newText(string(good)).protocolPos(len(good), UTF16)}, bad)
	// The unknown key stops the file before its selectors are checked.
	if len(ds) != 1 || ds[0].Range.Start.Line != 4 || !strings.Contains(ds[0].Message, "unknown key 'reech'") || ds[0].Code != "test-file" {
		t.Errorf("unknown key: %+v", ds)
	}
	fixed := strings.Replace(bad, "reech", "reach", 1)
	ds = c.change(u, 3, Range{Start: Position{}, End: newText(bad).protocolPos(len(bad), UTF16)}, fixed)
	var got []string
	for _, d := range ds {
		got = append(got, d.Message)
		if d.Code != "test-selector" || d.Severity != SeverityError {
			t.Errorf("%+v", d)
		}
	}
	if len(ds) != 2 || ds[0].Range.Start.Line != 1 || ds[0].Range.Start.Character != 8 || !strings.Contains(got[0], "'reseacher' matches no declared agent") ||
		!strings.Contains(got[0], "Did you mean 'researcher'?") || ds[1].Range.Start.Line != 2 || !strings.Contains(got[1], "no tool 'run_comand'") {
		t.Errorf("selectors: %v", ds)
	}
}

// TestPolicyTestFollowsTheConfig: the open config beside a test file is
// what it is checked against, and an edit of it checks the test file
// again.
func TestPolicyTestFollowsTheConfig(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	u := testFileURI(t)
	cfg := uriOf(filepath.Join(filepath.Dir(nameOf(u)), "config.toml"))
	text := shipped(t)
	c.open(cfg, text)
	claim := "[[expect]]\nagent = \"tester\"\ntool = \"*\"\ndecision = \"not run\"\n"
	if ds := c.open(u, claim); len(ds) != 1 || !strings.Contains(ds[0].Message, "'tester' matches no declared agent") {
		t.Fatalf("before: %v", ds)
	}
	added := text + "\n[agents.tester.tools]\navailable = [\"time\"]\n"
	c.change(cfg, 2, Range{Start: Position{}, End: newText(text).protocolPos(len(text), UTF16)}, added)
	if p := c.wait(u); len(p.Diagnostics) != 0 {
		t.Errorf("after the agent was declared: %v", p.Diagnostics)
	}
}

// TestPolicyTestCompletion: in a test file, agents (with "*" and
// "composed"), tools and toolsets, decisions and the keys of [[expect]].
func TestPolicyTestCompletion(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	u := testFileURI(t)
	text := "[[expect]]\nagent = \"\"\ntool = \"c\"\ndecision = [\"\"]\nloaded = [\"\"]\n\n"
	c.open(u, text)
	for _, tc := range []struct {
		at   Position
		want []string
		not  []string
	}{
		{find(t, text, `agent = "`, len(`agent = "`)), []string{"*", "composed", "assistant", "coder", "introspector", "researcher"}, []string{"compute"}},
		{find(t, text, `tool = "c`, len(`tool = "c`)), []string{"*", "compute", "compute.run_command", "core.load_tools", "fs_write.write_file"}, []string{"coder"}},
		{find(t, text, `decision = ["`, len(`decision = ["`)), []string{"run", "confirm", "review", "not_loaded", "unavailable", "denied", "asks", "not run"}, nil},
		{find(t, text, `loaded = ["`, len(`loaded = ["`)), []string{"mcp", "compute"}, []string{"compute.run_command"}},
		{newText(text).protocolPos(len(text), UTF16), []string{"name", "agent", "tool", "decision", "unattended", "loaded", "reach"}, []string{"available"}},
	} {
		got := labels(c.complete(u, tc.at))
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("at %v: %v lacks %q", tc.at, got, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("at %v: %v offers %q", tc.at, got, n)
			}
		}
	}
}
