package expect_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/expect"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// shipped is the shipped config, compiled on the fly as kokua-compile
// test compiles it.
func shipped(t *testing.T) *diff.Side {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	side, _, err := diff.Load(lint.Source{Name: "config.toml", Data: data}, lint.DefaultManifest(), nil)
	if err != nil || side == nil {
		t.Fatalf("the shipped config does not compile: %v", err)
	}
	return side
}

// one checks a test file of one claim and returns its result.
func one(t *testing.T, side *diff.Side, claim string) expect.Result {
	t.Helper()
	f, ds := expect.Parse("kokua.test.toml", []byte("[[expect]]\n"+claim))
	if len(ds) > 0 {
		t.Fatalf("%q: %v", claim, ds)
	}
	rs := expect.Run(side, f)
	if len(rs) != 1 {
		t.Fatalf("%d results", len(rs))
	}
	return rs[0]
}

// TestGroups: a group stands for exactly its decisions.
func TestGroups(t *testing.T) {
	for _, tc := range []struct {
		word string
		want []policy.Decision
	}{
		{"asks", []policy.Decision{policy.Confirm, policy.Review}},
		{"not run", []policy.Decision{policy.Confirm, policy.Review, policy.NotLoaded, policy.Unavailable, policy.Denied}},
		{"run", []policy.Decision{policy.Run}},
		{"not_loaded", []policy.Decision{policy.NotLoaded}},
		{"denied", []policy.Decision{policy.Denied}},
		{"Run", nil},
		{"ask", nil},
		{"", nil},
	} {
		if got := expect.Expand(tc.word); !slices.Equal(got, tc.want) {
			t.Errorf("Expand(%q) = %v, want %v", tc.word, got, tc.want)
		}
	}
	for _, d := range expect.Decisions {
		in := slices.Contains(expect.Expand(expect.NotRun), d)
		if in == (d == policy.Run) {
			t.Errorf("%q: in 'not run' is %v", d, in)
		}
	}
}

// TestSemantics: the claims of issue 22's semantics, each held or failed
// as the runtime decides, on the shipped config.
func TestSemantics(t *testing.T) {
	side := shipped(t)
	for _, tc := range []struct {
		name, claim string
		passed      bool
		pairs       int
		failing     []string // agent tool of each failing pair
	}{
		{"a tool", `agent = "researcher"` + "\n" + `tool = "compute.run_command"` + "\n" + `decision = "unavailable"`, true, 1, nil},
		{"a tool that runs", `agent = "coder"` + "\n" + `tool = "compute.calculate"` + "\n" + `decision = "asks"`, false, 1, []string{"coder compute.calculate"}},
		{"a toolset is each of its tools", `agent = "coder"` + "\n" + `tool = "compute"` + "\n" + `decision = "asks"`, false, 3, []string{"coder compute.calculate"}},
		{"toolset.* is the toolset", `agent = "coder"` + "\n" + `tool = "compute.*"` + "\n" + `decision = ["asks", "run"]`, true, 3, nil},
		{"a list of decisions", `agent = "coder"` + "\n" + `tool = "compute.run_command"` + "\n" + `decision = ["confirm", "review"]`, true, 1, nil},
		{"asks is confirm and review", `agent = "coder"` + "\n" + `tool = "fs_write"` + "\n" + `decision = "asks"`, true, 2, nil},
		{"not run", `agent = "researcher"` + "\n" + `tool = "fs_write"` + "\n" + `decision = "not run"`, true, 2, nil},
		{"every agent", `agent = "*"` + "\n" + `tool = "time.get_current_date_and_time"` + "\n" + `decision = "run"`, true, 4, nil},
		{"after load, without loaded", `agent = "assistant"` + "\n" + `tool = "mcp.add_mcp_server"` + "\n" + `decision = "confirm"`, true, 1, nil},
		{"loaded = [] is a session that loaded nothing", `agent = "assistant"` + "\n" + `tool = "mcp.add_mcp_server"` + "\n" + `decision = "confirm"` + "\n" + `loaded = []`, false, 1, []string{"assistant mcp.add_mcp_server"}},
		{"loaded names the toolset", `agent = "assistant"` + "\n" + `tool = "mcp.add_mcp_server"` + "\n" + `decision = "confirm"` + "\n" + `loaded = ["mcp"]`, true, 1, nil},
		{"not_loaded can be asserted", `agent = "assistant"` + "\n" + `tool = "mcp.add_mcp_server"` + "\n" + `decision = "not_loaded"` + "\n" + `loaded = ["skills"]`, true, 1, nil},
		{"unattended denies a gated call", `agent = "coder"` + "\n" + `tool = "fs_write.write_file"` + "\n" + `decision = "denied"` + "\n" + `unattended = true`, true, 1, nil},
		{"unattended runs what is not gated", `agent = "coder"` + "\n" + `tool = "compute.calculate"` + "\n" + `decision = "run"` + "\n" + `unattended = true`, true, 1, nil},
		{"attended, a gated call asks", `agent = "coder"` + "\n" + `tool = "fs_write.write_file"` + "\n" + `decision = "denied"`, false, 1, []string{"coder fs_write.write_file"}},
		{"composed workers get the default tier", `agent = "composed"` + "\n" + `tool = "compute.run_command"` + "\n" + `decision = "review"`, true, 1, nil},
		{"without reach, only the agent", `agent = "assistant"` + "\n" + `tool = "compute.run_command"` + "\n" + `decision = "unavailable"`, true, 1, nil},
		{"reach adds delegates and composed workers", `agent = "assistant"` + "\n" + `tool = "compute.run_command"` + "\n" + `decision = "unavailable"` + "\n" + `reach = true`, false, 5,
			[]string{"coder compute.run_command", "composed:* compute.run_command"}},
		{"a core tool", `agent = "assistant"` + "\n" + `tool = "core.load_tools"` + "\n" + `decision = "run"`, true, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := one(t, side, tc.claim)
			var failing []string
			for _, f := range r.Failures {
				failing = append(failing, f.Agent+" "+f.Tool)
			}
			if r.Passed != tc.passed || r.Pairs != tc.pairs || !slices.Equal(failing, tc.failing) || len(r.Problems) > 0 {
				t.Errorf("passed %v, %d pairs, failing %v, problems %v; want %v, %d, %v", r.Passed, r.Pairs, failing, r.Problems, tc.passed, tc.pairs, tc.failing)
			}
		})
	}
}

