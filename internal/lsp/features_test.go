package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
)

func (c *client) complete(u DocumentURI, p Position) []CompletionItem {
	c.t.Helper()
	var list CompletionList
	c.call(methodCompletion, CompletionParams{TextDocumentPositionParams: TextDocumentPositionParams{
		TextDocument: TextDocumentIdentifier{URI: u}, Position: p}}, &list)
	return list.Items
}

func labels(items []CompletionItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

// TestCompletion: registered toolset names in available and resident,
// "all" only as available's whole value; entries in the approval lists;
// agent names in delegates_to and [assistant].agent; the keys of a
// tool-access table. It works on a text that is not valid TOML, as a
// line being typed is.
func TestCompletion(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	u := fileURI(t, "config.toml")
	text := shipped(t)
	c.open(u, text)

	// Typing a new name into researcher's list: available = ["w|
	at := find(t, text, `available = ["web"`, len(`available = [`))
	c.change(u, 2, Range{Start: at, End: at}, `"w`)
	at.Character += 2
	items := c.complete(u, at)
	got := labels(items)
	if !slices.Contains(got, "web") || !slices.Contains(got, "fs_write") || slices.Contains(got, "all") || len(got) != 23 {
		t.Errorf("available, in a list: %v, want the 23 registered toolsets and no \"all\"", got)
	}
	for _, it := range items {
		if it.Label == "web" && (it.TextEdit == nil || it.TextEdit.NewText != "web" || it.TextEdit.Range.End != at || it.TextEdit.Range.Start.Character != at.Character-1) {
			t.Errorf("in a string, 'web' should replace the word typed with the bare name: %+v", it.TextEdit)
		}
	}

	// available = | (a new agent's tools, typed at the end).
	base := text + "\n[agents.extra]\ndelegates_to = [\"c\"]\n[agents.extra.tools]\nresident = [\"time\"]\n"
	typed := base + "available = "
	c.change(u, 3, Range{Start: Position{}, End: newText(text+`"w`).protocolPos(len(text)+2, UTF16)}, typed)
	end := newText(typed).protocolPos(len(typed), UTF16)
	got = labels(c.complete(u, end))
	if !slices.Contains(got, "all") || !slices.Contains(got, "web") {
		t.Errorf("available's value: %v, want \"all\" and the toolsets", got)
	}
	for _, it := range c.complete(u, end) {
		if it.Label == "web" && it.TextEdit.NewText != `"web"` {
			t.Errorf("outside a string, 'web' is inserted quoted: %q", it.TextEdit.NewText)
		}
	}

	// delegates_to = ["c|"]: the agents, not the agent itself.
	dpos := newText(typed).protocolPos(strings.Index(typed, `["c"]`)+3, UTF16)
	got = labels(c.complete(u, dpos))
	sort.Strings(got)
	if want := []string{"assistant", "coder", "introspector", "researcher"}; !slices.Equal(got, want) {
		t.Errorf("delegates_to: %v, want %v", got, want)
	}

	// A key of [agents.extra.tools], at the start of a line.
	keyed := typed + "\"all\"\nre"
	c.change(u, 4, Range{Start: end, End: end}, "\"all\"\nre")
	got = labels(c.complete(u, newText(keyed).protocolPos(len(keyed), UTF16)))
	sort.Strings(got)
	if want := []string{"available", "confirm", "resident", "review"}; !slices.Equal(got, want) {
		t.Errorf("keys of [agents.<name>.tools]: %v, want %v", got, want)
	}

	// Entries of [assistant.tools].confirm: toolset.tool and bare toolsets.
	got = labels(c.complete(u, find(t, keyed, `"skills.add_skill_script"`, 1)))
	for _, want := range []string{"mcp.add_mcp_server", "mcp", "fs_write.write_file", "core.spawn_subagent"} {
		if !slices.Contains(got, want) {
			t.Errorf("confirm entries lack %q (%d items)", want, len(got))
		}
	}

	// [assistant].agent.
	got = labels(c.complete(u, find(t, keyed, `agent = "assistant"`, len(`agent = "`))))
	// The text is not valid TOML (the key being typed): the agents are
	// those of the last version that was.
	if !slices.Contains(got, "coder") || slices.Contains(got, "extra") {
		t.Errorf("[assistant].agent: %v", got)
	}
}

func (c *client) actions(u DocumentURI, r Range) []CodeAction {
	c.t.Helper()
	var out []CodeAction
	c.call(methodCodeAction, CodeActionParams{TextDocument: TextDocumentIdentifier{URI: u}, Range: r}, &out)
	return out
}

// apply applies one action's edits to the text.
func apply(t *testing.T, text string, u DocumentURI, a CodeAction) string {
	t.Helper()
	edits := a.Edit.Changes[u]
	// From the last edit to the first, so that offsets hold.
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
	})
	for _, e := range edits {
		text = newText(text).edit(e.Range, e.NewText, UTF16).s
	}
	return text
}

