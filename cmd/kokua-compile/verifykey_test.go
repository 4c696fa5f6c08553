package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestVerifyKey: every subcommand that reads a compiled policy takes
// --verify-key PUB, reads a policy that key signed as it reads it without
// the flag, and refuses with exit 2 and the reason a policy signed by
// another key, an unsigned one, and an input with no compiled policy to
// check (a config carries no signature, and a check of nothing must not
// pass).
func TestVerifyKey(t *testing.T) {
	dir, ours, signed, unsigned := signedShipped(t)
	theirs := newKey(t, filepath.Join(dir, "theirs.key"))
	config := shippedPath(t)
	tests := filepath.Join("..", "..", "examples", "kokua.test.toml")

	// Each subcommand's arguments after --verify-key PUB, reading input.
	commands := map[string]func(input string) []string{
		"agents": func(in string) []string { return []string{"agents", in} },
		"graph":  func(in string) []string { return []string{"graph", in} },
		"risks":  func(in string) []string { return []string{"risks", in} },
		"test":   func(in string) []string { return []string{"test", in, tests} },
		"report": func(in string) []string { return []string{"report", in} },
		"diff":   func(in string) []string { return []string{"diff", in, in} },
	}
	for name, args := range commands {
		run := func(key, input string) (int, string, string) {
			a := args(input)
			if key != "" {
				a = append([]string{a[0], "--verify-key", key}, a[1:]...)
			}
			return clitest.Run(Main, "kokua-compile", "", a...).Split()
		}
		t.Run(name, func(t *testing.T) {
			code, without, errs := run("", signed)
			if code != cli.ExitOK {
				t.Fatalf("without --verify-key: exit %d, %s", code, errs)
			}
			code, with, errs := run(ours+".pub", signed)
			if code != cli.ExitOK || with != without {
				t.Errorf("signed by the key: exit %d, %s; the output differs from the run without the flag: %t", code, errs, with != without)
			}
			for _, c := range []struct{ key, input, want string }{
				{theirs + ".pub", signed, "it is signed by key ed25519:"},
				{ours + ".pub", unsigned, "it is not signed, and a signed policy is required"},
				{ours + ".pub", config, "kokua-compile: --verify-key checks the signature of a compiled policy, and " + config},
				{dir, signed, "kokua-compile: cannot read " + dir},
				{ours, signed, "kokua-compile: --verify-key: "},
			} {
				code, out, errs := run(c.key, c.input)
				if code != cli.ExitUsage || out != "" || !strings.Contains(errs, c.want) {
					t.Errorf("--verify-key %s on %s: exit %d, stdout %d bytes, stderr %q; want exit 2, nothing on stdout, %q",
						filepath.Base(c.key), filepath.Base(c.input), code, len(out), errs, c.want)
				}
			}
		})
	}
}

// TestVerifyKeyTwoSides: diff and report --base check the key on each
// compiled policy they read and leave a config side alone; two configs
// leave the flag nothing to check.
func TestVerifyKeyTwoSides(t *testing.T) {
	dir, key, signed, unsigned := signedShipped(t)
	config := shippedPath(t)
	pub := key + ".pub"
	broken := filepath.Join(dir, "broken.toml")
	if err := os.WriteFile(broken, []byte("[agents.coder\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"diff", "--verify-key", pub, signed, config}, cli.ExitOK, ""},
		{[]string{"diff", "--verify-key", pub, config, signed}, cli.ExitOK, ""},
		{[]string{"diff", "--verify-key", pub, unsigned, config}, cli.ExitUsage, "it is not signed"},
		{[]string{"diff", "--verify-key", pub, signed, unsigned}, cli.ExitUsage, "it is not signed"},
		{[]string{"diff", "--verify-key", pub, config, config}, cli.ExitUsage, "and " + config + " and " + config + " are configs"},
		{[]string{"report", "--verify-key", pub, "--base", signed, config}, cli.ExitOK, ""},
		{[]string{"report", "--verify-key", pub, "--base", unsigned, config}, cli.ExitUsage, "it is not signed"},
		{[]string{"report", "--verify-key", pub, "--base", config, config}, cli.ExitUsage, "are configs"},
		{[]string{"report", "--verify-key", pub, "-o", pub, signed}, cli.ExitUsage, "the verify key"},
		// A policy's refusal comes first, whichever side a config with
		// errors is on.
		{[]string{"diff", "--verify-key", pub, broken, unsigned}, cli.ExitUsage, "it is not signed"},
		{[]string{"diff", "--verify-key", pub, unsigned, broken}, cli.ExitUsage, "it is not signed"},
		{[]string{"report", "--verify-key", pub, "--base", broken, unsigned}, cli.ExitUsage, "it is not signed"},
		{[]string{"diff", "--verify-key", pub, broken, signed}, cli.ExitFindings, "broken.toml has errors"},
	} {
		code, _, errs := clitest.Run(Main, "kokua-compile", "", c.args...).Split()
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, errs, c.code, c.want)
		}
	}
	if got := mustRead(t, pub); !strings.Contains(got, "PUBLIC KEY") {
		t.Errorf("report -o naming the verify key changed it: %q", got)
	}
}

// signedShipped compiles the shipped config twice in a fresh folder:
// signed with a new key (key, with key.pub beside it), and unsigned.
func signedShipped(t *testing.T) (dir, key, signed, unsigned string) {
	t.Helper()
	dir = t.TempDir()
	key = newKey(t, filepath.Join(dir, "ours.key"))
	signed, unsigned = filepath.Join(dir, "signed.json"), filepath.Join(dir, "unsigned.json")
	if code, _, errs := clitest.Run(Main, "kokua-compile", "", "--sign", key, "-o", signed, shippedPath(t)).Split(); code != cli.ExitOK {
		t.Fatalf("--sign: exit %d, %s", code, errs)
	}
	if code, _, errs := clitest.Run(Main, "kokua-compile", "", "-o", unsigned, shippedPath(t)).Split(); code != cli.ExitOK {
		t.Fatalf("compile: exit %d, %s", code, errs)
	}
	return dir, key, signed, unsigned
}

// newKey makes a key pair at path (and path.pub) and returns path.
func newKey(t *testing.T, path string) string {
	t.Helper()
	if code, _, errs := clitest.Run(Main, "kokua-compile", "", "keygen", path).Split(); code != cli.ExitOK {
		t.Fatalf("keygen %s: exit %d, %s", path, code, errs)
	}
	return path
}
