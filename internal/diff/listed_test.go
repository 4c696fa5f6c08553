package diff_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// caseSides loads both sides of every case of testdata/diff, each with
// its manifest, by case name.
func caseSides(t *testing.T) map[string][2]*diff.Side {
	t.Helper()
	out := map[string][2]*diff.Side{}
	m := lint.DefaultManifest()
	for _, dir := range golden.Cases(t, "diff") {
		om, nm := caseManifests(t, dir, m)
		out[filepath.Base(dir)] = [2]*diff.Side{side(t, filepath.Join(dir, "old.toml"), om), side(t, filepath.Join(dir, "new.toml"), nm)}
	}
	return out
}

// planRows are the rows of the Markdown report's table of what each
// agent can cause to run, as written.
func planRows(t *testing.T, r *diff.Report) []string {
	t.Helper()
	var b bytes.Buffer
	if err := diff.Write(&b, "markdown", r); err != nil {
		t.Fatal(err)
	}
	const head = "| agent | runs unasked | a reviewer may approve | asks the user |\n| --- | --- | --- | --- |\n"
	text := b.String()
	i := strings.Index(text, head)
	if i < 0 {
		return nil
	}
	rest := text[i+len(head):]
	if j := strings.Index(rest, "\n\n"); j >= 0 {
		rest = rest[:j+1]
	}
	lines := strings.SplitAfter(rest, "\n")
	return lines[:len(lines)-1]
}

// TestPlanRowsAreTheAgentsWhosePowerChanged: the Markdown report's table
// of what each agent can cause to run has a row for exactly the agents
// (declared ones in name order, composed workers last) whose count of
// tools at some level differs between the sides, counted over what the
// agent and its workers reach (reach.Graph.Reach, the loaders left out,
// as they come with residency), with the counts of both sides. Every
// case of testdata/diff, both ways.
func TestPlanRowsAreTheAgentsWhosePowerChanged(t *testing.T) {
	// An agent startup does not build calls nothing (docs/readings.md).
	counts := func(g *reach.Graph, agent string) [4]int {
		var out [4]int
		if a := g.Agent(agent); a == nil || !a.Reachable {
			return out
		}
		for k, x := range g.Reach(agent) {
			if k.Toolset == kokua.Core && (k.Tool == kokua.AvailableTools || k.Tool == kokua.LoadTools) {
				continue
			}
			out[x.Level]++
		}
		return out
	}
	cell := func(a, b int) string {
		if a == b {
			return fmt.Sprint(a)
		}
		return fmt.Sprintf("%d → **%d**", a, b)
	}
	rows := 0
	for name, sides := range caseSides(t) {
		for _, pair := range [][2]*diff.Side{sides, {sides[1], sides[0]}} {
			o, n := pair[0], pair[1]
			var names []string
			for _, g := range []*reach.Graph{o.Graph, n.Graph} {
				for _, a := range g.Agents {
					if !a.Composed && !slices.Contains(names, a.Name) {
						names = append(names, a.Name)
					}
				}
			}
			slices.Sort(names)
			if o.Graph.Agent(reach.ComposedNode) != nil || n.Graph.Agent(reach.ComposedNode) != nil {
				names = append(names, reach.ComposedNode)
			}
			var want []string
			for _, agent := range names {
				a, b := counts(o.Graph, agent), counts(n.Graph, agent)
				if a == b {
					continue
				}
				want = append(want, fmt.Sprintf("| `%s` | %s | %s | %s |\n", diff.AgentTitle(agent), cell(a[reach.Runs], b[reach.Runs]),
					cell(a[reach.Reviewer], b[reach.Reviewer]), cell(a[reach.Asks], b[reach.Asks])))
			}
			got := planRows(t, diff.Compare(o, n))
			if !slices.Equal(got, want) {
				t.Errorf("%s (%s -> %s): the plan table's rows are\n%s\nwant\n%s", name, o.Name, n.Name, strings.Join(got, ""), strings.Join(want, ""))
			}
			rows += len(want)
		}
	}
	if rows < 20 {
		t.Errorf("only %d plan rows checked", rows)
	}
}