// TestSelectorsMatchingNothing: a selector that matches nothing fails the
// claim, at the selector, with the closest name; it never passes.
func TestSelectorsMatchingNothing(t *testing.T) {
	side := shipped(t)
	for _, tc := range []struct{ claim, message, suggestion string }{
		{`agent = "reseacher"` + "\n" + `tool = "*"` + "\n" + `decision = "not run"`, "agent 'reseacher' matches no declared agent", `write "researcher"`},
		{`agent = "coder"` + "\n" + `tool = "compute.run_comand"` + "\n" + `decision = "not run"`, "toolset 'compute' provides no tool 'run_comand'", `write "compute.run_command"`},
		{`agent = "coder"` + "\n" + `tool = "comptue.run_command"` + "\n" + `decision = "not run"`, "names no registered toolset 'comptue'", `write "compute.run_command"`},
		{`agent = "coder"` + "\n" + `tool = "fs_writ"` + "\n" + `decision = "not run"`, "tool 'fs_writ' names no registered toolset", `write "fs_write"`},
		{`agent = "coder"` + "\n" + `tool = "fs_writ.*"` + "\n" + `decision = "not run"`, "tool 'fs_writ.*' names no registered toolset", `write "fs_write.*"`},
		{`agent = "coder"` + "\n" + `tool = "run_command"` + "\n" + `decision = "not run"`, "tool 'run_command' names no toolset", `write "compute.run_command"`},
		{`agent = "coder"` + "\n" + `tool = "time"` + "\n" + `decision = "run"` + "\n" + `loaded = ["tmie"]`, "loaded names 'tmie'", `write "time"`},
		{`agent = "composed"` + "\n" + `tool = "time"` + "\n" + `decision = "run"` + "\n" + `loaded = []`, "composed workers hold the whole registry", "leave out loaded"},
	} {
		r := one(t, side, tc.claim)
		if r.Passed || len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, tc.message) || r.Problems[0].Suggestion != tc.suggestion ||
			r.Problems[0].Span.Start.Line < 2 {
			t.Errorf("%q: passed %v, problems %v; want %q with %q", tc.claim, r.Passed, r.Problems, tc.message, tc.suggestion)
		}
	}
}

