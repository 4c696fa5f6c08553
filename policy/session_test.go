package policy_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/policy"
)

// load reads a golden policy written by the compiler's tests.
func load(t *testing.T, name string) *policy.Policy {
	t.Helper()
	path := filepath.Join("..", "testdata", "compile", name, "want.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func toolNames(ts []policy.Tool) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return strings.Join(out, ",")
}

// TestLoadAppendsAndResolvesPending follows the shipped entry agent: mcp is
// deferred, so mcp.add_mcp_server is pending and add_mcp_server cannot be
// called; loading mcp appends its tools after the loaders and the pending
// entry gates add_mcp_server before it is callable (R80, R181, R83).
func TestLoadAppendsAndResolvesPending(t *testing.T) {
	p := load(t, "shipped")
	s, err := p.NewSession("assistant")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Decide("add_mcp_server", policy.Turn{}).Decision; got != policy.NotLoaded {
		t.Errorf("before the load add_mcp_server is %s, want not_loaded", got)
	}
	if got, want := s.NamesLine(), "Also available, load before use: documents, skills, mcp, scheduling, benchmark."; got != want {
		t.Errorf("names line %q, want %q", got, want)
	}
	res := s.Load("mcp")
	if !res.OK || strings.Join(res.Added, ",") != "add_mcp_server,remove_mcp_server" || len(res.Skipped) != 0 {
		t.Fatalf("load mcp: %+v", res)
	}
	tools := toolNames(s.Tools())
	if !strings.HasSuffix(tools, "available_tools,load_tools,add_mcp_server,remove_mcp_server") {
		t.Errorf("loaded tools go after everything held (R181): %s", tools)
	}
	a := s.Decide("add_mcp_server", policy.Turn{})
	if a.Decision != policy.Confirm || a.Reason.Entry != "mcp.add_mcp_server" || !a.Reason.Inherited {
		t.Errorf("after the load add_mcp_server: %+v, want confirm by the inherited mcp.add_mcp_server", a)
	}
	if got := s.Decide("remove_mcp_server", policy.Turn{}).Decision; got != policy.Run {
		t.Errorf("remove_mcp_server is %s, want run (R88: another tool of mcp)", got)
	}
	if got := s.Decide("add_mcp_server", policy.Turn{Unattended: true}).Decision; got != policy.Denied {
		t.Errorf("an unattended turn gives %s, want denied (R69)", got)
	}
	if got := s.NamesLine(); got != "Also available, load before use: documents, skills, scheduling, benchmark." {
		t.Errorf("names line after the load: %q", got)
	}
	if again := s.Load("mcp"); !again.OK || len(again.Added) != 0 {
		t.Errorf("a second load adds nothing: %+v", again)
	}
}

func TestLoadRefusals(t *testing.T) {
	p := load(t, "shipped")
	s, err := p.NewSession("assistant")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ toolset, want string }{
		{"web", "Could not load 'web': it is not among this agent's available toolsets"},
		{"nonesuch", "Could not load 'nonesuch': it is not among this agent's available toolsets"},
	}
	for _, tt := range tests {
		if res := s.Load(tt.toolset); res.OK || res.Message != tt.want {
			t.Errorf("Load(%q) = %+v, want refused with %q", tt.toolset, res, tt.want)
		}
	}
	if res := s.Load("memory"); !res.OK || len(res.Added) != 0 {
		t.Errorf("loading a resident toolset adds nothing: %+v", res)
	}
	if _, err := p.NewSession("ghost"); err == nil {
		t.Error("a session of an unknown agent starts")
	}
}

// TestLoadSkipsHeldNames: the explorer of the shadowing case holds fs's
// read_file; loading the MCP server files skips its read_file and says
// that a tool given to the agent directly holds it (R182).
func TestLoadSkipsHeldNames(t *testing.T) {
	p := load(t, "shadowing")
	s, err := p.NewSession("explorer")
	if err != nil {
		t.Fatal(err)
	}
	before := toolNames(s.Tools())
	res := s.Load("web")
	if !res.OK || strings.Join(res.Added, ",") != "web_search" {
		t.Fatalf("load web: %+v (tools before: %s)", res, before)
	}
	want := "Loaded 'web': web_search."
	if res.Message != want {
		t.Errorf("message %q, want %q", res.Message, want)
	}
}

