package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/tampered"
	"github.com/kokua-policy/kokua-policy/policy"
)

// TestTamperedCorpusRefused: every policy of the tampered corpus is
// refused by decide, session and serve with exit code 4 and the reason
// (issue 13, Why 1: a trust_order naming a missing toolset made decide
// exit 3 and serve exit 2, and resident naming one panicked in session).
func TestTamperedCorpusRefused(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("..", "..", "testdata", "compile", "skills-on-entry", "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := tampered.Corpus(base)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range cases {
		path := filepath.Join(dir, c.Name+".json")
		if err := os.WriteFile(path, c.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"decide", path, "assistant", "memory.store_memory"},
			{"session", "--preload", "skills", path, "writer"},
		} {
			code, out, errs := clitest.Run(Main, "kokua-run", "tools\n", args...).Split()
			if code != cli.ExitRefused || out != "" || !strings.Contains(errs, c.Reason) {
				t.Errorf("%s: %s: exit %d, stdout %q, stderr %q; want 4 saying %q", c.Name, args[0], code, out, errs, c.Reason)
			}
		}
		var log bytes.Buffer
		if code := serve(context.Background(), serveOptions{policy: path, addr: "127.0.0.1:0", stderr: &log}, nil, nil); code != cli.ExitRefused {
			t.Errorf("%s: serve exit %d, want 4: %s", c.Name, code, log.String())
		}
	}
}

// TestVerifyKey: with --verify-key, decide, session and serve take a
// policy signed with the key and refuse, with exit code 4, one that is
// unsigned or signed by another key; a key file that cannot be read is
// a usage error.
func TestVerifyKey(t *testing.T) {
	dir := t.TempDir()
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, ed25519.SeedSize))
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{6}, ed25519.SeedSize))
	pubPEM, err := policy.EncodePublicKey(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	pubFile := write("key.pub", pubPEM)
	unsignedData, err := os.ReadFile(shippedPolicy(t))
	if err != nil {
		t.Fatal(err)
	}
	sign := func(k ed25519.PrivateKey) []byte {
		p, err := policy.Parse("shipped", unsignedData)
		if err != nil {
			t.Fatal(err)
		}
		out, err := policy.MarshalSigned(p.Document(), k)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	signed, byOther, unsigned := write("signed.json", sign(key)), write("other.json", sign(other)), shippedPolicy(t)

	if code, out, errs := clitest.Run(Main, "kokua-run", "", "decide", "--verify-key", pubFile, signed, "coder", "compute.run_command").Split(); code != cli.ExitReview {
		t.Errorf("a signed policy: exit %d, %s %s", code, out, errs)
	}
	if code, out, errs := clitest.Run(Main, "kokua-run", "call write_file\n", "session", "--verify-key", pubFile, signed, "coder").Split(); code != cli.ExitOK || !strings.Contains(out, "review") {
		t.Errorf("a signed policy's session: exit %d, %q %q", code, out, errs)
	}
	for _, c := range []struct{ path, want string }{
		{unsigned, "it is not signed"},
		{byOther, "it is signed by key " + policy.KeyID(other.Public().(ed25519.PublicKey))},
	} {
		for _, args := range [][]string{
			{"decide", "--verify-key", pubFile, c.path, "coder", "compute.run_command"},
			{"session", "--verify-key", pubFile, c.path, "coder"},
		} {
			if code, out, errs := clitest.Run(Main, "kokua-run", "tools\n", args...).Split(); code != cli.ExitRefused || out != "" || !strings.Contains(errs, c.want) {
				t.Errorf("%v: exit %d, %q %q; want 4 saying %q", args, code, out, errs, c.want)
			}
		}
		var log bytes.Buffer
		if code := serve(context.Background(), serveOptions{policy: c.path, verifyKey: pubFile, addr: "127.0.0.1:0", stderr: &log}, nil, nil); code != cli.ExitRefused || !strings.Contains(log.String(), c.want) {
			t.Errorf("serve %s: exit %d, log %s", c.path, code, log.String())
		}
	}
	for _, keyFile := range []string{filepath.Join(dir, "missing.pub"), signed} {
		if code, _, errs := clitest.Run(Main, "kokua-run", "", "decide", "--verify-key", keyFile, signed, "coder", "calculate").Split(); code != cli.ExitUsage || !strings.Contains(errs, "--verify-key") {
			t.Errorf("key file %s: exit %d, %q; want 2", keyFile, code, errs)
		}
	}
}
