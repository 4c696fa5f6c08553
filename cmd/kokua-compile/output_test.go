package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
)

// TestOutputIsAnInput: -o naming an input (the config, the manifest, the
// signing key; through a symlink too) is a usage error, and every input
// is left as it was. It used to exit 0 and replace the config with its
// policy.
func TestOutputIsAnInput(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"config.toml":   []byte(mustRead(t, shippedPath(t))),
		"manifest.json": manifest.DefaultManifest(),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	key := filepath.Join(dir, "policy.key")
	if r := clitest.Run(Main, "kokua-compile", "", "keygen", key); r.Code != cli.ExitOK {
		t.Fatalf("keygen: %+v", r)
	}
	files["policy.key"], _ = os.ReadFile(key)
	if err := os.Symlink("config.toml", filepath.Join(dir, "link.toml")); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "config.toml")
	for _, args := range [][]string{
		{"-o", config, config},
		{"-o", filepath.Join(dir, "link.toml"), config},
		{"-o", config, "-"},
		{"--manifest", filepath.Join(dir, "manifest.json"), "-o", filepath.Join(dir, "manifest.json"), config},
		{"--sign", key, "-o", key, config},
	} {
		stdin, err := os.Open(config)
		if err != nil {
			t.Fatal(err)
		}
		r := clitest.RunFrom(Main, "kokua-compile", stdin, args...)
		_ = stdin.Close()
		if r.Code != cli.ExitUsage || r.Stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error", args, r.Code, r.Stdout, r.Stderr)
		}
		for name, want := range files {
			if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != string(want) {
				t.Errorf("%q changed %s", args, name)
			}
		}
	}
	// Under --check, -o is read, not written: naming the config there is
	// a stale policy, not a usage error.
	if r := clitest.Run(Main, "kokua-compile", "", "--check", "-o", config, config); r.Code != cli.ExitFindings {
		t.Errorf("--check -o CONFIG CONFIG: %+v; want exit %d", r, cli.ExitFindings)
	}
}
