package migrate_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/migrate"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// TestLosses (issue 38): a config from before the split whose
// [security].confirm_tools becomes [assistant.tools] replaces Kokua's
// built-in pair, and the result names each built-in entry whose tools
// now run unasked, for whom, and the entry that keeps the gate; a pair
// that keeps every built-in gate, an input that already wrote
// [assistant.tools], or agents that hold none of the toolsets lose none.
func TestLosses(t *testing.T) {
	for _, c := range []struct {
		name, config string
		want         []migrate.Loss
	}{
		{"confirm_tools of one tool", "[agents.assistant]\ntools = [\"memory\", \"compute\", \"fs_write\", \"time\"]\n\n[security]\nconfirm_tools = [\"run_command\"]\n",
			[]migrate.Loss{
				{Entry: "compute.execute_python", List: "review", Tools: []string{"compute.execute_python"}, Agents: []string{`"assistant"`}},
				{Entry: "fs_write", List: "review", Tools: []string{"fs_write.write_file", "fs_write.edit_file"}, Agents: []string{`"assistant"`}},
			}},
		{"composed workers too", "[agents.assistant]\ntools = [\"memory\", \"capabilities\", \"compute\", \"time\"]\n\n[security]\nconfirm_tools = [\"run_command\", \"execute_python\"]\n",
			[]migrate.Loss{
				{Entry: "mcp.add_mcp_server", List: "confirm", Tools: []string{"mcp.add_mcp_server"}, Agents: []string{"composed workers"}},
				{Entry: "config.update_config", List: "confirm", Tools: []string{"config.update_config"}, Agents: []string{"composed workers"}},
				{Entry: "fs_write", List: "review", Tools: []string{"fs_write.write_file", "fs_write.edit_file"}, Agents: []string{"composed workers"}},
			}},
		{"every built-in gate kept", "[agents.assistant]\ntools = [\"memory\", \"compute\", \"fs_write\", \"time\"]\n\n[security]\nconfirm_tools = [\"run_command\", \"execute_python\", \"write_file\", \"edit_file\"]\n", nil},
		{"holds none of the toolsets", "[agents.assistant]\ntools = [\"memory\", \"time\"]\n\n[security]\nconfirm_tools = []\n", nil},
		{"[assistant.tools] already written", "[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant]\ntools = [\"memory\", \"compute\", \"time\"]\n", nil},
	} {
		res, err := migrate.Migrate(lint.Source{Name: "config.toml", Data: []byte(c.config)}, lint.DefaultManifest(), migrate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.EqualFunc(res.Losses, c.want, func(a, b migrate.Loss) bool {
			return a.Entry == b.Entry && a.List == b.List && slices.Equal(a.Tools, b.Tools) && slices.Equal(a.Agents, b.Agents)
		}) {
			t.Errorf("%s: losses %+v, want %+v\n%s", c.name, res.Losses, c.want, res.Output)
		}
		for _, l := range res.Losses {
			if m := l.Message(); !strings.Contains(m, "to keep the gate, add \""+l.Entry+"\" to [assistant.tools]."+l.List) {
				t.Errorf("%s: the note does not say how to keep the gate: %s", c.name, m)
			}
		}
	}
}

// TestLossesAreTheRuntimes: over the migrate fixtures and TestLosses's
// kind of config, the tools the losses name are exactly the built-in
// pair's tools that the runtime answers run for an inheriting agent under
// the migrated config, and confirm or review under the same config with
// the built-in pair in place of its [assistant.tools] (its entries on
// toolsets some declared agent lists, the others being refused, and inert
// for declared agents), an independent reading by the compiled policy's
// own decisions.
func TestLossesAreTheRuntimes(t *testing.T) {
	inputs := fixtures(t)
	for _, tools := range []string{`"memory", "compute", "fs_write", "time"`, `"compute", "config", "skills", "mcp", "time"`, `"fs", "fs_write", "compute"`} {
		for _, confirm := range []string{`[]`, `["run_command"]`, `["write_file", "execute_python"]`, `["update_config", "run_command", "execute_python", "write_file", "edit_file"]`} {
			inputs = append(inputs, input{name: tools + " " + confirm, config: []byte("[agents.assistant]\ntools = [" + tools + "]\n\n[security]\nconfirm_tools = " + confirm + "\n"), manifest: lint.DefaultManifest()})
		}
	}
	compared := 0
	for _, in := range inputs {
		// Only an input that wrote no [assistant.tools] had the built-in
		// pair, which a migrated one can replace.
		if root, err := tomlpos.Parse("config.toml", in.config); err != nil || root.Lookup("assistant", "tools") != nil {
			continue
		}
		res, err := migrate.Migrate(lint.Source{Name: "config.toml", Data: in.config}, in.manifest, migrate.Options{})
		if err != nil || res.Lint.HasErrors() {
			continue
		}
		migrated, _, err := diff.Load(lint.Source{Name: "config.toml", Data: res.Output}, in.manifest, nil)
		if err != nil || migrated == nil {
			continue
		}
		builtin, ok := withBuiltinPair(string(res.Output), migrated.Policy.Document())
		if !ok {
			continue
		}
		before, _, err := diff.Load(lint.Source{Name: "config.toml", Data: []byte(builtin)}, in.manifest, nil)
		if err != nil || before == nil {
			continue
		}
		compared++
		want := map[string]bool{}
		doc := migrated.Policy.Document()
		for name, a := range doc.Agents {
			if a.Approval.Source != "inherited" {
				continue
			}
			for ts, t := range doc.Toolsets {
				for _, tool := range t.Tools {
					now := migrated.Policy.DecideIn(name, ts, tool.Name, policy.Turn{})
					was := before.Policy.DecideIn(name, ts, tool.Name, policy.Turn{})
					if now.Decision == policy.Run && (was.Decision == policy.Confirm || was.Decision == policy.Review) {
						want[ts+"."+tool.Name] = true
					}
				}
			}
		}
		got := map[string]bool{}
		for _, l := range res.Losses {
			for _, tool := range l.Tools {
				got[tool] = true
			}
		}
		for tool := range want {
			if !got[tool] {
				t.Errorf("%s: the runtime runs %s unasked where the built-in pair gated it, and no loss names it", in.name, tool)
			}
		}
		for _, l := range res.Losses {
			declaredAgents := slices.DeleteFunc(slices.Clone(l.Agents), func(a string) bool { return a == "composed workers" })
			for _, tool := range l.Tools {
				if len(declaredAgents) > 0 && !want[tool] {
					t.Errorf("%s: a loss names %s for %v, but the runtime gates it as before", in.name, tool, declaredAgents)
				}
			}
		}
	}
	if compared < 10 {
		t.Errorf("compared %d cases; too few", compared)
	}
}

// withBuiltinPair is a config with its [assistant.tools] table, from its
// header to the next header, holding Kokua's built-in pair in place of
// its own: the built-in entries on toolsets some agent of doc declares;
// false when the config writes the table another way (inline, dotted).
func withBuiltinPair(cfg string, doc *policy.Document) (string, bool) {
	declared := func(entry string) bool {
		ts, _, _ := strings.Cut(entry, ".")
		for _, a := range doc.Agents {
			if slices.Contains(a.Available.Expanded, ts) {
				return true
			}
		}
		return false
	}
	list := func(entries []string) string {
		var out []string
		for _, e := range entries {
			if declared(e) {
				out = append(out, `"`+e+`"`)
			}
		}
		return "[" + strings.Join(out, ", ") + "]"
	}
	lines := strings.SplitAfter(cfg, "\n")
	var out strings.Builder
	skipping, found := false, false
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case trimmed == "[assistant.tools]":
			skipping, found = true, true
			out.WriteString("[assistant.tools]\nconfirm = " + list(config.DefaultConfirm) + "\nreview = " + list(config.DefaultReview) + "\n\n")
			continue
		case skipping && strings.HasPrefix(trimmed, "["):
			skipping = false
		}
		if !skipping {
			out.WriteString(l)
		}
	}
	return out.String(), found
}
