package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// folderOfConfigs writes a folder holding the shipped config at its top
// and in team/, each with the shipped tests beside it, and Cargo's
// config.toml in .cargo/ and in rust/, which must be passed over.
func folderOfConfigs(t *testing.T) string {
	t.Helper()
	root := golden.Root(t)
	cfg, err := os.ReadFile(filepath.Join(root, "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	tests, err := os.ReadFile(filepath.Join(root, "examples", "kokua.test.toml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"config.toml": cfg, "kokua.test.toml": tests, "team/config.toml": cfg, "team/kokua.test.toml": tests,
		".cargo/config.toml": []byte("[build]\n"), "rust/config.toml": []byte("[build]\n"), "notes/config.toml": cfg,
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCheckFolder (issue 38): kokua-compile --check -o NAME DIR checks
// every Kokua config below DIR against the policy NAME beside it: exit 0
// when each is up to date, 1 with one line for each that is missing or
// stale (the others still checked). Without --check a folder is a usage
// error, as is an absolute -o with a folder, and a folder with no Kokua
// config.
func TestCheckFolder(t *testing.T) {
	dir := folderOfConfigs(t)
	for _, cfg := range []string{"config.toml", "team/config.toml", "notes/config.toml"} {
		if r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "-o", filepath.Join(filepath.Dir(cfg), "kokua-policy.json"), cfg); r.Code != cli.ExitOK {
			t.Fatalf("compile %s: exit %d: %s", cfg, r.Code, r.Stderr)
		}
	}
	if r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "--check", "-o", "kokua-policy.json", "."); r.Code != cli.ExitOK || r.Stderr != "" {
		t.Errorf("--check . with every policy up to date: exit %d, stderr %q", r.Code, r.Stderr)
	}
	if err := os.Remove(filepath.Join(dir, "team", "kokua-policy.json")); err != nil {
		t.Fatal(err)
	}
	r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "--check", "-o", "kokua-policy.json", ".")
	if r.Code != cli.ExitFindings || strings.Count(r.Stderr, "\n") != 1 || !strings.HasPrefix(r.Stderr, "kokua-compile: team/kokua-policy.json is missing") {
		t.Errorf("--check . with team's policy missing: exit %d, stderr %q; want 1 and one line for it", r.Code, r.Stderr)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"."}, ". is a folder: name one config to compile (--check and test take a folder)"},
		{[]string{"-o", "p.json", "."}, ". is a folder: name one config to compile"},
		{[]string{"--check", "."}, "--check needs -o FILE"},
		{[]string{"--check", "-o", filepath.Join(dir, "kokua-policy.json"), "."}, "with a folder, -o names the policy beside each config"},
		{[]string{"--check", "-o", "kokua-policy.json", "rust"}, "rust is a folder with no Kokua config below it: 1 .toml file(s), none with Kokua's tables"},
	} {
		r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", c.args...)
		if r.Code != cli.ExitUsage || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, c.says) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, r.Code, r.Stderr, c.says)
		}
	}
}

// TestTestFolder (issue 38): kokua-compile test DIR runs the tests beside
// every Kokua config below DIR that has a kokua.test.toml (notes/ has
// none, and Cargo's configs are passed over), one human report after
// another, and exits with the worst: 1 when a claim of one fails.
func TestTestFolder(t *testing.T) {
	dir := folderOfConfigs(t)
	r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", ".")
	if r.Code != cli.ExitOK || strings.Count(r.Stdout, "11 claims: 11 hold, 0 fail\n") != 2 || !strings.Contains(r.Stdout, "team/kokua.test.toml:4:") {
		t.Errorf("test .: exit %d, stderr %q:\n%s", r.Code, r.Stderr, r.Stdout)
	}
	teamCfg := filepath.Join(dir, "team", "config.toml")
	data, err := os.ReadFile(teamCfg)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), `available = ["web", "misc"`, `available = ["web", "compute", "misc"`, 1)
	if broken == string(data) {
		t.Fatal("the shipped config no longer lists the researcher's web")
	}
	if err := os.WriteFile(teamCfg, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	r = clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", ".")
	if r.Code != cli.ExitFindings || !strings.Contains(r.Stdout, "11 claims: 11 hold, 0 fail\n") || !strings.Contains(r.Stdout, "FAIL team/kokua.test.toml:4:") {
		t.Errorf("test . with team's researcher holding compute: exit %d, stderr %q:\n%s", r.Code, r.Stderr, r.Stdout)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"test", ".", "kokua.test.toml"}, "with a folder, the test files are the kokua.test.toml beside each config"},
		{[]string{"test", "--format", "json", "."}, "a folder's reports follow one another"},
		{[]string{"test", "notes"}, "no Kokua config below notes has a kokua.test.toml beside it"},
		{[]string{"test", "rust"}, "rust is a folder with no Kokua config below it"},
	} {
		r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", c.args...)
		if r.Code != cli.ExitUsage || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, c.says) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, r.Code, r.Stderr, c.says)
		}
	}
}
