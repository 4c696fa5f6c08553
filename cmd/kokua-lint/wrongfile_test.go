package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestWrongFiles (issue 38): the files a new user gives by mistake are
// named for what they are, and nothing advises overwriting them.
// kokua-lint of another program's config.toml, an empty file and a policy
// test file each exit 1 with a no-agents finding that says what the file
// is and no `kokua config init --force`; --manifest (in lint, migrate and
// lsp's setup alike, through cli.Manifest) given a Kokua config or a
// compiled policy is a usage error, exit 2, that says which it is.
func TestWrongFiles(t *testing.T) {
	dir := files(t, map[string]string{
		"cargo/config.toml": "[build]\ntarget = \"x86_64-unknown-linux-gnu\"\n",
		"empty.toml":        "",
		"kokua.test.toml":   "[[expect]]\nname = \"n\"\nagent = \"coder\"\ntool = \"web\"\ndecision = \"unavailable\"\n",
		"config.toml":       shipped(t),
		"policy.json":       `{"policy_version": 1, "agents": {}}`,
	})
	for _, c := range []struct{ file, says string }{
		{"cargo/config.toml", "the file holds none of Kokua's tables (it has [build])"},
		{"empty.toml", "the file is empty"},
		{"kokua.test.toml", "this is a policy test file"},
	} {
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", c.file)
		if r.Code != cli.ExitFindings || !strings.Contains(r.Stdout, c.says) || !strings.Contains(r.Stdout, "[no-agents]") {
			t.Errorf("%s: exit %d, stdout %q; want 1 and a no-agents finding saying %q", c.file, r.Code, r.Stdout, c.says)
		}
		if strings.Contains(r.Stdout, "--force") || strings.Contains(r.Stdout, "overwrite") {
			t.Errorf("%s: the output advises overwriting the file:\n%s", c.file, r.Stdout)
		}
	}
	for _, c := range []struct{ file, is string }{{"config.toml", "a Kokua config"}, {"policy.json", "a compiled policy"}} {
		for _, args := range [][]string{
			{"--manifest", c.file, "config.toml"},
			{"migrate", "--manifest", c.file, "config.toml"},
		} {
			r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", args...)
			want := "kokua-lint: " + c.file + ", given as the manifest, is " + c.is + ", not a registry manifest: "
			if r.Code != cli.ExitUsage || r.Stdout != "" || !strings.HasPrefix(r.Stderr, want) || strings.Count(r.Stderr, "\n") != 1 {
				t.Errorf("%q: exit %d, stderr %q; want 2 and one line starting %q", args, r.Code, r.Stderr, want)
			}
		}
	}
	// docs/manifest.md shows the line for a compiled policy as printed.
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--manifest", "policy.json", "config.toml")
	page, err := os.ReadFile(filepath.Join(root, "docs", "manifest.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "```text\n"+r.Stderr+"```\n") {
		t.Errorf("docs/manifest.md does not show the line --manifest policy.json prints: %q", r.Stderr)
	}
	// The file a manifest should be is still read as one.
	r = clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "manifest")
	m := files(t, map[string]string{"install.json": r.Stdout})
	if r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--manifest", filepath.Join(m, "install.json"), "config.toml"); r.Code != cli.ExitOK {
		t.Errorf("--manifest install.json: exit %d: %s", r.Code, r.Stderr)
	}
}

// TestMigrateWrongFiles (issue 38): migrate given a file with none of
// Kokua's tables refuses it, exit 2, naming what the file is, and writes
// nothing: with --write the file keeps its bytes and no backup is made.
func TestMigrateWrongFiles(t *testing.T) {
	contents := map[string]string{
		"Cargo.toml":      "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\n",
		"empty.toml":      "",
		"comments.toml":   "# nothing yet\n",
		"kokua.test.toml": "[[expect]]\nname = \"n\"\nagent = \"coder\"\ntool = \"web\"\ndecision = \"unavailable\"\n",
	}
	says := map[string]string{
		"Cargo.toml":      "it is another program's TOML (it has [package], [dependencies])",
		"empty.toml":      "it is an empty file",
		"comments.toml":   "it is a file holding only comments",
		"kokua.test.toml": "it is a policy test file",
	}
	for file, is := range says {
		for _, flags := range [][]string{nil, {"--write"}, {"--diff"}, {"--write", "--fix"}} {
			dir := files(t, contents)
			r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", append(append([]string{"migrate"}, flags...), file)...)
			want := "kokua-lint: migrate: " + file + " is not a Kokua config, so there is nothing to migrate: " + is
			if r.Code != cli.ExitUsage || r.Stdout != "" || !strings.HasPrefix(r.Stderr, want) || strings.Count(r.Stderr, "\n") != 1 {
				t.Errorf("migrate %q %s: exit %d, stdout %q, stderr %q; want 2, nothing on stdout and one line starting %q", flags, file, r.Code, r.Stdout, r.Stderr, want)
			}
			if strings.Contains(r.Stderr, "--force") {
				t.Errorf("migrate %q %s advises overwriting the file: %s", flags, file, r.Stderr)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != len(contents) {
				t.Errorf("migrate %q %s left %d files in the folder, want %d (no backup)", flags, file, len(entries), len(contents))
			}
			for name, content := range contents {
				if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(data) != content {
					t.Errorf("migrate %q %s changed %s: %q, %v", flags, file, name, data, err)
				}
			}
		}
	}
}

// TestMigrateStdin (issue 38): migrate - reads standard input, as every
// command's - does (README), and names it <stdin>; --write of standard
// input is a usage error.
func TestMigrateStdin(t *testing.T) {
	old := "[assistant]\nmodel = \"gpt-4o\"\n\n[tools]\ngroups = [\"web\"]\n"
	dir := files(t, map[string]string{"config.toml": old})
	file := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "config.toml")
	in := clitest.RunIn(t, Main, "kokua-lint", dir, nil, old, "migrate", "-")
	if in.Code != file.Code || in.Stdout != file.Stdout || in.Stdout == "" {
		t.Errorf("migrate -: exit %d, stdout %q; migrate config.toml: exit %d, stdout %q; want the same migration", in.Code, in.Stdout, file.Code, file.Stdout)
	}
	if want := strings.ReplaceAll(file.Stderr, "config.toml", "<stdin>"); in.Stderr != want {
		t.Errorf("migrate - says\n%s\nwant\n%s", in.Stderr, want)
	}
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, old, "migrate", "--write", "-")
	if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "--write rewrites a file") {
		t.Errorf("migrate --write -: exit %d, stderr %q; want a usage error", r.Code, r.Stderr)
	}
}
