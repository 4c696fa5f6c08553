package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
)

// TestSARIFFileIsAnInput: --sarif-file naming an input (a config, the
// manifest; through a hard link, or the file standard input is read
// from) is a usage error, and every input is left as it was. It used to
// exit 0 and replace the config with the SARIF log.
func TestSARIFFileIsAnInput(t *testing.T) {
	dir := t.TempDir()
	config, other, m := filepath.Join(dir, "config.toml"), filepath.Join(dir, "other.toml"), filepath.Join(dir, "manifest.json")
	shippedData := []byte(shipped(t))
	files := map[string][]byte{config: shippedData, other: shippedData, m: manifest.DefaultManifest()}
	for name, data := range files {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hard := filepath.Join(dir, "hard.toml")
	if err := os.Link(config, hard); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--sarif-file", config, config},
		{"--sarif-file", config, other, config},
		{"--sarif-file", hard, config},
		{"--sarif-file", config, "-"},
		{"--manifest", m, "--sarif-file", m, config},
	} {
		stdin, err := os.Open(config)
		if err != nil {
			t.Fatal(err)
		}
		r := clitest.RunFrom(Main, "kokua-lint", stdin, args...)
		_ = stdin.Close()
		if r.Code != cli.ExitUsage || r.Stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error", args, r.Code, r.Stdout, r.Stderr)
		}
		for name, want := range files {
			if got, _ := os.ReadFile(name); string(got) != string(want) {
				t.Errorf("%q changed %s", args, name)
			}
		}
	}
}

// TestMigrateWriteIsTheManifest: migrate --write replaces the config, so a
// config that is also the manifest (the same path or a hard link to it)
// is a usage error before either is read, and both are left as they were.
func TestMigrateWriteIsTheManifest(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "manifest.json")
	data := manifest.DefaultManifest()
	if err := os.WriteFile(m, data, 0o644); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "config.toml")
	if err := os.Link(m, hard); err != nil {
		t.Fatal(err)
	}
	for _, config := range []string{m, hard} {
		r := clitest.Run(Main, "kokua-lint", "", "migrate", "--manifest", m, "--write", config)
		if r.Code != cli.ExitUsage || r.Stdout != "" || !strings.Contains(r.Stderr, "is the manifest") {
			t.Errorf("migrate --write %s: exit %d, stdout %q, stderr %q; want a usage error naming the manifest", config, r.Code, r.Stdout, r.Stderr)
		}
		if got, _ := os.ReadFile(m); string(got) != string(data) {
			t.Errorf("migrate --write %s changed the manifest", config)
		}
		if _, err := os.Stat(config + ".bak"); err == nil {
			t.Errorf("migrate --write %s kept a backup of a file it must not touch", config)
		}
	}
}