// TestComposedWithoutComposer: "composed" in a policy where no agent can
// compose matches nothing.
func TestComposedWithoutComposer(t *testing.T) {
	data := []byte("[assistant]\nagent = \"a\"\n\n[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.a.tools]\navailable = [\"time\"]\n")
	side, _, err := diff.Load(lint.Source{Name: "config.toml", Data: data}, lint.DefaultManifest(), nil)
	if err != nil || side == nil {
		t.Fatal(err)
	}
	r := one(t, side, `agent = "composed"`+"\n"+`tool = "time"`+"\n"+`decision = "run"`)
	if r.Passed || len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, "composed workers do not exist") {
		t.Errorf("passed %v, problems %v", r.Passed, r.Problems)
	}
}

// TestParseErrors: each mistake of a test file is an error at its line.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		has  string
	}{
		{"[[expect]]\nagent = \"a\"\ntool = \"*\"\ndecision = \"run\"\nreach = 1\n", 5, "reach is an integer"},
		{"[[expect]]\nagent = \"a\"\ntool = \"*\"\ndecision = \"run\"\nagnet = \"b\"\n", 5, "unknown key 'agnet'"},
		{"[[expect]]\nagent = \"a\"\ntool = \"*\"\ndecision = []\n", 4, "empty list"},
		{"[[expect]]\nagent = \"a\"\ntool = \"*\"\ndecision = [\"run\", 3]\n", 4, "an element of decision is an integer"},
		{"[[expect]]\nagent = \"a\"\ntool = \"*\"\ndecision = \"never\"\n", 4, "'never' is no decision"},
		{"[[expect]]\nagent = \"a\"\ntool = \"*\"\ndecision = \"run\"\nloaded = \"mcp\"\n", 5, "loaded is a string"},
		{"[[expect]]\nagent = \"\"\ntool = \"*\"\ndecision = \"run\"\n", 2, "agent is empty"},
		{"[[expect]]\nagent = \"a\"\ndecision = \"run\"\n", 1, "no tool key"},
		{"[expect]\nagent = \"a\"\n", 1, "expect is a table"},
		{"title = \"x\"\n", 1, "unknown key 'title'"},
		{"# nothing\n", 0, "holds no [[expect]] table"},
		{"[[expect]\n", 1, ""},
	} {
		f, ds := expect.Parse("t.toml", []byte(tc.file))
		if f != nil || len(ds) == 0 || ds[0].Span.Start.Line != tc.line || !strings.Contains(ds[0].Message, tc.has) || ds[0].Severity != diag.Error {
			t.Errorf("%q: %v", tc.file, ds)
		}
	}
	f, ds := expect.Parse("t.toml", []byte("[[expect]]\nname = \"n\"\nagent = \"a\"\ntool = \"t\"\ndecision = [\"run\", \"asks\"]\nunattended = true\nloaded = []\nreach = true\n"))
	if len(ds) > 0 || len(f.Expects) != 1 {
		t.Fatalf("%v", ds)
	}
	e := f.Expects[0]
	if e.Name != "n" || e.Agent.Text != "a" || e.Tool.Text != "t" || len(e.Decision) != 2 || !e.Unattended || !e.HasLoaded || len(e.Loaded) != 0 || !e.Reach ||
		e.Span.Start.Line != 1 || e.Tool.Span.Start.Line != 4 {
		t.Errorf("parsed %+v", e)
	}
	if w := e.Wanted(); len(w) != 3 || !w[policy.Run] || !w[policy.Confirm] || !w[policy.Review] {
		t.Errorf("wanted %v", w)
	}
}

// TestExplainSummarizes: a claim with many failing pairs keeps the first
// few, which it explains, and counts the rest (issue 37: it kept every
// pair, 2.3 GB for 3,000 claims of every agent and tool).
func TestExplainSummarizes(t *testing.T) {
	r := one(t, shipped(t), `agent = "*"`+"\n"+`tool = "*"`+"\n"+`decision = "run"`)
	text := r.Explain()
	if r.Passed || len(r.Failures) != expect.Shown || r.Failing <= expect.Shown || strings.Count(text, ", want run") != expect.Shown ||
		!strings.Contains(text, fmt.Sprintf("... and %d more of the %d pairs it selects fail", r.Failing-expect.Shown, r.Pairs)) {
		t.Errorf("%d failures kept of %d, explained:\n%s", len(r.Failures), r.Failing, text)
	}
}