// TestComposedWorkersBothWays: composed workers appearing (an agent gains
// capabilities where none had it) are listed as an added agent, after
// every declared agent, and widen the report, as their tools are new to
// the agent that composes them; going, they are listed as removed, last,
// and widen nothing. testdata/diff/composed-lost, both ways.
func TestComposedWorkersBothWays(t *testing.T) {
	sides := caseSides(t)["composed-lost"]
	if sides[0].Graph.Agent(reach.ComposedNode) == nil || sides[1].Graph.Agent(reach.ComposedNode) != nil {
		t.Fatal("composed-lost no longer has composed workers on its old side alone")
	}
	for _, c := range []struct {
		o, n    *diff.Side
		change  string
		widened bool
	}{
		{sides[0], sides[1], "removed", false},
		{sides[1], sides[0], "added", true},
	} {
		r := diff.Compare(c.o, c.n)
		if len(r.Agents) == 0 {
			t.Fatalf("%s -> %s lists no agent", c.o.Name, c.n.Name)
		}
		last := r.Agents[len(r.Agents)-1]
		if last.Agent != reach.ComposedNode || last.Change != c.change || last.At == nil || last.At.Key != "[agents.assistant.tools].available" {
			t.Errorf("%s -> %s: the last agent listed is %s (%s at %v), want composed workers %s at the line giving capabilities",
				c.o.Name, c.n.Name, last.Agent, last.Change, last.At, c.change)
		}
		for _, a := range r.Agents[:len(r.Agents)-1] {
			if a.Agent == reach.ComposedNode {
				t.Errorf("%s -> %s lists composed workers twice", c.o.Name, c.n.Name)
			}
		}
		if r.Widened != c.widened {
			t.Errorf("%s -> %s: widened = %v, want %v\n%s", c.o.Name, c.n.Name, r.Widened, c.widened, reportText(t, r))
		}
	}
	// Neither side composing (serverConfig): composed workers are no agent
	// of the report.
	m := serverManifest(t).load(t, "manifest.json")
	o := configSide(t, "old.toml", serverConfig, m)
	n := configSide(t, "new.toml", strings.Replace(serverConfig, `available = ["fs", "compute"]`, `available = ["fs", "compute", "time"]`, 1), m)
	r := diff.Compare(o, n)
	if len(r.Agents) != 1 || r.Agents[0].Agent != "coder" {
		t.Errorf("giving coder time, where nobody composes workers, lists %d agents:\n%s", len(r.Agents), reportText(t, r))
	}
}

// TestPairSourceChanged: a gate that stops gating because the agent's
// approval pair changed source is explained by that and placed at the
// line that did it. Declaring a pair (testdata/diff/declared-pair) drops
// the default tier's review of compute's tools: the change names the
// default's entry, says the pair is now declared and points at the
// agent's confirm. Dropping a declared pair, so that the agent inherits
// a default that does not gate run_command, names the agent's own entry,
// says the pair is now inherited and points at the agent's tools table.
// A gate dropped from a list while every pair keeps its source says
// neither, and points at the list.
func TestPairSourceChanged(t *testing.T) {
	sides := caseSides(t)["declared-pair"]
	r := diff.Compare(sides[0], sides[1])
	checked := 0
	for _, a := range r.Agents {
		for _, w := range a.Widened {
			want := fmt.Sprintf("entry %q in [assistant.tools].review no longer gates it (the agent's pair is now declared)", "compute."+w.Tool)
			if a.Agent != "coder" || w.Because != want || w.At.Key != "[agents.coder.tools].confirm" || w.At.Line != 31 {
				t.Errorf("%s's %s.%s: because %q at %v, want %q at new.toml:31 [agents.coder.tools].confirm", a.Agent, w.Toolset, w.Tool, w.Because, w.At, want)
			}
			checked++
		}
	}
	if checked != 2 {
		t.Errorf("declaring coder's pair widens %d tools, want compute's two\n%s", checked, reportText(t, r))
	}

	old := replaceOnce(t, caseFile(t, "declared-pair", "old.toml"), `review = ["compute.run_command", "compute.execute_python", "fs_write"]`,
		`review = ["compute.execute_python", "fs_write"]`)
	declared := replaceOnce(t, old, "available = [\"fs\", \"fs_write\", \"compute\", \"time\", \"messaging\"]\n",
		"available = [\"fs\", \"fs_write\", \"compute\", \"time\", \"messaging\"]\nreview = [\"compute.run_command\"]\n")
	r = diff.Compare(loadDefault(t, "old.toml", declared), loadDefault(t, "new.toml", old))
	var got []diff.ToolChange
	for _, a := range r.Agents {
		if a.Agent == "coder" {
			got = a.Widened
		}
	}
	want := `entry "compute.run_command" in [agents.coder.tools].review no longer gates it (the agent's pair is now inherited)`
	if len(got) != 1 || got[0].Tool != "run_command" || got[0].Because != want || got[0].At.Key != "[agents.coder.tools]" || got[0].At.Line == 0 {
		t.Errorf("dropping coder's declared pair: widened %+v, want run_command because %q at the line of [agents.coder.tools]\n%s", got, want, reportText(t, r))
	}

	// A gate dropped from the list itself, every pair keeping its source
	// (testdata/diff/gate-removed): the entry, at the list it left.
	sides = caseSides(t)["gate-removed"]
	r = diff.Compare(sides[0], sides[1])
	checked = 0
	for _, a := range r.Agents {
		for _, w := range a.Widened {
			const want = `entry "fs_write" in [assistant.tools].review no longer gates it`
			if w.Because != want || w.At.Key != "[assistant.tools].review" || w.At.Line != 8 {
				t.Errorf("%s's %s.%s: because %q at %v, want %q at new.toml:8 [assistant.tools].review", a.Agent, w.Toolset, w.Tool, w.Because, w.At, want)
			}
			checked++
		}
	}
	if checked != 4 {
		t.Errorf("dropping fs_write from the default review list widens %d tools, want fs_write's two for coder and composed workers\n%s", checked, reportText(t, r))
	}
}

