package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

// prConfig is issue 35's pull request: before, the coder holds the user's
// files and code; after, it also holds the github MCP server.
const prConfig = `[assistant.tools]
confirm = []
review = []

[agents.assistant]
delegates_to = ["coder"]

[agents.assistant.tools]
available = ["time"]

[agents.coder.tools]
available = ["fs", "compute"]

[[mcp.server]]
name = "github"
url = "https://api.github.com/mcp"
`

var prConfigAfter = strings.Replace(prConfig, `available = ["fs", "compute"]`, `available = ["fs", "compute", "github"]`, 1)

// githubManifest is the default install with the github server, its
// classes those of its kind (untrusted-input, egress), or cleared.
func githubManifest(t *testing.T, cleared bool) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(manifest.DefaultManifest(), &m); err != nil {
		t.Fatal(err)
	}
	gh := map[string]any{"name": "github", "kind": "mcp", "description": "-", "connected": true,
		"tools": []any{map[string]any{"name": "read_issue"}, map[string]any{"name": "create_gist"}}}
	if cleared {
		gh["classes"] = []string{}
	}
	m["toolsets"] = append(m["toolsets"].([]any), gh)
	data, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// headline is a report's first line.
func headline(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// TestDiffBaseManifest: with --base REF and --manifest FILE tracked at
// REF, the old side is compiled against FILE as it is at REF, so issue
// 35's pull request (clear the server's classes, give the coder the
// server) is graded as the base's manifest judges it: critical, and
// --fail-on high fails. A manifest git does not track at REF grades
// both sides with the head's, and the headline says so.
func TestDiffBaseManifest(t *testing.T) {
	needs.Program(t, "git", "Debian's git")
	repo := t.TempDir()
	git := gitIn(t, repo)
	git("init", "-q")
	writeFile(t, filepath.Join(repo, "config.toml"), []byte(prConfig))
	writeFile(t, filepath.Join(repo, "manifest.json"), githubManifest(t, false))
	git("add", "config.toml", "manifest.json")
	git("commit", "-q", "-m", "base")
	writeFile(t, filepath.Join(repo, "config.toml"), []byte(prConfigAfter))
	writeFile(t, filepath.Join(repo, "manifest.json"), githubManifest(t, true))
	writeFile(t, filepath.Join(repo, "untracked.json"), githubManifest(t, true))
	t.Chdir(repo)

	code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "diff", "--fail-on", "high", "--base", "HEAD", "--manifest", "manifest.json", "config.toml").Split()
	if code != cli.ExitFindings || !strings.Contains(headline(stdout), "critical") || !strings.Contains(headline(stdout), "the manifest differs") {
		t.Errorf("--base with a tracked manifest: exit %d, want 1 with a critical grade and the manifest named in the headline:\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "manifest: HEAD:manifest.json sha256:") || !strings.Contains(stdout, "classes untrusted-input, egress -> none") {
		t.Errorf("the report does not show the base's manifest and the classes it cleared:\n%s", stdout)
	}

	// Not tracked at HEAD: the head's on both sides, said in the headline.
	code, stdout, _ = clitest.Run(Main, "kokua-compile", "", "diff", "--fail-on", "high", "--base", "HEAD", "--manifest", "untracked.json", "config.toml").Split()
	note := "the manifest untracked.json is not tracked at HEAD, so the old side is graded with the new side's"
	if code != cli.ExitOK || !strings.Contains(headline(stdout), note) || !strings.Contains(headline(stdout), "medium") {
		t.Errorf("an untracked manifest: exit %d, want 0 (medium) and the note %q in the headline:\n%s", code, note, stdout)
	}
	_, js, _ := clitest.Run(Main, "kokua-compile", "", "diff", "--format", "json", "--base", "HEAD", "--manifest", "untracked.json", "config.toml").Split()
	if !strings.Contains(js, note) {
		t.Errorf("the JSON report lacks the note:\n%s", js)
	}

	// --base-manifest overrides the manifest at REF: the old side is
	// compiled against it (the same content as the head's here).
	code, stdout, _ = clitest.Run(Main, "kokua-compile", "", "diff", "--format", "json", "--fail-on", "high", "--base", "HEAD", "--base-manifest", "untracked.json", "--manifest", "manifest.json", "config.toml").Split()
	var r struct {
		Manifest struct {
			Old     struct{ File string }
			Differs bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != cli.ExitOK || r.Manifest.Old.File != "untracked.json" || r.Manifest.Differs {
		t.Errorf("--base-manifest with --base: exit %d, want 0 with the old side compiled against it (%v):\n%s", code, err, stdout)
	}

	// report --base REF reads the manifest at REF as well.
	code, page, stderr := clitest.Run(Main, "kokua-compile", "", "report", "--base", "HEAD", "--manifest", "manifest.json", "config.toml").Split()
	if code != cli.ExitOK || !strings.Contains(page, "Manifest and MCP servers") || !strings.Contains(page, "HEAD:manifest.json") {
		t.Errorf("report --base: exit %d, the page lacks the manifest section: %s", code, stderr)
	}
}

// TestDiffBaseManifestFiles: with two files, --base-manifest compiles the
// old one and --manifest the new one.
func TestDiffBaseManifestFiles(t *testing.T) {
	dir := t.TempDir()
	oldCfg, newCfg := filepath.Join(dir, "old.toml"), filepath.Join(dir, "new.toml")
	oldM, newM := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	writeFile(t, oldCfg, []byte(prConfig))
	writeFile(t, newCfg, []byte(prConfigAfter))
	writeFile(t, oldM, githubManifest(t, false))
	writeFile(t, newM, githubManifest(t, true))

	// One manifest on both sides: the cleared classes hide the risk.
	code, stdout, _ := clitest.Run(Main, "kokua-compile", "", "diff", "--fail-on", "high", "--manifest", newM, oldCfg, newCfg).Split()
	if code != cli.ExitOK || strings.Contains(stdout, "critical") {
		t.Fatalf("one manifest: exit %d; the test's premise is a change that passes --fail-on high:\n%s", code, stdout)
	}
	code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "diff", "--fail-on", "high", "--base-manifest", oldM, "--manifest", newM, oldCfg, newCfg).Split()
	if code != cli.ExitFindings || !strings.Contains(headline(stdout), "critical") || !strings.Contains(headline(stdout), "the manifest differs") {
		t.Errorf("--base-manifest: exit %d, want 1 and critical:\n%s%s", code, stdout, stderr)
	}

	policy := compileTo(t, oldCfg, "old.json")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a policy carries its classes", []string{"--base-manifest", oldM, policy, newCfg}, "is a compiled policy, which carries the classes it was compiled with"},
		{"missing", []string{"--base-manifest", filepath.Join(dir, "nope.json"), oldCfg, newCfg}, "cannot read"},
		{"empty", []string{"--base-manifest", "", oldCfg, newCfg}, cli.ErrEmptyValue.Error()},
	}
	for _, tt := range tests {
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", append([]string{"diff"}, tt.args...)...).Split()
		if code != cli.ExitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want a usage error saying %q", tt.name, code, stdout, stderr, tt.want)
		}
	}
}
