package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/rules"
)

// TestFixSafety states, rule by rule, the safety of each fix a finding
// gets, in the order offered: a safe fix can only tighten what an agent
// may do, or change nothing; an unsafe one could widen it. It holds them
// without goldens, so that -update cannot accept a fix that turned
// unsafe as safe. Each rule that declares fixes has a case, and each case
// is one its rule declares.
func TestFixSafety(t *testing.T) {
	const pair = "[assistant.tools]\nconfirm = []\nreview = []\n\n"
	const lead = "[agents.assistant.tools]\navailable = [\"compute\", \"fs\", \"fs_write\", \"time\"]\n"
	seen := map[string]map[bool]bool{}
	for _, c := range []struct {
		name, rule, config string
		key                string // the finding's key, when the rule makes several
		safe               []bool // each fix's safety, in order; nil for none
	}{
		{"an agent key moved up", "unknown-key", pair + "[agents.assistant]\n\n" + lead + "description = \"d\"\n", "", []bool{true}},
		{"a model moved up", "unknown-key", pair + "[agents.assistant]\n\n" + lead + "model = \"m\"\n", "", []bool{true}},
		{"delegates_to moved up", "unknown-key", pair + "[agents.assistant]\n\n" + lead + "delegates_to = []\n", "", []bool{false}},
		{"a misspelt key renamed", "unknown-key", pair + "[agents.assistant.tools]\navailable = [\"time\"]\nconfrm = []\n", "", []bool{false}},
		{"confirm_tools moved into a written pair", "removed-key", "[assistant.tools]\nreview = []\n\n" + lead + "\n[security]\nconfirm_tools = [\"fs_write\"]\n", "", []bool{true}},
		{"confirm_tools moved, no pair written", "removed-key", lead + "\n[security]\nconfirm_tools = [\"fs_write\"]\n", "", []bool{false}},
		{"auto_approval.tools moved into a written pair", "removed-key", "[assistant.tools]\nconfirm = []\n\n" + lead + "\n[security.auto_approval]\ntools = [\"fs_write\"]\n", "", []bool{true}},
		{"an unknown toolset", "unknown-toolset", pair + "[agents.assistant.tools]\navailable = [\"tme\"]\n", "", []bool{false}},
		{"an unknown delegate", "unknown-delegate", pair + "[agents.assistant]\ndelegates_to = [\"codr\"]\n\n" + lead + "\n[agents.coder.tools]\navailable = [\"time\"]\n", "", []bool{false}},
		{"the entry agent misspelt", "entry-agent-missing", "[assistant]\nagent = \"asistant\"\n\n" + pair + lead, "", []bool{false}},
		{"all in a list", "all-spelling", pair + "[agents.assistant.tools]\navailable = [\"all\"]\nresident = []\n", "", []bool{false}},
		{"all capitalised", "all-spelling", pair + "[agents.assistant.tools]\navailable = \"All\"\nresident = []\n", "", []bool{false}},
		{"a bare tool with one home", "entry-shape", "[assistant.tools]\nconfirm = [\"run_command\"]\nreview = []\n\n" + lead, "", []bool{true}},
		{"an entry with no tool", "entry-shape", "[assistant.tools]\nconfirm = [\"fs_write.\"]\nreview = []\n\n" + lead, "", []bool{true}},
		{"a misspelt tool", "dead-entry", "[assistant.tools]\nconfirm = [\"compute.run_comand\"]\nreview = []\n\n" + lead, "", []bool{true}},
		{"a misspelt tool with two close names", "pending-dead-entry", "[assistant.tools]\nconfirm = [\"mcp.add_mcp_servr\"]\nreview = []\n\n[agents.assistant.tools]\navailable = [\"mcp\", \"time\"]\nresident = [\"time\"]\n", "", []bool{true, true}},
		{"a declared pair's dropped gates", "declared-pair-drops-gates", "[assistant.tools]\nconfirm = []\nreview = [\"compute.run_command\"]\n\n[agents.assistant.tools]\navailable = [\"compute\", \"time\"]\nconfirm = [\"time\"]\n", "", []bool{true}},
		{"the built-in pair", "entry-scope", lead, "[assistant.tools]", []bool{true}},
		{"the built-in floor", "entry-scope", pair + lead + "\n[security.auto_approval]\nenabled = true\nreviewers = [\"r\"]\n\n[reviewers.r]\nmodel = \"m\"\nsystem_message = \"s\"\n", "[security].never_auto_approve", []bool{true}},
		{"the built-in pair, composed workers hold its toolsets", "entry-scope", "[agents.assistant.tools]\navailable = [\"memory\", \"capabilities\", \"time\"]\n", "[assistant.tools]", []bool{false}},
		{"the built-in pair, a name unresolved", "entry-scope", strings.Replace(lead, `"fs_write"`, `"fs_writ"`, 1), "[assistant.tools]", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := Lint(Source{Name: "config.toml", Data: []byte(c.config)}, nil)
			found := false
			for _, d := range res.Diagnostics {
				if d.Rule != c.rule || c.key != "" && d.Key != c.key {
					continue
				}
				found = true
				var got []bool
				for _, f := range d.Fixes {
					got = append(got, f.Safe)
					if r := rules.ByID(c.rule); !r.Fixes.Allows(f.Safe) {
						t.Errorf("%s makes a fix (safe %v) its rule does not declare", c.rule, f.Safe)
					}
				}
				if !slices.Equal(got, c.safe) {
					t.Errorf("%s: fixes %v have safety %v, want %v", d.Message, d.Fixes, got, c.safe)
				}
				// --fix makes the one fix of a finding, when safe; with
				// --unsafe-fixes, the first of any.
				if want := len(c.safe) == 1 && c.safe[0]; engine.Fixable(d, false) != want {
					t.Errorf("Fixable(safe only) = %v, want %v", !want, want)
				}
				if want := len(c.safe) > 0; engine.Fixable(d, true) != want {
					t.Errorf("Fixable(unsafe too) = %v, want %v", !want, want)
				}
			}
			if !found {
				t.Fatalf("no %s finding in\n%s\n%v", c.rule, c.config, res.Diagnostics)
			}
		})
		if seen[c.rule] == nil {
			seen[c.rule] = map[bool]bool{}
		}
		for _, safe := range c.safe {
			seen[c.rule][safe] = true
		}
	}
	for _, r := range rules.All() {
		for _, safe := range []bool{true, false} {
			if r.Fixes.Allows(safe) && !seen[r.ID][safe] {
				t.Errorf("rule %s declares %v fixes, but no case here states one", r.ID, map[bool]string{true: "safe", false: "unsafe"}[safe])
			}
		}
	}
}