// caseFile is a file of a case of testdata/diff.
func caseFile(t *testing.T, name, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "diff", name, file))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestAutoApprovalGradeByReviewableClasses: turning auto-approval on is
// graded by the tools a reviewer may then approve: high when one of them
// is of a dangerous class (exec, write, self-modify, egress), medium when
// none is, whatever the tools that still run unasked or ask the user.
// With review = ["fs.read_file"] (private-data) a reviewer may approve
// read_file alone, while run_command (exec) asks the user: medium. With
// compute.run_command in review as well: high.
func TestAutoApprovalGradeByReviewableClasses(t *testing.T) {
	on := caseFile(t, "pr-auto-approval-on", "new.toml")
	off := caseFile(t, "pr-auto-approval-on", "old.toml")
	const review = `review = ["compute.run_command", "compute.execute_python", "fs_write"]`
	for _, c := range []struct {
		review, confirm string
		want            reach.Grade
	}{
		{`review = ["fs.read_file"]`, `confirm = ["compute.run_command", "skills.add_skill_script", "mcp.add_mcp_server", "config.update_config"]`, reach.Medium},
		{`review = ["fs.read_file", "compute.run_command"]`, `confirm = ["skills.add_skill_script", "mcp.add_mcp_server", "config.update_config"]`, reach.High},
	} {
		edit := func(data []byte) []byte {
			data = replaceOnce(t, data, review, c.review)
			return replaceOnce(t, data, `confirm = ["skills.add_skill_script", "mcp.add_mcp_server", "config.update_config"]`, c.confirm)
		}
		r := diff.Compare(loadDefault(t, "old.toml", edit(off)), loadDefault(t, "new.toml", edit(on)))
		a := r.AutoApproval
		if a == nil || !a.Widened || a.Grade != c.want {
			t.Errorf("%s, auto-approval turned on: %+v, want widened and %v\n%s", c.review, a, c.want, reportText(t, r))
		}
	}
}