// TestCodeActions: each finding whose rule attaches fixes gets one action
// per fix, and applying it makes the finding go (the config linted again
// has no finding of that rule); a finding with two candidates gets both,
// the help line's preferred; "fix all" makes the safe fixes and leaves
// the unsafe; a warning gets "suppress", whose comment hides it once a
// reason is written.
func TestCodeActions(t *testing.T) {
	base := shipped(t)
	for _, c := range []struct {
		name, rule, from, to, title string
	}{
		{"did you mean a toolset", "unknown-toolset", `available = ["web", "misc"`, `available = ["wbe", "misc"`, `Write "web"`},
		{"did you mean an agent", "unknown-delegate", `delegates_to = ["researcher", "coder"`, `delegates_to = ["researcher", "codr"`, `Write "coder"`},
		{"the entry agent", "entry-agent-missing", `agent = "assistant"`, `agent = "asistant"`, `Write "assistant"`},
		{"a misfiled tool", "dead-entry", `"compute.execute_python"`, `"fs.execute_python"`, `Write "compute.execute_python"`},
		{"a bare tool", "entry-shape", `"compute.run_command"`, `"run_command"`, `Write "compute.run_command"`},
		{"an unknown key", "unknown-key", "[agents.coder.tools]\navailable", "[agents.coder.tools]\navail", "Rename the key to available"},
		{"all in a list", "all-spelling", `available = ["fs", "time", "messaging"]`, `available = ["all"]` + "\nresident = []", `Write available = "all"`},
		{"All capitalised", "all-spelling", `available = ["fs", "time", "messaging"]`, `available = "All"` + "\nresident = []", `Write available = "all"`},
		{"confirm_tools", "removed-key", "[assistant.tools]\nconfirm = [\"skills.add_skill_script\", \"mcp.add_mcp_server\", \"config.update_config\"]  # asks you\n", "[assistant.tools]\n", "Move the entries to [assistant.tools].confirm"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(base, c.from, c.to, 1)
			if c.rule == "removed-key" {
				text += "confirm_tools = [\"skills.add_skill_script\", \"mcp.add_mcp_server\"]\n"
			}
			if text == base {
				t.Fatalf("%q is not in the shipped config", c.from)
			}
			cl, _ := start(t, Options{}, nil)
			u := fileURI(t, "config.toml")
			var target *Diagnostic
			ds := cl.open(u, text)
			for i := range ds {
				if ds[i].Code == c.rule {
					target = &ds[i]
				}
			}
			if target == nil {
				t.Fatalf("no %s finding: %+v", c.rule, ds)
			}
			var fix *CodeAction
			for _, a := range cl.actions(u, target.Range) {
				if a.Title == c.title {
					fix = &a
				}
			}
			if fix == nil {
				t.Fatalf("no action %q for %s: %+v", c.title, target.Message, cl.actions(u, target.Range))
			}
			if fix.Kind != quickFix || len(fix.Diagnostics) != 1 || fix.Diagnostics[0].Code != c.rule {
				t.Errorf("the action should be a quickfix for its finding: %+v", fix)
			}
			fixed := apply(t, text, u, *fix)
			for _, d := range lintText(nameOf(u), fixed).Diagnostics {
				if d.Rule == c.rule || d.Rule == "invalid-toml" {
					t.Errorf("after the fix, still %s: %s\n%s", d.Rule, d.Message, fixed)
				}
			}
		})
	}

	t.Run("two candidates, two fixes", func(t *testing.T) {
		text := strings.Replace(base, `"mcp.add_mcp_server", "config`, `"mcp.add_mcp_servr", "config`, 1)
		cl, _ := start(t, Options{}, nil)
		u := fileURI(t, "config.toml")
		for _, d := range cl.open(u, text) {
			if d.Code != "pending-dead-entry" {
				continue
			}
			var got []string
			for _, a := range cl.actions(u, d.Range) {
				if a.Kind != quickFix {
					continue
				}
				got = append(got, fmt.Sprintf("%s preferred=%v", a.Title, a.IsPreferred))
			}
			want := []string{`Write "mcp.add_mcp_server" preferred=true`, `Write "mcp.remove_mcp_server" preferred=false`}
			if !slices.Equal(got, want) {
				t.Errorf("actions = %q, want %q (the help line's first, preferred)", got, want)
			}
			return
		}
		t.Fatal("no pending-dead-entry finding")
	})

	t.Run("fix all safe problems", func(t *testing.T) {
		text := strings.Replace(base, `"compute.execute_python"`, `"compute.execute_pythn"`, 1)
		text = strings.Replace(text, `"compute.run_command"`, `"run_command"`, 1)
		text = strings.Replace(text, `"mcp.add_mcp_server", "config`, `"mcp.add_mcp_servr", "config`, 1)
		text = strings.Replace(text, `delegates_to = ["researcher", "coder"`, `delegates_to = ["researcher", "codr"`, 1)
		cl, _ := start(t, Options{}, nil)
		u := fileURI(t, "config.toml")
		cl.open(u, text)
		var all *CodeAction
		for _, a := range cl.actions(u, Range{}) {
			if a.Kind == sourceFixAll {
				all = &a
			}
		}
		if all == nil {
			t.Fatal("no source.fixAll action")
		}
		rules := map[string]bool{}
		for _, d := range lintText(nameOf(u), apply(t, text, u, *all)).Diagnostics {
			rules[d.Rule] = true
		}
		// The delegate's fix is unsafe, and add_mcp_server or
		// remove_mcp_server a choice: both stay for the user.
		if rules["dead-entry"] || rules["entry-shape"] || !rules["unknown-delegate"] || !rules["pending-dead-entry"] {
			t.Errorf("after fix all: %v; want the two safe fixes made, the unsafe one and the choice left", rules)
		}
	})

	t.Run("a fix that waits is offered nowhere", func(t *testing.T) {
		// The built-in pair's fix would drop compute's entries while
		// "compte" reads as compute: no quick fix, and fix all leaves it.
		text := "[agents.assistant]\ndelegates_to = [\"coder\"]\n\n[agents.assistant.tools]\navailable = [\"memory\", \"time\"]\n\n" +
			"[agents.coder.tools]\navailable = [\"fs\", \"compte\"]\n"
		cl, _ := start(t, Options{}, nil)
		u := fileURI(t, "config.toml")
		var scope *Diagnostic
		ds := cl.open(u, text)
		for i := range ds {
			if ds[i].Code == "entry-scope" {
				scope = &ds[i]
			}
		}
		if scope == nil || !strings.Contains(scope.Message, "No fix is offered yet") {
			t.Fatalf("want the entry-scope finding saying its fix waits: %+v", ds)
		}
		for _, a := range cl.actions(u, scope.Range) {
			if a.Kind == quickFix && len(a.Diagnostics) == 1 && a.Diagnostics[0].Code == "entry-scope" {
				t.Errorf("a quick fix is offered for a fix that waits: %s", a.Title)
			}
			if a.Kind == sourceFixAll && strings.Contains(apply(t, text, u, a), "[assistant.tools]") {
				t.Errorf("fix all made the fix that waits")
			}
		}
	})

	t.Run("suppress a warning", func(t *testing.T) {
		text := base + "\n[github_backup]\nrepo = \"me/state\"\n"
		cl, _ := start(t, Options{}, nil)
		u := fileURI(t, "config.toml")
		ds := cl.open(u, text)
		if len(ds) != 1 {
			t.Fatalf("want one warning: %+v", ds)
		}
		acts := cl.actions(u, ds[0].Range)
		if len(acts) != 1 || !strings.HasPrefix(acts[0].Title, "Suppress unused-section") {
			t.Fatalf("want one suppress action: %+v", acts)
		}
		with := apply(t, text, u, acts[0])
		if !strings.Contains(with, "\n# kokua-lint: ignore[unused-section] \n[github_backup]") {
			t.Fatalf("the suppression is not on the line above:\n%s", with)
		}
		// Until the reason is written, it hides nothing and says so.
		rules := map[string]bool{}
		for _, d := range lintText(nameOf(u), with).Diagnostics {
			rules[d.Rule] = true
		}
		if !rules["suppression-invalid"] || !rules["unused-section"] {
			t.Errorf("a suppression without a reason: %v", rules)
		}
		reasoned := strings.Replace(with, "ignore[unused-section] ", "ignore[unused-section] the backup agent is being set up", 1)
		if ds := lintText(nameOf(u), reasoned).Diagnostics; len(ds) != 0 {
			t.Errorf("with the reason written: %+v", ds)
		}
	})
}

