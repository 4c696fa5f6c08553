package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// TestKeygenAndSign: keygen writes a pair, the private key readable by
// its owner only, and refuses to overwrite either file; compile --sign
// writes a policy that verifies with the public key and is the unsigned
// policy with a signature added; --check with the same key finds it up
// to date.
func TestKeygenAndSign(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "policy.key")
	code, out, errs := clitest.Run(Main, "kokua-compile", "", "keygen", key).Split()
	if code != cli.ExitOK || !strings.Contains(out, "policy.key.pub: public key ed25519:") {
		t.Fatalf("keygen: exit %d, %q %q", code, out, errs)
	}
	info, err := os.Stat(key)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the private key: %v, mode %v; want 0600", err, info.Mode())
	}
	privBefore := mustRead(t, key)
	for _, existing := range []string{key, filepath.Join(dir, "other.key")} {
		if existing != key {
			if err := os.WriteFile(existing+".pub", []byte("keep me"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, _, errs = clitest.Run(Main, "kokua-compile", "", "keygen", existing).Split()
		if code != cli.ExitUsage || !strings.Contains(errs, "exists; a key is never overwritten") {
			t.Errorf("keygen over %s: exit %d, %q", existing, code, errs)
		}
	}
	if mustRead(t, key) != privBefore || mustRead(t, filepath.Join(dir, "other.key.pub")) != "keep me" {
		t.Error("keygen replaced an existing file")
	}
	if _, err := os.Stat(filepath.Join(dir, "other.key")); err == nil {
		t.Error("keygen wrote a private key whose public key file exists")
	}

	signedPath, unsignedPath := filepath.Join(dir, "signed.json"), filepath.Join(dir, "unsigned.json")
	if code, _, errs := clitest.Run(Main, "kokua-compile", "", "--sign", key, "-o", signedPath, shippedPath(t)).Split(); code != cli.ExitOK {
		t.Fatalf("--sign: exit %d, %s", code, errs)
	}
	if code, _, errs := clitest.Run(Main, "kokua-compile", "", "-o", unsignedPath, shippedPath(t)).Split(); code != cli.ExitOK {
		t.Fatalf("unsigned: exit %d, %s", code, errs)
	}
	pub, err := policy.ReadPublicKey(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.LoadVerified(signedPath, pub)
	if err != nil {
		t.Fatalf("the signed policy does not verify: %v", err)
	}
	signed, unsigned := mustRead(t, signedPath), mustRead(t, unsignedPath)
	if head, _, ok := strings.Cut(signed, ",\n  \"signature\""); !ok || head+"\n}\n" != unsigned {
		t.Errorf("the signed policy is not the unsigned one with a signature after the digest")
	}
	if p.Document().Signature.KeyID != policy.KeyID(pub) {
		t.Errorf("key id %s", p.Document().Signature.KeyID)
	}
	if code, _, errs := clitest.Run(Main, "kokua-compile", "", "--check", "--sign", key, "-o", signedPath, shippedPath(t)).Split(); code != cli.ExitOK {
		t.Errorf("--check --sign of an up-to-date signed policy: exit %d, %s", code, errs)
	}
	for _, bad := range []string{filepath.Join(dir, "missing.key"), key + ".pub"} {
		code, _, errs := clitest.Run(Main, "kokua-compile", "", "--sign", bad, shippedPath(t)).Split()
		if code != cli.ExitUsage || !strings.Contains(errs, "--sign") {
			t.Errorf("--sign %s: exit %d, %q", bad, code, errs)
		}
	}
	// The key is read before the config is linted: a key that cannot be
	// used is the one line on stderr, before any finding of a config that
	// has some (hostileCompileConfig's names each get a warning).
	warned := filepath.Join(dir, "warned.toml")
	if err := os.WriteFile(warned, []byte(hostileCompileConfig(false)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := clitest.Run(Main, "kokua-compile", "", warned).Split(); code != cli.ExitOK || !strings.Contains(errs, "unprintable-name") {
		t.Fatalf("the config was meant to compile with warnings: exit %d, %q", code, errs)
	}
	code, _, errs = clitest.Run(Main, "kokua-compile", "", "--sign", key+".pub", warned).Split()
	if code != cli.ExitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "--sign") {
		t.Errorf("--sign with a public key, on a config with warnings: exit %d, stderr %q; want exit 2 and one line", code, errs)
	}
}

// TestRefusesWhatNoRuntimeLoads: a manifest whose spec_bytes is near 2^63
// (issue 13, Why 5: the tool-block sums overflowed to a saved_percent of
// 2.56e19) gives no policy: kokua-compile exits 1 with the invalid-manifest
// finding at the value, naming the bound compile.Write names when it
// refuses the same size (1073741824, policy.MaxSpecBytes), and writes
// nothing. A size at the bound compiles, and the runtime loads it.
func TestRefusesWhatNoRuntimeLoads(t *testing.T) {
	for _, c := range []struct {
		size string
		code int
		want string // in stderr
	}{
		{"9223372036854775000", cli.ExitFindings, "manifest.json:12:25: error: manifest: " +
			`toolset "aimu_agents".tools[0].spec_bytes 9223372036854775000 is not between 0 and 1073741824`},
		{"1073741825", cli.ExitFindings, "spec_bytes 1073741825 is not between 0 and 1073741824"},
		{"1073741824", cli.ExitOK, ""},
	} {
		dir := t.TempDir()
		manifest := filepath.Join(dir, "manifest.json")
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "compile", "tool-block", "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(data, []byte(`"spec_bytes": 500`), []byte(`"spec_bytes": `+c.size), 1)
		if err := os.WriteFile(manifest, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "policy.json")
		config := filepath.Join("..", "..", "testdata", "compile", "tool-block", "config.toml")
		code, stdout, errs := clitest.Run(Main, "kokua-compile", "", "--manifest", manifest, "-o", out, config).Split()
		if code != c.code || !strings.Contains(errs, c.want) || stdout != "" {
			t.Errorf("spec_bytes %s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.size, code, stdout, errs, c.code, c.want)
		}
		_, err = os.Stat(out)
		switch {
		case c.code != cli.ExitOK && err == nil:
			t.Errorf("spec_bytes %s: a policy was written", c.size)
		case c.code == cli.ExitOK:
			if _, err := policy.Load(out); err != nil {
				t.Errorf("spec_bytes %s: the runtime refuses what kokua-compile wrote: %v", c.size, err)
			}
		}
	}
}
