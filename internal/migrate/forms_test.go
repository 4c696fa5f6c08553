package migrate_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// The forms a generated config's tables are spelled in (forms.go).
const (
	formHeader = iota // [agents.x] / [security] / [assistant]
	formDotted        // agents.x.tools = [...] at the top level
	formInline        // agents.x = { tools = [...] } at the top level
	formUnder         // [agents] then x.tools = [...] or x = { ... }; [security] then auto_approval.tools
	forms
)

// spelling writes g with each table in a form drawn by r: the same
// tables, keys and values as g.input(), which TOML gives Kokua alike, but
// for an agent's tools list, which it may cut into tools, groups and
// tool_packs, the keys whose names join in that order (R20).
func (g gen) spelling(r *rand.Rand) (string, string) {
	q := func(list []string) string {
		parts := make([]string, len(list))
		for i, s := range list {
			parts[i] = tomlpos.BasicString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	type kv struct{ key, value string }
	inline := func(kvs []kv) string {
		parts := make([]string, len(kvs))
		for i, p := range kvs {
			parts[i] = p.key + " = " + p.value
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	var top, body strings.Builder // top-level statements, then [header] tables
	var said []string
	statements := func(b *strings.Builder, prefix string, kvs []kv, form int) {
		comment := ""
		if g.comments {
			comment = fmt.Sprintf("  # %s%d", strings.ReplaceAll(prefix, ".", " "), r.IntN(1000))
		}
		if form == formInline {
			fmt.Fprintf(b, "%s = %s%s\n", strings.TrimSuffix(prefix, "."), inline(kvs), comment)
			return
		}
		for _, p := range kvs {
			fmt.Fprintf(b, "%s%s = %s%s\n", prefix, p.key, p.value, comment)
		}
	}

	model := []kv{{"model", `"anthropic:claude-sonnet-4-6"`}}
	switch form := r.IntN(3); form {
	case formHeader:
		body.WriteString("[assistant]\n")
		statements(&body, "", model, formDotted)
		said = append(said, "[assistant]")
	default:
		statements(&top, "assistant.", model, form)
		said = append(said, map[int]string{formDotted: "assistant.model", formInline: "assistant = {}"}[form])
	}

	agents := r.IntN(forms)
	if agents == formUnder {
		body.WriteString("\n[agents]\n")
	}
	for _, a := range g.agents {
		kvs := []kv{{"description", fmt.Sprintf(`"The %s agent."`, a)}}
		// The older keys join the available list after tools, in this
		// order (R20): a list cut in three reads as the whole.
		list := g.tools[a]
		cut1 := r.IntN(len(list) + 1)
		cut2 := cut1 + r.IntN(len(list)-cut1+1)
		if r.IntN(2) == 0 || len(list) == 0 {
			cut1, cut2 = len(list), len(list)
		}
		for i, part := range [][]string{list[:cut1], list[cut1:cut2], list[cut2:]} {
			if len(part) > 0 || i == 0 && len(list) == 0 {
				kvs = append(kvs, kv{[]string{"tools", "groups", "tool_packs"}[i], q(part)})
			}
		}
		if cut1 < len(list) {
			said = append(said, "groups or tool_packs")
		}
		if a == "assistant" && len(g.agents) > 1 {
			kvs = append(kvs, kv{"delegates_to", q(g.agents[1:])})
		}
		// An agent's keys may come in any order.
		r.Shuffle(len(kvs), func(i, j int) { kvs[i], kvs[j] = kvs[j], kvs[i] })
		switch agents {
		case formHeader:
			fmt.Fprintf(&body, "\n[agents.%s]\n", a)
			statements(&body, "", kvs, formDotted)
			said = append(said, "[agents.x]")
		case formUnder:
			form := formDotted + r.IntN(2)
			statements(&body, a+".", kvs, form)
			said = append(said, map[int]string{formDotted: "[agents] x.tools", formInline: "[agents] x = {}"}[form])
		default:
			form := formDotted + r.IntN(2)
			statements(&top, "agents."+a+".", kvs, form)
			said = append(said, map[int]string{formDotted: "agents.x.tools", formInline: "agents.x = {}"}[form])
		}
	}

	sec := []kv{{"confirm_tools", q(g.confirm)}}
	var auto []kv
	if len(g.auto) > 0 || g.autoOn {
		auto = []kv{{"enabled", fmt.Sprint(g.autoOn)}, {"tools", q(g.auto)}}
		if g.autoOn {
			auto = append(auto, kv{"reviewers", `["checker"]`})
		}
	}
	switch form := r.IntN(forms); form {
	case formHeader, formUnder:
		body.WriteString("\n[security]\n")
		statements(&body, "", sec, formDotted)
		sub := r.IntN(3)
		if auto == nil {
			said = append(said, "[security]")
			break
		}
		switch sub {
		case 0:
			body.WriteString("\n[security.auto_approval]\n")
			statements(&body, "", auto, formDotted)
			said = append(said, "[security.auto_approval]")
		default:
			statements(&body, "auto_approval.", auto, formDotted+sub-1)
			said = append(said, map[int]string{1: "[security] auto_approval.tools", 2: "[security] auto_approval = {}"}[sub])
		}
	case formDotted:
		statements(&top, "security.", sec, formDotted)
		if auto != nil {
			statements(&top, "security.auto_approval.", auto, formDotted)
		}
		said = append(said, "security.confirm_tools")
	case formInline:
		if auto != nil {
			sec = append(sec, kv{"auto_approval", inline(auto)})
		}
		statements(&top, "security.", sec, formInline)
		said = append(said, "security = {}")
	}
	if g.autoOn {
		body.WriteString("\n[reviewers.checker]\nmodel = \"openai:gpt-5\"\nsystem_message = \"Approve what the user asked for.\"\n")
	}
	return "# generated pre-split config, respelled\n" + top.String() + body.String(), strings.Join(said, ", ")
}

// compiled is the policy a clean migration compiles to, without what
// names its input (the config's digest) and where each entry is written,
// which a spelling changes and its meaning does not.
func compiled(t *testing.T, name string, data []byte, m *lint.Manifest) string {
	t.Helper()
	res := engine.Run(lint.Source{Name: "config.toml", Data: data}, m)
	if res.HasErrors() || res.World == nil {
		t.Fatalf("%s: the migrated config has errors:\n%s", name, data)
	}
	doc := engine.Compile(res.World, engine.Source{Name: "config.toml", Data: data},
		engine.Source{Name: m.Source.Name, Data: m.Source.Data})
	doc.Inputs.Config = policy.Input{}
	out, err := policy.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	out, err = json.MarshalIndent(unplaced(v), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// unplaced is a policy document without where its entries are written in
// the config (every "position", and the digest made over them).
func unplaced(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "position")
		delete(v, "digest")
		for k, e := range v {
			v[k] = unplaced(e)
		}
	case []any:
		for i, e := range v {
			v[i] = unplaced(e)
		}
	}
	return v
}

// TestSpellingsMigrateAlike: a generated pre-split config, spelled at
// random among the TOML forms of its tables (headers, dotted keys at the
// top and under a header, inline tables at the top and under a header),
// migrates clean in every spelling, to the same compiled policy as its
// header spelling, keeping every comment (one after each line, for half
// the configs) and every line that holds no old key, and its migration
// migrates to itself (issue 20, item
// 2: the migration reads the config by meaning, not by spelling).
func TestSpellingsMigrateAlike(t *testing.T) {
	spellings := 0
	seen := map[string]bool{}
	for seed := range uint64(150) {
		g := generate(seed)
		base := g.input()
		want := compiled(t, base.name, migrateOf(t, base).Output, base.manifest)
		r := rand.New(rand.NewPCG(seed, 23))
		for k := range 4 {
			text, said := g.spelling(r)
			in := input{name: fmt.Sprintf("%s-spelling-%d (%s)", base.name, k, said), config: []byte(text), manifest: base.manifest}
			res := migrateOf(t, in)
			if !res.Clean() {
				t.Fatalf("%s needs a person:\n%s\n--- migrated\n%s", in.name, in.config, res.Output)
			}
			checkKept(t, in.name, in.config, res.Output)
			if got := compiled(t, in.name, res.Output, in.manifest); got != want {
				t.Fatalf("%s compiles to another policy than its header spelling:\n%s\n--- migrated\n%s\n--- policy\n%s", in.name, in.config, res.Output, udiff.Unified("header spelling", "this spelling", want, got))
			}
			again := migrateOf(t, input{name: in.name, config: res.Output, manifest: in.manifest})
			if string(again.Output) != string(res.Output) {
				t.Fatalf("%s: a second migration changes it:\n%s", in.name, res.Output)
			}
			for _, s := range strings.Split(said, ", ") {
				seen[s] = true
			}
			spellings++
		}
	}
	// Every form was drawn: the test covers what it says.
	for _, form := range []string{"[assistant]", "assistant.model", "assistant = {}", "[agents.x]", "[agents] x.tools",
		"[agents] x = {}", "agents.x.tools", "agents.x = {}", "[security]", "[security.auto_approval]",
		"[security] auto_approval.tools", "[security] auto_approval = {}", "security.confirm_tools", "security = {}",
		"groups or tool_packs"} {
		if !seen[form] {
			t.Errorf("no spelling used %s", form)
		}
	}
	t.Logf("%d spellings of 150 configs migrate to their config's one policy", spellings)
}