// TestComposedWorkersAloneWiden: the entry agent moves to an agent that
// holds every toolset of the default install (capabilities among them)
// and that nothing reached before. An agent startup does not build calls
// nothing (docs/readings.md), so the move widens by every tool the new
// entry agent calls, and the composed workers that appear are listed as
// new power too. Composed workers that appear holding no tool are listed
// and widen nothing of their own.
func TestComposedWorkersAloneWiden(t *testing.T) {
	const config = `[assistant]
agent = %q

[assistant.tools]
confirm = []
review = []

[agents.assistant]
description = "x"

[agents.assistant.tools]
available = ["time"]

[agents.all]
description = "x"

[agents.all.tools]
available = ["aimu_agents", "audio", "benchmark", "capabilities", "compute", "config", "conversations", "documents", "fs", "fs_write",
             "github_backup", "image", "mcp", "memory", "messaging", "misc", "planning", "scheduling", "speech", "time",
             "transcription", "web"]
`
	o := loadDefault(t, "old.toml", fmt.Appendf(nil, config, "assistant"))
	n := loadDefault(t, "new.toml", fmt.Appendf(nil, config, "all"))
	if o.Graph.Agent(reach.ComposedNode) != nil || n.Graph.Agent(reach.ComposedNode) == nil {
		t.Fatal("the config does not make composed workers appear")
	}
	r := diff.Compare(o, n)
	listed := func(r *diff.Report) *diff.AgentChange {
		for i := range r.Agents {
			if r.Agents[i].Agent == reach.ComposedNode {
				return &r.Agents[i]
			}
		}
		return nil
	}
	if c := listed(r); r.WidenedCount == 0 || !r.Widened || !r.Fails("any") || c == nil {
		t.Errorf("composed workers appearing with every tool: widened = %v (%d counted), want widened, counted, and the workers listed as added\n%s", r.Widened, r.WidenedCount, reportText(t, r))
	}

	// The same move where the install's one toolset is capabilities, which
	// composed workers do not hold: they appear holding nothing, and
	// nothing widens.
	m := serverManifest(t)
	var keep []any
	for _, ts := range m["toolsets"].([]any) {
		if ts.(map[string]any)["name"] == kokua.Capabilities {
			keep = append(keep, ts)
		}
	}
	m["toolsets"] = keep
	lm := m.load(t, "capabilities.json")
	const bare = `[assistant]
agent = %q

[assistant.tools]
confirm = []
review = []

[agents.assistant]
description = "x"

[agents.assistant.tools]
available = []

[agents.composer]
description = "x"

[agents.composer.tools]
available = ["capabilities"]
`
	o = configSide(t, "old.toml", fmt.Sprintf(bare, "assistant"), lm)
	n = configSide(t, "new.toml", fmt.Sprintf(bare, "composer"), lm)
	if c := n.Graph.Agent(reach.ComposedNode); o.Graph.Agent(reach.ComposedNode) != nil || c == nil || len(c.Answers) != 0 {
		t.Fatal("the config does not make composed workers holding nothing appear")
	}
	r = diff.Compare(o, n)
	if c := listed(r); c == nil || len(c.Widened) != 0 || !r.Widened {
		t.Errorf("composed workers appearing with no tool: want them listed, widening nothing of their own, and the composer's tools widened\n%s", reportText(t, r))
	}
}

// TestChangesListedWhateverTheirCounts: an agent's change is listed when
// anything in it changed, and its residency change likewise, however
// many of each kind there are: a toolset of one tool gained or lost (one
// toolset and one tool), resident swapping one toolset for another (one
// gained, one lost), and an agent starting to defer two toolsets (two
// lost from resident, two loaders).
func TestChangesListedWhateverTheirCounts(t *testing.T) {
	const config = `[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = []

[agents.assistant]
description = "x"

[agents.assistant.tools]
available = %s
%s
`
	load := func(name, available, resident string) *diff.Side {
		return loadDefault(t, name, fmt.Appendf(nil, config, available, resident))
	}
	// misc's one tool is echo.
	with, without := load("with.toml", `["time", "misc", "web"]`, ""), load("without.toml", `["time", "web"]`, "")
	for _, c := range []struct {
		o, n                          *diff.Side
		gained, lost, widen, narrowed int
	}{{with, without, 0, 1, 0, 1}, {without, with, 1, 0, 1, 0}} {
		r := diff.Compare(c.o, c.n)
		if len(r.Agents) != 1 || len(r.Agents[0].Available.Gained) != c.gained || len(r.Agents[0].Available.Lost) != c.lost ||
			len(r.Agents[0].Widened) != c.widen || len(r.Agents[0].Narrowed) != c.narrowed {
			t.Errorf("%s -> %s: want the assistant listed with misc and echo\n%s", c.o.Name, c.n.Name, reportText(t, r))
		}
	}
	for _, c := range []struct {
		old, new              string
		gained, lost, loaders int
	}{
		{`resident = ["time"]`, `resident = ["misc"]`, 1, 1, 0},
		{``, `resident = ["time"]`, 0, 2, 2},
	} {
		r := diff.Compare(load("old.toml", `["time", "misc", "web"]`, c.old), load("new.toml", `["time", "misc", "web"]`, c.new))
		if len(r.Residency) != 1 || len(r.Residency[0].Resident.Gained) != c.gained || len(r.Residency[0].Resident.Lost) != c.lost ||
			len(r.Residency[0].Loaders) != c.loaders || r.Widened || len(r.Agents) != 0 {
			t.Errorf("%q -> %q: want one residency change, %d gained, %d lost, %d loaders\n%s", c.old, c.new, c.gained, c.lost, c.loaders, reportText(t, r))
		}
	}
}

