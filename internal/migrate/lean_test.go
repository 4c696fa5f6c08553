package migrate_test

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/migrate"
	"github.com/kokua-policy/kokua-policy/lint"
)

// TestLeanSupervisor (issue 38): [assistant].lean_supervisor chose who held
// [tools].groups before [agents] (docs/readings.md). Where the entry
// agent the migration writes gains or loses toolsets against what the
// key gave the assistant, a person is asked (the result is not clean,
// so migrate exits 1) and the toolsets are named; where it agrees, the
// key is dropped with a change that says so and nothing is asked for it.
func TestLeanSupervisor(t *testing.T) {
	const roles = "\n[subagents.roles.researcher]\ndescription = \"r\"\ngroups = [\"web\"]\n"
	const groups = "\n[tools]\ngroups = [\"web\", \"fs\", \"compute\", \"time\", \"misc\"]\n"
	for _, c := range []struct {
		name, config string
		asks         string // a place's message holds this; "" when none speaks of the key
		changes      string // a change's message holds this
	}{
		{"off with roles: the assistant loses the groups",
			"[assistant]\nmodel = \"m\"\nlean_supervisor = false\n" + groups + roles,
			"[assistant].lean_supervisor = false made the assistant the flat agent that carried every group of [tools].groups itself, but with the roles as agents [agents.assistant.tools]'s available list gives it only time of them, so it loses web, fs, compute and misc", ""},
		{"on without roles: the assistant gains the groups",
			"[assistant]\nmodel = \"m\"\nsubagents = true\nlean_supervisor = true\n" + groups,
			"[assistant].lean_supervisor = true kept the assistant to its cross-cutting toolsets and gave [tools].groups to the workers it spawned, but [agents.assistant.tools]'s available list gives the assistant web, fs, compute and misc itself", ""},
		{"not written, spoken of, spawning without roles",
			"[assistant]\nmodel = \"m\"\nsubagents = true\n# lean_supervisor = true\n" + groups,
			"if lean_supervisor was on (it is not written here, and Kokua's examples that describe it say it is on by default), [tools].groups was what the workers the assistant spawned could draw on, not the assistant's own tools, and this list gives the assistant web, fs, compute and misc itself", ""},
		{"on with roles: the clock only, as migrated",
			"[assistant]\nmodel = \"m\"\nlean_supervisor = true\n" + groups + roles,
			"", "[assistant].lean_supervisor = true was dropped"},
		{"off without roles: every group, as migrated",
			"[assistant]\nmodel = \"m\"\nsubagents = true\nlean_supervisor = false\n" + groups,
			"", "[assistant].lean_supervisor = false was dropped"},
		{"on without spawning: lean needs subagents",
			"[assistant]\nmodel = \"m\"\nlean_supervisor = true\n" + groups,
			"", "[assistant].lean_supervisor = true was dropped"},
		{"not written nor spoken of", "[assistant]\nmodel = \"m\"\nsubagents = true\n" + groups, "", ""},
	} {
		res, err := migrate.Migrate(lint.Source{Name: "config.toml", Data: []byte(c.config)}, lint.DefaultManifest(), migrate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var asked, changed bool
		for _, p := range res.Places {
			asked = asked || c.asks != "" && strings.Contains(p.Message, c.asks)
			if c.asks == "" && strings.Contains(p.Message, "lean_supervisor") {
				t.Errorf("%s: a person is asked about lean_supervisor where the migration agrees with it: %s", c.name, p.Message)
			}
		}
		for _, ch := range res.Changes {
			changed = changed || c.changes != "" && strings.Contains(ch.Message, c.changes)
		}
		if c.asks != "" && (!asked || res.Clean()) {
			t.Errorf("%s: clean %v, places %+v; want a person asked: %s\n%s", c.name, res.Clean(), res.Places, c.asks, res.Output)
		}
		if c.changes != "" && !changed {
			t.Errorf("%s: changes %+v; want one saying %s", c.name, res.Changes, c.changes)
		}
		if c.changes != "" && strings.Contains(string(res.Output), "lean_supervisor =") {
			t.Errorf("%s: the key is left in the output:\n%s", c.name, res.Output)
		}
	}
}