// TestDefinition: an agent's name in delegates_to or [assistant].agent
// goes to its [agents.<name>] table; a toolset's name goes nowhere.
func TestDefinition(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	u := fileURI(t, "config.toml")
	text := shipped(t)
	c.open(u, text)
	def := func(p Position) []Location {
		var out []Location
		c.call(methodDefinition, DefinitionParams{TextDocumentPositionParams: TextDocumentPositionParams{
			TextDocument: TextDocumentIdentifier{URI: u}, Position: p}}, &out)
		return out
	}
	table := find(t, text, "[agents.coder]", len("[agents."))
	got := def(find(t, text, `"coder"`, 3))
	if len(got) != 1 || got[0].URI != u || got[0].Range.Start != table || got[0].Range.End.Character != table.Character+5 {
		t.Errorf("coder in delegates_to: %+v, want %v", got, table)
	}
	got = def(find(t, text, `agent = "assistant"`, 10))
	if len(got) != 1 || got[0].Range.Start != find(t, text, "[agents.assistant]", len("[agents.")) {
		t.Errorf("[assistant].agent: %+v", got)
	}
	if got := def(find(t, text, `"web"`, 2)); len(got) != 0 {
		t.Errorf("a toolset name: %+v", got)
	}
}

// TestManifestReload: the manifest named in initializationOptions is
// used, and a change to the file is picked up: configs are linted again.
func TestManifestReload(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kokua.manifest.json")
	if err := os.WriteFile(path, manifest.DefaultManifest(), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ := start(t, Options{}, map[string]any{"rootUri": "file://" + dir, "initializationOptions": map[string]any{"manifest": "kokua.manifest.json"}})
	u := fileURI(t, "config.toml")
	if got := c.open(u, shipped(t)); len(got) != 0 {
		t.Fatalf("against the default manifest: %+v", got)
	}
	// An install without the web toolset: researcher's 'web' is unknown.
	var m map[string]any
	if err := json.Unmarshal(manifest.DefaultManifest(), &m); err != nil {
		t.Fatal(err)
	}
	toolsets := m["toolsets"].([]any)
	m["toolsets"] = slices.DeleteFunc(toolsets, func(ts any) bool { return ts.(map[string]any)["name"] == "web" })
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	// Written beside it, then renamed over it, as generators do.
	if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(patience.Timeout(t, 10*time.Second))
	for time.Now().Before(deadline) {
		p := c.wait(u)
		if len(p.Diagnostics) > 0 {
			if p.Diagnostics[0].Code != "unknown-toolset" || !strings.Contains(p.Diagnostics[0].Message, "'web'") {
				t.Errorf("after the reload: %+v", p.Diagnostics)
			}
			return
		}
	}
	t.Fatal("the changed manifest was not picked up")
}

// TestShutdownExit: shutdown then exit ends Serve with nil; exit alone
// with ErrNoShutdown; an unknown request is refused, not ignored.
func TestShutdownExit(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	var res any
	if err := c.request("textDocument/semanticTokens/full", map[string]any{}, &res); err == nil {
		t.Error("an unknown request was answered")
	}
	c.call(methodShutdown, nil, nil)
	c.notify(methodExit, nil)
	select {
	case err := <-c.served:
		if err != nil {
			t.Errorf("Serve after shutdown and exit: %v", err)
		}
		c.served <- err
	case <-patience.After(t, 10*time.Second):
		t.Fatal("Serve did not return after exit")
	}

	c, _ = start(t, Options{}, nil)
	c.notify(methodExit, nil)
	select {
	case err := <-c.served:
		if !errors.Is(err, ErrNoShutdown) {
			t.Errorf("Serve after exit alone: %v, want ErrNoShutdown", err)
		}
		c.served <- err
	case <-patience.After(t, 10*time.Second):
		t.Fatal("Serve did not return after exit")
	}
}
