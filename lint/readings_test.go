package lint

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
)

// TestFixWaitsForUnresolvedNames holds issue 36's first class: a fix
// that drops approval entries because "no agent declares" their toolset
// is not made, nor offered, while an unresolved name in the file reads,
// as its help suggests, as that toolset declared. Plain --fix then
// writes nothing that drops a gate; --fix --unsafe-fixes renames first
// and writes the pair, judged again, with the entries the renamed
// toolsets need. A file without such a name gets the fix, safe.
func TestFixWaitsForUnresolvedNames(t *testing.T) {
	const head = "[agents.assistant]\ndelegates_to = [\"coder\"]\n\n[agents.assistant.tools]\navailable = [\"memory\", \"time\"]\n\n"
	const floorHead = "[assistant.tools]\nconfirm = []\nreview = []\n\n[security.auto_approval]\nenabled = true\nreviewers = [\"approval\"]\n\n" +
		"[reviewers.approval]\nmodel = \"anthropic:claude-haiku-4-5\"\nsystem_message = \"Approve plainly.\"\n\n"
	for _, c := range []struct {
		name, config string
		// rule and key are the finding whose fix drops entries.
		rule, key string
		// waits is whether it must wait; unsafe is a text the unsafe
		// fixes' result must hold (the pair judged again), when known.
		waits  bool
		unsafe string
	}{
		{name: "misspelt toolsets", rule: "entry-scope", key: "[assistant.tools]", waits: true,
			config: head + "[agents.coder.tools]\navailable = [\"fs\", \"fs_writ\", \"compte\"]\n",
			unsafe: `review = ["compute.run_command", "compute.execute_python", "fs_write"]`},
		{name: "misspelt header", rule: "entry-scope", key: "[assistant.tools]", waits: true,
			config: head + "[agent.coder.tools]\navailable = [\"fs\", \"fs_write\", \"compute\"]\n"},
		{name: "misspelt key", rule: "entry-scope", key: "[assistant.tools]", waits: true,
			config: head + "[agents.coder.tool]\navailable = [\"fs\", \"fs_write\", \"compute\"]\n",
			unsafe: `review = ["compute.run_command", "compute.execute_python", "fs_write"]`},
		{name: "available misspelt", rule: "entry-scope", key: "[assistant.tools]", waits: true,
			config: head + "[agents.coder.tools]\navailable = [\"fs\"]\navail = [\"fs_write\", \"compute\"]\n"},
		{name: "skills misspelt on the entry agent", rule: "entry-scope", key: "[assistant.tools]", waits: true,
			config: "[agents.assistant.tools]\navailable = [\"memory\", \"time\", \"skils\"]\n",
			unsafe: `confirm = ["skills.add_skill_script"]`},
		{name: "all in a misspelt table", rule: "entry-scope", key: "[assistant.tools]", waits: true,
			config: head + "[agents.coder.tools]\navailable = [\"fs\"]\n\n[agent.worker.tools]\navailable = \"all\"\n"},
		{name: "nothing unresolved", rule: "entry-scope", key: "[assistant.tools]", waits: false,
			config: head + "[agents.coder.tools]\navailable = [\"fs\", \"fs_write\", \"compute\"]\n"},
		{name: "an unresolved name that declares none of them", rule: "entry-scope", key: "[assistant.tools]", waits: false,
			config: head + "[agents.coder.tools]\navailable = [\"fs\", \"fs_write\", \"compute\", \"tme\"]\n"},
		{name: "floor, skills misspelt", rule: "entry-scope", key: "[security].never_auto_approve", waits: true,
			config: floorHead + "[agents.assistant.tools]\navailable = [\"config\", \"time\", \"skils\"]\n",
			unsafe: `never_auto_approve = ["config.update_config", "skills.add_skill_script"]`},
		{name: "floor, nothing unresolved", rule: "entry-scope", key: "[security].never_auto_approve", waits: false,
			config: floorHead + "[agents.assistant.tools]\navailable = [\"config\", \"time\"]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := Source{Name: "config.toml", Data: []byte(c.config)}
			res := Lint(src, nil)
			var found *diag.Diagnostic
			for i, d := range res.Diagnostics {
				if d.Rule == c.rule && d.Key == c.key {
					found = &res.Diagnostics[i]
				}
			}
			if found == nil {
				t.Fatalf("no %s finding at %s in\n%s\n%v", c.rule, c.key, c.config, res.Diagnostics)
			}
			waiting := strings.Contains(found.Text(), "No fix is offered yet")
			switch {
			case c.waits && (len(found.Fixes) > 0 || !waiting):
				t.Fatalf("the fix must wait for the unresolved names: fixes %v, text %q", found.Fixes, found.Text())
			case !c.waits && (len(found.Fixes) != 1 || !found.Fixes[0].Safe || waiting):
				t.Fatalf("with no unresolved name the fix must be offered, safe: fixes %v, text %q", found.Fixes, found.Text())
			}
			fixed := Fix(src, nil, false)
			for _, a := range fixed.Applied {
				if a.Finding.Rule == c.rule && c.waits {
					t.Errorf("--fix made the fix that waits: %s", a.Fix.Title)
				}
			}
			if c.waits && bytes.Contains(fixed.Data, []byte("review = []")) != bytes.Contains(src.Data, []byte("review = []")) {
				t.Errorf("--fix wrote an empty review list:\n%s", fixed.Data)
			}
			if c.unsafe != "" {
				all := Fix(src, nil, true)
				if !bytes.Contains(all.Data, []byte(c.unsafe)) {
					t.Errorf("--fix --unsafe-fixes wrote\n%s\nwant it to hold %s", all.Data, c.unsafe)
				}
			}
		})
	}
}
