package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestFixAndMigrateWriteThePairAlike (issue 38): moving
// [security].confirm_tools, --fix --unsafe-fixes and migrate write the
// same [assistant.tools] at the same place, as docs/migrate.md says, and
// both name every gate of Kokua's built-in pair the move drops, with the
// same notes: the fix is unsafe because it drops them, and the notes say
// which tools then run unasked.
func TestFixAndMigrateWriteThePairAlike(t *testing.T) {
	notes := regexp.MustCompile(`(?m)^[^\n]*: note: (Kokua's built-in pair [^\n]*)$`)
	for _, c := range []struct {
		name, config string
		lost         int // notes of tools that lose their gate
	}{
		{"[assistant] and [security] headers", "[assistant]\nmodel = \"m\"\n\n[agents.assistant.tools]\navailable = [\"web\", \"compute\", \"time\"]\n\n[security]\nconfirm_tools = [\"execute_python\"]\n\n[display]\nshow_tools = true\n", 1},
		{"no [assistant]", "[agents.assistant.tools]\navailable = [\"compute\", \"fs_write\", \"time\"]\n\n[security]\nconfirm_tools = [\"run_command\"]  # ask first\n\n[display]\nshow_tools = true\n", 2},
		{"every gate kept", "[agents.assistant.tools]\navailable = [\"compute\", \"time\"]\n\n[security]\nconfirm_tools = [\"run_command\", \"execute_python\"]\n", 0},
	} {
		fix := clitest.Run(Main, "kokua-lint", c.config, "--fix", "--unsafe-fixes", "-")
		mig := clitest.Run(Main, "kokua-lint", c.config, "migrate", "-")
		if fix.Stdout != mig.Stdout || !strings.Contains(fix.Stdout, "[assistant.tools]") {
			t.Errorf("%s: --fix --unsafe-fixes writes\n%s\nmigrate writes\n%s", c.name, fix.Stdout, mig.Stdout)
		}
		fixNotes, migNotes := notes.FindAllStringSubmatch(fix.Stderr, -1), notes.FindAllStringSubmatch(mig.Stderr, -1)
		if len(fixNotes) != c.lost || len(migNotes) != c.lost {
			t.Errorf("%s: --fix notes %d lost gates, migrate %d; want %d\n%s\n%s", c.name, len(fixNotes), len(migNotes), c.lost, fix.Stderr, mig.Stderr)
			continue
		}
		for i := range fixNotes {
			if fixNotes[i][1] != migNotes[i][1] {
				t.Errorf("%s: --fix says %q, migrate %q", c.name, fixNotes[i][1], migNotes[i][1])
			}
		}
	}
}