// TestPreload: a rebuilt agent holds its transcript's loads like resident
// toolsets, after the resident ones in the order they were first loaded,
// ahead of spawn_subagent and the loaders, and the names line lists only
// what is left (R183, R184; tool-access.md: "The new agent preloads the
// toolsets the transcript's load_tools calls loaded, in the order they
// were first loaded").
func TestPreload(t *testing.T) {
	p := load(t, "shipped")
	s, results, err := p.Preload("assistant", []string{"scheduling", "mcp", "web"})
	if err != nil {
		t.Fatal(err)
	}
	if !results[0].OK || !results[1].OK || results[2].OK || results[2].Warning == "" {
		t.Errorf("preload results %+v: scheduling and mcp succeed, web fails with a warning", results)
	}
	tools := strings.Split(toolNames(s.Tools()), ",")
	iMCP, iSpawn := slices.Index(tools, "add_mcp_server"), slices.Index(tools, "spawn_subagent")
	if iMCP < 0 || iSpawn < 0 || iMCP > iSpawn {
		t.Errorf("preloaded tools sit with the resident ones, before spawn_subagent: %v", tools)
	}
	// scheduling was loaded first, so it comes before mcp, though mcp comes
	// first in available order; both come after every resident tool.
	if slices.Index(tools, "schedule_task") > iMCP {
		t.Errorf("preloaded toolsets are in first-loaded order: %v", tools)
	}
	if slices.Index(tools, "send_message") > slices.Index(tools, "schedule_task") {
		t.Errorf("preloaded toolsets come after the resident ones (messaging is resident): %v", tools)
	}
	if got := s.NamesLine(); got != "Also available, load before use: documents, skills, benchmark." {
		t.Errorf("names line %q", got)
	}
	if got := s.Decide("add_mcp_server", policy.Turn{}).Decision; got != policy.Confirm {
		t.Errorf("a preload goes through the same hook: add_mcp_server is %s, want confirm", got)
	}
}

// TestPreloadEverything: a rebuild that preloads every deferred toolset
// leaves nothing to load, but the agent keeps the two loaders it held
// before ("The end state is the same tools"), and its tool list and its
// answers agree on them.
func TestPreloadEverything(t *testing.T) {
	p := load(t, "shipped")
	s, _, err := p.Preload("assistant", []string{"documents", "skills", "mcp", "scheduling", "benchmark"})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.NamesLine(); got != "" {
		t.Errorf("names line %q, want none", got)
	}
	tools := strings.Split(toolNames(s.Tools()), ",")
	for _, loader := range []string{"available_tools", "load_tools"} {
		if !slices.Contains(tools, loader) {
			t.Errorf("%s left the tool list: %v", loader, tools)
		}
		if got := s.Decide(loader, policy.Turn{}).Decision; got != policy.Run {
			t.Errorf("call %s: %s, want run", loader, got)
		}
	}
}

// TestAnswersAreCopies changes every field a decision handed out by value
// and asks again: the next answer is the one before the change. The
// reason is the policy's own, shared by every answer for the same cause:
// asking twice gives the same Reason, not a copy.
func TestAnswersAreCopies(t *testing.T) {
	p := load(t, "shipped")
	s, err := p.NewSession("assistant")
	if err != nil {
		t.Fatal(err)
	}
	s.Load("mcp")
	asks := []struct {
		name string
		ask  func() policy.Answer
	}{
		{"gated", func() policy.Answer { return p.Decide("coder", "run_command", policy.Turn{}) }},
		{"gated, unattended", func() policy.Answer { return p.Decide("coder", "run_command", policy.Turn{Unattended: true}) }},
		{"runs", func() policy.Answer { return p.Decide("coder", "read_file", policy.Turn{}) }},
		{"unavailable", func() policy.Answer { return p.Decide("coder", "no_such_tool", policy.Turn{}) }},
		{"unknown agent", func() policy.Answer { return p.Decide("ghost", "read_file", policy.Turn{}) }},
		{"composed", func() policy.Answer { return p.Decide("composed:x", "run_command", policy.Turn{}) }},
		{"session, loaded", func() policy.Answer { return s.Decide("add_mcp_server", policy.Turn{}) }},
		{"session, not loaded", func() policy.Answer { return s.Decide("schedule_task", policy.Turn{}) }},
	}
	for _, a := range asks {
		t.Run(a.name, func(t *testing.T) {
			first := a.ask()
			want := first
			if first.Reason == nil || first.Reason.Summary == "" {
				t.Fatalf("the answer %+v has no reason", first)
			}
			first.Decision, first.Agent, first.Tool, first.Toolset = "changed", "changed", "changed", "changed"
			again := a.ask()
			if again != want {
				t.Errorf("after changing what Decide returned, it answers %+v, want %+v", again, want)
			}
			if again.Reason != want.Reason {
				t.Errorf("asked twice, the answers point at two reasons (%p, %p), not the policy's one", again.Reason, want.Reason)
			}
		})
	}
	// Every position an answer gives is the entry's own, and stays so.
	a := p.Decide("coder", "run_command", policy.Turn{})
	if a.Reason.Position.Line != 8 {
		t.Errorf("run_command is gated by the review entry of line 8, the answer says %+v", a.Reason.Position)
	}
}

// TestAnswerHoldsNoReferences keeps Answer a plain value but for its
// reason: no map, slice, interface or pointer other than Answer.Reason,
// and a Reason holds none, so that an answer costs a few words to hand
// out and reaches nothing of the policy but its reason.
func TestAnswerHoldsNoReferences(t *testing.T) {
	var check func(reflect.Type, string)
	check = func(typ reflect.Type, path string) {
		switch typ.Kind() {
		case reflect.Struct:
			for i := range typ.NumField() {
				check(typ.Field(i).Type, path+"."+typ.Field(i).Name)
			}
		case reflect.Pointer:
			if path != "Answer.Reason" {
				t.Errorf("%s is a pointer", path)
			}
			check(typ.Elem(), path+"*")
		case reflect.String, reflect.Bool, reflect.Int:
		default:
			t.Errorf("%s is a %s", path, typ.Kind())
		}
	}
	check(reflect.TypeFor[policy.Answer](), "Answer")
}
