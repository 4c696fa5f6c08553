package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestComposedWorkersTrap (issue 38): the assistant holds capabilities
// and no agent declares fs_write, so composed workers write files
// unasked. The claim that they do not fails, and its help gives the two
// ways out Kokua allows; gating fs_write in [assistant.tools] without
// either is refused by entry-scope, whose finding gives the same ways out
// and does not say the toolset "builds no tools". Each way out, taken,
// lints clean and makes the claim hold.
func TestComposedWorkersTrap(t *testing.T) {
	const claim = "[[expect]]\nname = \"nothing the assistant sets running writes files unasked\"\nagent = \"assistant\"\ntool = \"fs_write\"\ndecision = \"not run\"\nreach = true\n"
	config := func(available, confirm string) string {
		return "[assistant.tools]\nconfirm = [" + confirm + "]\nreview = []\n\n[agents.assistant.tools]\navailable = [" + available + "]\n"
	}
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("kokua.test.toml", claim)

	// The trap: the claim fails, and its help shows the ways out.
	write("config.toml", config(`"memory", "capabilities", "time"`, ""))
	r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", "config.toml")
	for _, want := range []string{
		"FAIL kokua.test.toml:1: nothing the assistant sets running writes files unasked",
		"composed:* fs_write.write_file: run, want not run",
		"help: composed workers get [assistant.tools]'s pair, but Kokua refuses an entry there on 'fs_write' while no declared agent lists it (entry-scope): declare 'fs_write' on the agent that should hold it, then add 'fs_write.write_file' to [assistant.tools]'s confirm or review; or drop capabilities from every agent Kokua builds, so that none composes workers",
	} {
		if r.Code != cli.ExitFindings || !strings.Contains(r.Stdout, want) {
			t.Errorf("the trap's claim: exit %d; the report does not say %q:\n%s%s", r.Code, want, r.Stdout, r.Stderr)
		}
	}

	// Gating it in [assistant.tools] alone is refused, with the ways out.
	write("config.toml", config(`"memory", "capabilities", "time"`, `"fs_write"`))
	r = clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", "config.toml")
	for _, want := range []string{
		"[assistant.tools].confirm has an entry Kokua refuses: 'fs_write' names toolset 'fs_write', which no agent declares",
		"note: The ways out Kokua allows: declare 'fs_write' on the agent that should hold it (its available list) and keep this entry, which then holds for composed workers too; or drop capabilities from every agent Kokua builds, so that no agent composes workers.",
		"[entry-scope]",
	} {
		if r.Code != cli.ExitFindings || !strings.Contains(r.Stderr, want) {
			t.Errorf("the entry alone: exit %d; stderr does not say %q:\n%s", r.Code, want, r.Stderr)
		}
	}
	if strings.Contains(r.Stderr, "builds no tools") {
		t.Errorf("entry-scope says 'builds no tools' of a toolset composed workers build:\n%s", r.Stderr)
	}

	// Each way out lints clean and makes the claim hold.
	for name, cfg := range map[string]string{
		"declare fs_write on an agent and gate it in [assistant.tools]": config(`"memory", "capabilities", "time", "fs_write"`, `"fs_write"`),
		"drop capabilities": config(`"memory", "time"`, ""),
	} {
		write("config.toml", cfg)
		if r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", "config.toml"); r.Code != cli.ExitOK || r.Stderr != "" {
			t.Errorf("%s: exit %d, stderr %q:\n%s", name, r.Code, r.Stderr, r.Stdout)
		}
	}
}