// TestCommentChangePlace: a change of comments alone is info, placed at
// the first comment of the new side that differs from the old side's
// comment at the same index: a rewritten second comment, or one added
// after the last.
func TestCommentChangePlace(t *testing.T) {
	const config = `# first
[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = []
# second

[agents.assistant]
description = "x"

[agents.assistant.tools]
available = ["time"]
`
	o := loadDefault(t, "old.toml", []byte(config))
	for _, c := range []struct {
		config string
		line   int
	}{
		{strings.Replace(config, "# second", "# second, rewritten", 1), 8},
		{config + "# third\n", 15},
	} {
		r := diff.Compare(o, loadDefault(t, "new.toml", []byte(c.config)))
		if len(r.Info) != 1 || r.Info[0].What != "comments" || r.Info[0].At.Line != c.line || r.Info[0].At.Key != "comment" || r.Grade != reach.Info {
			t.Errorf("want the comments changed at line %d, info:\n%s", c.line, reportText(t, r))
		}
	}
}

// TestAutoApprovalOnWithEveryToolOnTheFloor: turning auto-approval on
// widens only when some tool an agent holds is off the floor, so that a
// reviewer may answer it. The linter refuses a config where the floor
// holds every tool a review entry names, but a compiled policy is diffed
// as it comes: one that turns auto-approval on with both of time's tools
// on the floor lists the switch, with nothing unprotected, and widens
// nothing.
func TestAutoApprovalOnWithEveryToolOnTheFloor(t *testing.T) {
	const config = `[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = ["time.convert_time"]

[agents.assistant]
description = "x"

[agents.assistant.tools]
available = ["time"]

[security]
never_auto_approve = ["time.get_current_date_and_time"]

[security.auto_approval]
enabled = %v
reviewers = ["guard"]

[reviewers.guard]
model = "anthropic:claude-haiku-4-5"
system_message = "x"
`
	compiled := func(name string, on bool, edit func(*policy.Document)) *diff.Side {
		doc, _, err := compile.Compile(fmt.Appendf(nil, config, on), lint.DefaultManifest().Source.Data, compile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		edit(doc)
		data, err := policy.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := diff.Load(lint.Source{Name: name, Data: data}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	o := compiled("old.json", false, func(*policy.Document) {})
	// The floor's entry for get_current_date_and_time, copied for
	// convert_time.
	floored := func(d *policy.Document) {
		e := d.Floor.List.Entries[0]
		e.Text, e.Tool, e.Tools = "time.convert_time", "convert_time", []string{"convert_time"}
		d.Floor.List.Entries = append(d.Floor.List.Entries, e)
		d.Floor.List.Tools = append(d.Floor.List.Tools, "convert_time")
	}
	for _, c := range []struct {
		edit    func(*policy.Document)
		widened bool
	}{{func(*policy.Document) {}, true}, {floored, false}} {
		r := diff.Compare(o, compiled("new.json", true, c.edit))
		a := r.AutoApproval
		if a == nil || a.Widened != c.widened || (len(a.Unprotected) > 0) != c.widened || r.Widened != c.widened {
			t.Errorf("auto-approval turned on: %+v, want widened = %v\n%s", a, c.widened, reportText(t, r))
		}
	}
}

// TestReorderIsInfo: the same names in another order, in an agent's
// available or delegates_to or in an approval list, are a change of
// order: one info change each, naming the list, and nothing else.
func TestReorderIsInfo(t *testing.T) {
	const config = `[assistant]
agent = "assistant"

[assistant.tools]
confirm = [%s]
review = []

[agents.assistant]
description = "x"
delegates_to = [%s]

[agents.assistant.tools]
available = [%s]

[agents.a]
description = "x"

[agents.a.tools]
available = ["time"]

[agents.b]
description = "x"

[agents.b.tools]
available = ["time"]
`
	load := func(name, confirm, delegates, available string) *diff.Side {
		return loadDefault(t, name, fmt.Appendf(nil, config, confirm, delegates, available))
	}
	o := load("old.toml", `"time", "misc"`, `"a", "b"`, `"time", "misc"`)
	for _, c := range []struct {
		confirm, delegates, available, what string
	}{
		{`"misc", "time"`, `"a", "b"`, `"time", "misc"`, "the order of [assistant.tools].confirm"},
		{`"time", "misc"`, `"b", "a"`, `"time", "misc"`, "the order of [agents.assistant].delegates_to"},
		{`"time", "misc"`, `"a", "b"`, `"misc", "time"`, "the order of [agents.assistant.tools].available"},
	} {
		r := diff.Compare(o, load("new.toml", c.confirm, c.delegates, c.available))
		if len(r.Info) != 1 || r.Info[0].What != c.what || r.Grade != reach.Info || !r.Empty() {
			t.Errorf("want %q alone:\n%s", c.what, reportText(t, r))
		}
	}
}

// TestRiskReportCountsItsPaths: a risks report's grade counts are the
// grades of the paths it lists, and its headline names each present
// grade's count, most serious first. Every side of testdata/diff.
func TestRiskReportCountsItsPaths(t *testing.T) {
	paths := 0
	for name, sides := range caseSides(t) {
		for _, s := range sides {
			r := diff.Risks(s)
			count := map[reach.Grade]int{}
			for _, a := range r.Agents {
				for _, p := range a.Paths {
					count[p.Grade]++
					paths++
				}
			}
			var parts []string
			for _, g := range reach.Grades {
				if r.Grades.Of(g) != count[g] {
					t.Errorf("%s %s: %d %v paths counted, %d listed", name, s.Name, r.Grades.Of(g), g, count[g])
				}
				if count[g] > 0 {
					parts = append(parts, fmt.Sprintf("%d %s", count[g], g))
				}
			}
			if want := strings.Join(parts, ", "); r.Grades.String() != want && !(want == "" && r.Grades.String() == "none") {
				t.Errorf("%s %s: headline %q, want %q", name, s.Name, r.Grades.String(), want)
			}
		}
	}
	if paths < 100 {
		t.Errorf("only %d paths counted", paths)
	}
}

// TestFloorDroppedStillCovered: with auto-approval on on both sides, a
// floor entry dropped while another entry still holds its tool (config
// stays on the floor as a toolset) unprotects nothing: the floor change
// is listed, neither widened nor counted narrowed.
func TestFloorDroppedStillCovered(t *testing.T) {
	old := caseFile(t, "floor-dropped-auto-on", "old.toml")
	both := replaceOnce(t, old, `never_auto_approve = ["config.update_config", "skills.add_skill_script", "mcp.add_mcp_server"]`,
		`never_auto_approve = ["config", "config.update_config", "skills.add_skill_script", "mcp.add_mcp_server"]`)
	one := replaceOnce(t, old, `never_auto_approve = ["config.update_config", "skills.add_skill_script", "mcp.add_mcp_server"]`,
		`never_auto_approve = ["config", "skills.add_skill_script", "mcp.add_mcp_server"]`)
	r := diff.Compare(loadDefault(t, "old.toml", both), loadDefault(t, "new.toml", one))
	f := r.Floor
	if f == nil || len(f.Dropped) != 1 || f.Widened || len(f.Unprotected) != 0 || r.Widened || r.NarrowedCount != 0 || r.WidenedCount != 0 {
		t.Errorf("dropping config.update_config with config on the floor: %+v, %d narrowed; want it listed, nothing counted\n%s", f, r.NarrowedCount, reportText(t, r))
	}
}

// TestWhyAToolWidened: the explanation and line of a widened tool, by
// what caused it, apart from the goldens: a toolset gained in available
// (available-gained), the agent delegating, which gives it
// spawn_subagent (delegation-gained), and auto-approval turned on for a
// review tool (pr-auto-approval-on).
func TestWhyAToolWidened(t *testing.T) {
	all := caseSides(t)
	for _, c := range []struct {
		name, agent, because, key string
	}{
		{"available-gained", "researcher", "available now holds fs_write", "[agents.researcher.tools].available"},
		{"delegation-gained", "researcher", "the agent now delegates", "[agents.researcher].delegates_to"},
		{"pr-auto-approval-on", "coder", "auto-approval turned on: a reviewer answers review calls first", "[security.auto_approval].enabled"},
	} {
		sides := all[c.name]
		r := diff.Compare(sides[0], sides[1])
		n := 0
		for _, a := range r.Agents {
			if a.Agent != c.agent {
				continue
			}
			for _, w := range a.Widened {
				if w.Because != c.because || w.At.Key != c.key || w.At.Line == 0 {
					t.Errorf("%s: %s's %s.%s widened because %q at %v, want %q at %s", c.name, c.agent, w.Toolset, w.Tool, w.Because, w.At, c.because, c.key)
				}
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: nothing of %s widened\n%s", c.name, c.agent, reportText(t, r))
		}
	}
}
