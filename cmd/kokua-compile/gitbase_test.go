package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

// TestDiffBaseFollowsLinks: --base REF reads a config that is a symbolic
// link in the tree at REF as Kokua would read it in a checkout of REF:
// through the link, relative to the link's folder, and through a linked
// folder. Before, git show gave the link's text, which is no TOML: "the
// base has errors", and the Action passed a critical change (issue 35,
// the attack's finding 6). A link that leaves the repository, names no
// file or loops is a usage error (exit 2), never a base with errors.
func TestDiffBaseFollowsLinks(t *testing.T) {
	needs.Program(t, "git", "Debian's git")
	oldFile, newFile := diffCase(t, "gate-removed")
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	git := gitIn(t, root)
	git("init", "-q", "repo")
	git = gitIn(t, repo)
	for _, d := range []string{"configs", "sub"} {
		if err := os.Mkdir(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(t, oldFile, filepath.Join(repo, "configs", "kokua.toml"))
	// outside.toml exists beside the repository, so that the new side
	// reads; at REF it is no file of the repository.
	copyFile(t, newFile, filepath.Join(root, "outside.toml"))
	links := map[string]string{
		"config.toml":    "configs/kokua.toml",
		"sub/c.toml":     "../configs/kokua.toml",
		"ddir":           "configs",
		"out.toml":       "../outside.toml",
		"abs.toml":       filepath.Join(root, "outside.toml"),
		"dangling.toml":  "nosuch.toml",
		"loop1.toml":     "loop2.toml",
		"loop2.toml":     "loop1.toml",
		"manifest.json":  "configs/nosuch.json",
		"sub/chain.toml": "../config.toml",
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(repo, name)); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	// The head: the linked config removes gates (critical), and the
	// dangling link's target exists now, so that only the base is wrong.
	copyFile(t, newFile, filepath.Join(repo, "configs", "kokua.toml"))
	copyFile(t, newFile, filepath.Join(repo, "nosuch.toml"))
	writeFile(t, filepath.Join(repo, "configs", "nosuch.json"), githubManifest(t, false))

	t.Chdir(repo)
	for _, c := range []struct{ dir, config string }{
		{repo, "config.toml"}, {filepath.Join(repo, "sub"), "c.toml"}, {repo, "sub/c.toml"},
		{repo, "ddir/kokua.toml"}, {repo, "sub/chain.toml"},
	} {
		t.Chdir(c.dir)
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "diff", "--base", "HEAD", c.config).Split()
		if code != cli.ExitFindings || !strings.Contains(headline(stdout), "2 critical, 4 high; 4 widened") {
			t.Errorf("%s in %s: exit %d, want 1 with the gates' removal graded critical:\n%s%s", c.config, c.dir, code, stdout, stderr)
		}
		code, stdout, stderr = clitest.Run(Main, "kokua-compile", "", "diff", "--format", "json", "--allow-widen", "--base", "HEAD", c.config).Split()
		if code != cli.ExitOK || strings.Contains(stdout, "sides_with_errors") {
			t.Errorf("%s in %s, JSON: exit %d, want 0 with both sides compared:\n%s%s", c.config, c.dir, code, stdout, stderr)
		}
	}
	t.Chdir(repo)
	for _, c := range []struct{ config, want string }{
		{"out.toml", "outside the repository"},
		{"abs.toml", "outside the repository"},
		{"dangling.toml", "names no file"},
		{"loop1.toml", "loop"},
	} {
		for _, format := range []string{"human", "json"} {
			code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "diff", "--format", format, "--base", "HEAD", c.config).Split()
			if code != cli.ExitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stdout, "sides_with_errors") {
				t.Errorf("%s (%s): exit %d, want 2 saying %q, and no report of a side with errors:\n%s%s", c.config, format, code, c.want, stdout, stderr)
			}
		}
	}
	// A manifest that is a dangling link at REF is no manifest to grade
	// the base with: the same error, not "not tracked at REF".
	code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "diff", "--base", "HEAD", "--manifest", "manifest.json", "config.toml").Split()
	if code != cli.ExitUsage || !strings.Contains(stderr, "names no file") {
		t.Errorf("a dangling manifest link at REF: exit %d, want 2:\n%s%s", code, stdout, stderr)
	}
	// report --base reads the old side the same way.
	code, _, stderr = clitest.Run(Main, "kokua-compile", "", "report", "--base", "HEAD", "-o", filepath.Join(root, "r.html"), "config.toml").Split()
	if code != cli.ExitOK {
		t.Errorf("report --base through a link: exit %d: %s", code, stderr)
	}
	// A path with no file at REF, and a revision that is none, say so.
	code, _, stderr = clitest.Run(Main, "kokua-compile", "", "diff", "--base", "HEAD", "nosuch.toml").Split()
	if code != cli.ExitUsage || !strings.Contains(stderr, "no file nosuch.toml at HEAD") {
		t.Errorf("a path not at REF: exit %d: %s", code, stderr)
	}
	code, _, stderr = clitest.Run(Main, "kokua-compile", "", "diff", "--base", "no-such-ref", "config.toml").Split()
	if code != cli.ExitUsage || !strings.Contains(stderr, "no-such-ref is no revision of this repository") {
		t.Errorf("a bad revision: exit %d: %s", code, stderr)
	}
}
