package lint_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/testing/tomllib"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// The fix harness (issue 36): configs generated with every fixable
// rule's mistake, each in every spelling the generator knows (the tables
// it touches as [headers], dotted keys and inline tables; arrays on one
// line, with a trailing comma, one entry a line; basic and literal
// strings; LF and CRLF lines; with and without comments), are fixed with
// lint.Fix, safe fixes only and unsafe ones too, and each result is held
// to what --fix promises, read independently of lint.Fix:
//
//   - Python's tomllib, Kokua's reader, parses it;
//   - every comment of the config is still in it, and every line the
//     generator marked "# keep" (no fix has a reason to touch it) is
//     there as written, in order;
//   - a second Fix makes nothing;
//   - it holds no error the config did not (an error named by its rule,
//     its key and the text it points at);
//   - no safe fix widens what an agent may do, as kokua-compile diff
//     compares them (diff.Compare, Report.Widened): the config against
//     the fixed one, and each reading of them with the config's
//     unresolved names corrected, to each candidate of each finding's
//     help, to all first candidates at once, and to what the generator
//     meant by a misspelt table or key.

// table is one table of a generated config: its path, the form it is
// written in, and its keys in order, each a key and a value as TOML.
type table struct {
	path []string
	form string // "header", "dotted" (keys written in its parent), "inline" (in its parent)
	keys [][2]string
	// keep marks every key line of it "# keep" when written as a header
	// or dotted keys: no fix has a reason to touch them.
	keep bool
}

// style is how a config spells what it holds.
type style struct {
	arrays  string // "line", "trailing", "lines"
	literal bool   // strings as 'literal'
	crlf    bool
	notes   bool // comment lines above each header
}

// str writes a string value in the style.
func (s style) str(v string) string {
	if s.literal {
		return "'" + v + "'"
	}
	return `"` + v + `"`
}

