package main

import (
	"os"
	"path/filepath"
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