// list writes an array of strings in the style; inline is set for one
// inside an inline table, which stays on one line.
func (s style) list(inline bool, items ...string) string {
	q := make([]string, len(items))
	for i, it := range items {
		q[i] = s.str(it)
	}
	switch {
	case len(items) == 0:
		return "[]"
	case s.arrays == "trailing":
		return "[" + strings.Join(q, ", ") + ",]"
	case s.arrays == "lines" && !inline:
		return "[\n  " + strings.Join(q, ",\n  ") + ",\n]"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// render writes tables as a config: the top-level keys of tables written
// by dotted keys or inline at the top first, then each [header] table
// with the keys of the tables written in it.
func render(tables []table, s style) string {
	inParent := func(t table, parent []string) bool {
		return t.form != "header" && slices.Equal(t.path[:len(t.path)-1], parent)
	}
	lines := func(parent []string) string {
		var b strings.Builder
		for _, t := range tables {
			if !inParent(t, parent) {
				continue
			}
			last := t.path[len(t.path)-1]
			switch t.form {
			case "dotted":
				for _, kv := range t.keys {
					b.WriteString(last + "." + kv[0] + " = " + kv[1])
					if t.keep {
						b.WriteString("  # keep")
					}
					b.WriteString("\n")
				}
			case "inline":
				parts := make([]string, len(t.keys))
				for i, kv := range t.keys {
					parts[i] = kv[0] + " = " + strings.ReplaceAll(kv[1], "\n", " ")
				}
				b.WriteString(last + " = { " + strings.Join(parts, ", ") + " }\n")
			}
		}
		return b.String()
	}
	var b strings.Builder
	b.WriteString("# A generated config (fix harness).\n")
	b.WriteString(lines(nil))
	for _, t := range tables {
		if t.form != "header" {
			continue
		}
		b.WriteString("\n")
		if s.notes {
			b.WriteString("# about " + strings.Join(t.path, ".") + "\n")
		}
		b.WriteString("[" + strings.Join(t.path, ".") + "]\n")
		for _, kv := range t.keys {
			b.WriteString(kv[0] + " = " + kv[1])
			if t.keep {
				b.WriteString("  # keep")
			}
			b.WriteString("\n")
		}
		b.WriteString(lines(t.path))
	}
	out := b.String()
	if s.crlf {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	return out
}

// model is what a generated config holds, before a mistake is made in it.
type model struct {
	s style
	// pair is the default pair, nil for none written; its form.
	pair     *[2][]string
	pairForm string
	// entry is the entry agent, written in [assistant].agent when set.
	entry string
	// lead and coder are the two agents' available lists, and coder's
	// own pair (nil for none), the form of its tools table, and the
	// coder's delegates.
	lead, coder         []string
	coderPair           *[2][]string
	coderForm           string
	coderResident       []string
	coderAllString      string // available = "<this>" instead of a list
	coderExtra          [][2]string
	coderToolsExtra     [][2]string
	leadDelegates       []string
	coderToolsPath      []string
	auto, floor         bool
	floorList           []string
	confirmTools        []string // [security].confirm_tools
	autoTools           []string // [security.auto_approval].tools
	securityForm        string
	coderToolsKeyRename string // a misspelt tools key name for available
}

func baseModel(s style) *model {
	return &model{s: s, pair: &[2][]string{{"fs_write.write_file"}, {"compute.run_command", "compute.execute_python"}}, pairForm: "header",
		lead: []string{"memory", "time", "web"}, coder: []string{"fs", "fs_write", "compute"}, coderForm: "header",
		leadDelegates: []string{"coder"}, coderToolsPath: []string{"agents", "coder", "tools"}, securityForm: "header"}
}

func (m *model) tables() []table {
	s := m.s
	var out []table
	assistant := table{path: []string{"assistant"}, form: "header"}
	if m.entry != "" {
		assistant.keys = append(assistant.keys, [2]string{"agent", s.str(m.entry)})
	} else {
		assistant.keys = append(assistant.keys, [2]string{"concurrent_tools", "false"})
	}
	out = append(out, assistant)
	if m.pair != nil {
		var keys [][2]string
		inline := m.pairForm == "inline"
		if m.pair[0] != nil {
			keys = append(keys, [2]string{"confirm", s.list(inline, m.pair[0]...)})
		}
		if m.pair[1] != nil {
			keys = append(keys, [2]string{"review", s.list(inline, m.pair[1]...)})
		}
		out = append(out, table{path: []string{"assistant", "tools"}, form: m.pairForm, keys: keys})
	}
	out = append(out,
		table{path: []string{"agents", "assistant"}, form: "header", keys: [][2]string{{"description", s.str("The lead.") + "  # keep"}, {"delegates_to", s.list(false, m.leadDelegates...)}}},
		table{path: []string{"agents", "assistant", "tools"}, form: "header", keys: [][2]string{{"available", s.list(false, m.lead...)}}},
		table{path: []string{"agents", "coder"}, form: "header", keys: append([][2]string{{"description", s.str("Writes code.") + "  # keep"}}, m.coderExtra...)})
	inline := m.coderForm == "inline"
	available := s.list(inline, m.coder...)
	if m.coderAllString != "" {
		available = s.str(m.coderAllString)
	}
	key := "available"
	if m.coderToolsKeyRename != "" {
		key = m.coderToolsKeyRename
	}
	coder := table{path: m.coderToolsPath, form: m.coderForm, keys: [][2]string{{key, available}}}
	if m.coderResident != nil {
		coder.keys = append(coder.keys, [2]string{"resident", s.list(inline, m.coderResident...)})
	}
	if m.coderPair != nil {
		if m.coderPair[0] != nil {
			coder.keys = append(coder.keys, [2]string{"confirm", s.list(inline, m.coderPair[0]...)})
		}
		if m.coderPair[1] != nil {
			coder.keys = append(coder.keys, [2]string{"review", s.list(inline, m.coderPair[1]...)})
		}
	}
	coder.keys = append(coder.keys, m.coderToolsExtra...)
	out = append(out, coder)
	if m.confirmTools != nil || m.floor && m.floorList != nil {
		sec := table{path: []string{"security"}, form: "header"}
		if m.confirmTools != nil {
			sec.keys = append(sec.keys, [2]string{"confirm_tools", s.list(false, m.confirmTools...)})
		}
		if m.floorList != nil {
			sec.keys = append(sec.keys, [2]string{"never_auto_approve", s.list(false, m.floorList...)})
		}
		out = append(out, sec)
	}
	if m.auto || m.autoTools != nil {
		aa := table{path: []string{"security", "auto_approval"}, form: "header", keys: [][2]string{{"enabled", fmt.Sprint(m.auto)}}}
		if m.auto {
			aa.keys = append(aa.keys, [2]string{"reviewers", s.list(false, "approval")})
		}
		if m.autoTools != nil {
			aa.keys = append(aa.keys, [2]string{"tools", s.list(false, m.autoTools...)})
		}
		out = append(out, aa, table{path: []string{"reviewers", "approval"}, form: "header", keep: true,
			keys: [][2]string{{"model", s.str("anthropic:claude-haiku-4-5")}, {"system_message", s.str("Approve plainly.")}}})
	}
	return out
}

// mistake is one way a generated config goes wrong: what it does to the
// model, the forms it allows the coder's tools table and the pair, and
// the readings the generator means (a misspelt table or key written as
// meant), as text replacements.
type mistake struct {
	name     string
	make     func(m *model)
	forms    []string // coder's tools table forms; nil: all three
	pair     []string // the pair's forms; nil: all three
	readings [][2]string
}

var mistakes = []mistake{
	{name: "dead entry, misspelt tool", make: func(m *model) { m.pair[1] = []string{"compute.run_comand", "compute.execute_python"} }},
	{name: "dead entry, misfiled tool", make: func(m *model) { m.pair[0] = []string{"fs.write_file"} }},
	{name: "dead entry whose home no agent declares", make: func(m *model) {
		m.coder = []string{"fs", "fs_write"}
		m.pair[1] = []string{"web.execute_python"}
	}},
	{name: "bare tool", make: func(m *model) { m.pair[1] = []string{"run_command", "compute.execute_python"} }},
	{name: "entry with no tool", make: func(m *model) { m.pair[0] = []string{"fs_write."} }},
	{name: "misspelt toolset in an entry", make: func(m *model) { m.pair[1] = []string{"compte.run_command"} }},
	{name: "pending dead entry", make: func(m *model) {
		m.coderResident = []string{"fs"}
		m.pair[0] = []string{"fs_write.edit_fle"}
	}},
	{name: "declared pair drops gates", make: func(m *model) { m.coderPair = &[2][]string{{"fs_write"}, nil} }},
	{name: "declared pair drops gates, review only", make: func(m *model) { m.coderPair = &[2][]string{nil, {"fs_write.write_file"}} }},
	{name: "declared pair drops gates, a bare entry in it", make: func(m *model) { m.coderPair = &[2][]string{{"run_command"}, nil} }},
	{name: "built-in pair", make: func(m *model) { m.pair = nil }},
	{name: "built-in pair, misspelt toolsets", make: func(m *model) {
		m.pair = nil
		m.coder = []string{"fs", "fs_writ", "compte"}
	}},
	{name: "built-in pair, misspelt header", forms: []string{"header"}, make: func(m *model) {
		m.pair = nil
		m.coderToolsPath = []string{"agent", "coder", "tools"}
	}, readings: [][2]string{{"[agent.coder.tools]", "[agents.coder.tools]"}}},
	{name: "built-in pair, misspelt tools key", forms: []string{"header"}, make: func(m *model) {
		m.pair = nil
		m.coderToolsPath = []string{"agents", "coder", "tool"}
	}, readings: [][2]string{{"[agents.coder.tool]", "[agents.coder.tools]"}}},
	{name: "built-in pair, misspelt available", make: func(m *model) {
		m.pair = nil
		m.coderToolsKeyRename = "avail"
	}},
	{name: "built-in pair, skills misspelt on the entry agent", make: func(m *model) {
		m.pair = nil
		m.lead = []string{"memory", "time", "skils"}
	}},
	{name: "built-in pair, composed workers hold its toolsets", make: func(m *model) {
		m.pair = nil
		m.lead = []string{"memory", "time", "capabilities"}
	}},
	{name: "built-in floor", make: func(m *model) { m.auto, m.floor = true, true }},
	{name: "built-in floor, skills misspelt", make: func(m *model) {
		m.auto, m.floor = true, true
		m.lead = []string{"memory", "time", "skils", "config"}
	}},
	{name: "removed confirm_tools, pair written", make: func(m *model) {
		m.pair = &[2][]string{nil, {"compute.execute_python"}}
		m.confirmTools = []string{"compute.run_command", "write_file"}
	}},
	{name: "removed confirm_tools, no pair", make: func(m *model) {
		m.pair = nil
		m.confirmTools = []string{"compute.run_command"}
	}},
	{name: "removed auto_approval.tools", make: func(m *model) {
		m.pair = &[2][]string{{"fs_write"}, nil}
		m.autoTools = []string{"compute.run_command"}
	}},
	{name: "agent key below its tools header", forms: []string{"header"}, make: func(m *model) {
		m.coderToolsExtra = [][2]string{{"max_iterations", "30"}}
	}},
	{name: "delegates_to below its tools header", forms: []string{"header"}, make: func(m *model) {
		m.coderToolsExtra = [][2]string{{"delegates_to", "[]"}}
	}},
	{name: "misspelt key", make: func(m *model) { m.coderToolsKeyRename = "availabl" }},
	{name: "unknown toolset", make: func(m *model) { m.coder = []string{"fs", "fs_writ", "compute"} }},
	{name: "unknown delegate", make: func(m *model) { m.leadDelegates = []string{"codr"} }},
	{name: "entry agent misspelt", make: func(m *model) { m.entry = "asistant" }},
	{name: "all in a list", make: func(m *model) {
		m.coder = []string{"all"}
		m.coderResident = []string{}
	}},
	{name: "all capitalised", make: func(m *model) {
		m.coderAllString = "ALL"
		m.coderResident = []string{}
	}},
}

// names are the unresolved names a config can hold beside another
// mistake: what a reading corrects. Each changes what the model holds
// rather than replacing it, so that it composes with any mistake.
var names = []mistake{
	{name: "toolsets misspelt", make: func(m *model) {
		for i, n := range m.coder {
			switch n {
			case "fs_write":
				m.coder[i] = "fs_writ"
			case "compute":
				m.coder[i] = "compte"
			}
		}
	}},
	{name: "skills misspelt on the entry agent", make: func(m *model) { m.lead = append(m.lead, "skils") }},
	{name: "a delegate misspelt", make: func(m *model) { m.leadDelegates = []string{"codr"} }},
	{name: "the entry agent misspelt", make: func(m *model) { m.entry = "asistant" }},
	{name: "available misspelt", make: func(m *model) { m.coderToolsKeyRename = "availabl" }},
	{name: "the coder's header misspelt", forms: []string{"header"}, make: func(m *model) {
		m.coderToolsPath = []string{"agent", "coder", "tools"}
	}, readings: [][2]string{{"[agent.coder.tools]", "[agents.coder.tools]"}}},
	{name: "ALL", make: func(m *model) {
		m.coderAllString = "ALL"
		m.coderResident = []string{}
	}},
}

// config is one generated config.
type config struct {
	name     string
	text     string
	readings [][2]string
}

// configs generates every mistake in every spelling: the coder's tools
// table and the default pair in each form, the other choices of style
// taken in turn so that each appears with each form.
func configs() []config {
	var out []config
	styles := []style{
		{arrays: "line"},
		{arrays: "trailing", literal: true, notes: true},
		{arrays: "lines", crlf: true, notes: true},
		{arrays: "line", literal: true, crlf: true},
		{arrays: "lines", literal: true},
		{arrays: "trailing", crlf: true},
	}
	all := []string{"header", "dotted", "inline"}
	for _, mk := range mistakes {
		forms, pairs := mk.forms, mk.pair
		if forms == nil {
			forms = all
		}
		if pairs == nil {
			pairs = all
		}
		i := 0
		for _, f := range forms {
			for _, pf := range pairs {
				for si := 0; si < 2; si++ {
					s := styles[(i+si*3)%len(styles)]
					m := baseModel(s)
					m.coderForm, m.pairForm = f, pf
					mk.make(m)
					out = append(out, config{
						name: fmt.Sprintf("%s/coder %s/pair %s/%+v", mk.name, f, pf, s),
						text: render(m.tables(), s), readings: mk.readings,
					})
				}
				i++
			}
		}
	}
	// Each mistake beside each unresolved name, in one spelling each,
	// the forms and styles taken in turn.
	n := 0
	for _, mk := range mistakes {
		for _, nm := range names {
			forms := mk.forms
			if forms == nil {
				forms = all
			}
			if nm.forms != nil {
				forms = slices.DeleteFunc(slices.Clone(forms), func(f string) bool { return !slices.Contains(nm.forms, f) })
			}
			if len(forms) == 0 {
				continue
			}
			s := styles[n%len(styles)]
			m := baseModel(s)
			m.coderForm, m.pairForm = forms[n%len(forms)], all[(n/len(forms))%len(all)]
			if mk.pair != nil {
				m.pairForm = mk.pair[0]
			}
			mk.make(m)
			nm.make(m)
			out = append(out, config{
				name: fmt.Sprintf("%s, %s/coder %s/pair %s/%+v", mk.name, nm.name, m.coderForm, m.pairForm, s),
				text: render(m.tables(), s), readings: append(slices.Clone(mk.readings), nm.readings...),
			})
			n++
		}
	}
	return out
}

// sideOf compiles a config as Kokua would read it, errors and all: the
// names it cannot resolve are left out of what each agent declares,
// resides and delegates to, and the approval entries on toolsets nothing
// registers are left out, as they gate nothing. Nil when the config
// cannot be read into a world, or the policy still does not verify: an
// agent left with no delegate still lists spawn_subagent, and an entry
// agent that is not declared has no policy. compiles checks that those
// are the only reasons.
func sideOf(data []byte, m *lint.Manifest) *diff.Side {
	src := lint.Source{Name: "config.toml", Data: data}
	res := engine.Run(src, m)
	if res.World == nil {
		return nil
	}
	doc := engine.Compile(res.World, src, m.Source)
	known := func(names []string, ok func(string) bool) []string {
		if names == nil {
			return nil
		}
		out := []string{}
		for _, n := range names {
			if ok(n) {
				out = append(out, n)
			}
		}
		return out
	}
	// An entry on a toolset nothing registers gates nothing.
	gates := func(l *policy.List) {
		if l == nil {
			return
		}
		l.Entries = slices.DeleteFunc(l.Entries, func(e policy.Entry) bool {
			return e.Toolset != kokua.Core && doc.Toolsets[e.Toolset] == nil
		})
	}
	gates(&doc.DefaultTier.Confirm)
	gates(&doc.DefaultTier.Review)
	gates(&doc.Floor.List)
	for _, a := range doc.Agents {
		gates(a.Approval.Confirm)
		gates(a.Approval.Review)
		isToolset := func(n string) bool { return doc.Toolsets[n] != nil }
		if !a.Available.All {
			a.Available.Declared = known(a.Available.Declared, isToolset)
		}
		a.Resident = known(a.Resident, isToolset)
		a.DelegatesTo = known(a.DelegatesTo, func(n string) bool { return doc.Agents[n] != nil })
	}
	b, err := policy.Marshal(doc)
	if err != nil {
		return nil
	}
	p, err := policy.Parse("config.toml", b)
	if err != nil {
		return nil
	}
	return &diff.Side{Name: "config.toml", Policy: p, Graph: reach.New(p), Config: res.Config}
}

// uncompiled fails the test unless a config sideOf cannot compile need
// not be: it names a delegate or an entry agent it does not declare,
// which a reading corrects. Any other config must compile.
func uncompiled(t *testing.T, name string, data []byte, m *lint.Manifest) {
	t.Helper()
	for _, d := range lint.Lint(lint.Source{Name: "config.toml", Data: data}, m).Diagnostics {
		if d.Rule == "unknown-delegate" || d.Rule == "entry-agent-missing" {
			return
		}
	}
	t.Errorf("%s: the harness cannot compile\n%s", name, data)
}

// ident names an error across fixes: its rule, its key and the text it
// points at.
func ident(d diag.Diagnostic, data []byte) string {
	from, to := d.Span.Start.Offset, d.Span.End.Offset
	text := d.Message
	if d.Span.File == "config.toml" && from >= 0 && from <= to && to <= len(data) {
		text = string(data[from:to])
	}
	return d.Rule + "\x00" + d.Key + "\x00" + text
}

// addedErrors are the errors of after that before does not hold.
func addedErrors(before []byte, b *lint.Result, after []byte, a *lint.Result) []string {
	count := map[string]int{}
	for _, d := range b.Diagnostics {
		if d.Severity == diag.Error {
			count[ident(d, before)]++
		}
	}
	var out []string
	for _, d := range a.Diagnostics {
		if d.Severity != diag.Error {
			continue
		}
		if k := ident(d, after); count[k] > 0 {
			count[k]--
		} else {
			out = append(out, d.Rule+": "+d.Message)
		}
	}
	return out
}

// comments are the comment texts of a config.
func comments(data []byte) []string {
	var out []string
	for _, c := range tomlpos.Comments(lineindex.New("config.toml", data)) {
		out = append(out, c.Text)
	}
	return out
}

// kept reports whether every "# keep" line of before is in after, as
// written and in order.
func kept(before, after []byte) bool {
	lines := strings.Split(string(after), "\n")
	at := 0
	for _, l := range strings.Split(string(before), "\n") {
		if !strings.Contains(l, "# keep") {
			continue
		}
		for at < len(lines) && lines[at] != l {
			at++
		}
		if at == len(lines) {
			return false
		}
		at++
	}
	return true
}

// renameRules are the rules whose fixes are readings of an unresolved
// name: each candidate is one thing the user may have meant.
var renameRules = []string{"unknown-toolset", "unknown-delegate", "entry-agent-missing", "unknown-key", "all-spelling"}

// reading is one reading of a config and its fixed form.
type reading struct {
	what         string
	input, fixed []byte
}

// sameFix finds, in the lint of data, the fix titled title of the finding
// named as f is in from: to make the same correction in the fixed config.
func sameFix(f diag.Diagnostic, from []byte, title string, data []byte, res *lint.Result) (diag.Fix, bool) {
	for _, d := range res.Diagnostics {
		if ident(d, data) != ident(f, from) {
			continue
		}
		for _, x := range d.Fixes {
			if x.Title == title {
				return x, true
			}
		}
	}
	return diag.Fix{}, false
}

// readings are the readings of a config and its fixed form with their
// unresolved names corrected: each candidate of each finding's help, all
// first candidates at once, and what the generator meant.
func readings(c config, input []byte, given *lint.Result, fixed []byte, m *lint.Manifest) []reading {
	res := lint.Lint(lint.Source{Name: "config.toml", Data: fixed}, m)
	var out []reading
	var firstIn, firstOut []diag.Fix
	for _, d := range given.Diagnostics {
		if !slices.Contains(renameRules, d.Rule) || d.Span.File != "config.toml" {
			continue
		}
		for i, x := range d.Fixes {
			if !x.Local {
				continue // a move, not a name read otherwise
			}
			y, ok := sameFix(d, input, x.Title, fixed, res)
			if !ok {
				continue
			}
			in, _ := diag.Apply(input, []diag.Fix{x})
			fx, _ := diag.Apply(fixed, []diag.Fix{y})
			out = append(out, reading{what: d.Rule + " " + x.Title, input: in, fixed: fx})
			if i == 0 {
				firstIn, firstOut = append(firstIn, x), append(firstOut, y)
			}
		}
	}
	if len(firstIn) > 1 {
		in, _ := diag.Apply(input, firstIn)
		fx, _ := diag.Apply(fixed, firstOut)
		out = append(out, reading{what: "every first candidate", input: in, fixed: fx})
	}
	for _, r := range c.readings {
		out = append(out, reading{what: "meant " + r[1],
			input: bytes.ReplaceAll(input, []byte(r[0]), []byte(r[1])), fixed: bytes.ReplaceAll(fixed, []byte(r[0]), []byte(r[1]))})
	}
	return out
}

func TestFixHarness(t *testing.T) {
	m := lint.DefaultManifest()
	cs := configs()
	type result struct {
		c      config
		unsafe bool
		fixed  *lint.Fixed
	}
	var results []result
	made := map[string]map[bool]int{}
	compared, readingsCompared, skipped := 0, 0, 0
	for _, c := range cs {
		src := lint.Source{Name: "config.toml", Data: []byte(c.text)}
		for _, unsafe := range []bool{false, true} {
			fixed := lint.Fix(src, m, unsafe)
			results = append(results, result{c, unsafe, fixed})
			for _, a := range fixed.Applied {
				if made[a.Finding.Rule] == nil {
					made[a.Finding.Rule] = map[bool]int{}
				}
				made[a.Finding.Rule][a.Fix.Safe]++
				if a.Fix.Safe == false && !unsafe {
					t.Errorf("%s: --fix made an unsafe fix: %s", c.name, a.Fix.Title)
				}
			}
			fail := func(format string, args ...any) {
				t.Errorf("%s (unsafe %v): %s\nconfig:\n%s\nfixed:\n%s", c.name, unsafe, fmt.Sprintf(format, args...), c.text, fixed.Data)
			}
			after := strings.Join(comments(fixed.Data), "\n")
			for _, cm := range comments(src.Data) {
				if !strings.Contains(after, cm) {
					fail("the comment %q is lost", cm)
				}
			}
			if !kept(src.Data, fixed.Data) {
				fail("a line no fix had a reason to touch changed")
			}
			if again := lint.Fix(lint.Source{Name: "config.toml", Data: fixed.Data}, m, unsafe); len(again.Applied) > 0 || !bytes.Equal(again.Data, fixed.Data) {
				fail("a second Fix made %d fixes:\n%s", len(again.Applied), again.Data)
			}
			if added := addedErrors(src.Data, fixed.Given, fixed.Data, fixed.Result); len(added) > 0 {
				fail("the fixed config holds errors the config did not: %q", added)
			}
			if crlf := bytes.Contains(src.Data, []byte("\r\n")); crlf && bytes.Count(fixed.Data, []byte("\n")) != bytes.Count(fixed.Data, []byte("\r\n")) {
				fail("the fixed config mixes line ends")
			}
			if unsafe || len(fixed.Applied) == 0 {
				continue
			}
			// No safe fix widens: against the config, and each reading.
			side := func(data []byte) *diff.Side {
				s := sideOf(data, m)
				if s == nil {
					uncompiled(t, c.name, data, m)
				}
				return s
			}
			if o, n := side(src.Data), side(fixed.Data); o != nil && n != nil {
				compared++
				if r := diff.Compare(o, n); r.Widened {
					fail("the safe fixes widen what an agent may do (%d changes)", r.WidenedCount)
				}
			} else {
				skipped++
			}
			for _, r := range readings(c, src.Data, fixed.Given, fixed.Data, m) {
				o, n := side(r.input), side(r.fixed)
				if o == nil || n == nil {
					skipped++
					continue
				}
				readingsCompared++
				if d := diff.Compare(o, n); d.Widened {
					fail("read with %s, the safe fixes widen what an agent may do (%d changes):\nthat reading:\n%s\nfixed:\n%s", r.what, d.WidenedCount, r.input, r.fixed)
				}
			}
		}
	}
	docs := make([][]byte, len(results))
	for i, r := range results {
		docs[i] = r.fixed.Data
	}
	for i, read := range tomllib.Read(t, docs) {
		if read.Err != "" {
			r := results[i]
			t.Errorf("%s (unsafe %v): tomllib refuses the fixed config: %s\n%s", r.c.name, r.unsafe, read.Err, r.fixed.Data)
		}
	}
	for _, r := range rules.All() {
		for _, safe := range []bool{true, false} {
			if r.Fixes.Allows(safe) && made[r.ID][safe] == 0 {
				t.Errorf("no generated config has rule %s make a %s fix: the harness misses its mistake", r.ID, map[bool]string{true: "safe", false: "unsafe"}[safe])
			}
		}
	}
	fixes := 0
	for _, r := range results {
		fixes += len(r.fixed.Applied)
	}
	t.Logf("%d configs from %d mistakes, fixed twice each (safe, and unsafe too): %d fixes made; %d safe fixings compared with their config and %d readings of them with kokua-compile diff (%d sides could not be compiled)",
		len(cs), len(mistakes), fixes, compared, readingsCompared, skipped)
}
