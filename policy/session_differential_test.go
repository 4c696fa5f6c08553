package policy_test

// The session differential test: random conversations (loads, preloads and
// calls) driven through policy.Session and through the plain session model
// of internal/testing/reference, every answer compared after every step.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/internal/testing/reference"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// sessionCase is a config with its manifest, compiled and read by the
// reference.
type sessionCase struct {
	name string
	p    *policy.Policy
	ref  *reference.Evaluator
	// toolsets are every registered toolset, a made-up one and core;
	// tools every tool name, bare and qualified, the core tools and a
	// made-up name.
	toolsets, tools []string
}

// sessionMadeUp is a name no toolset provides.
const sessionMadeUp = "no_such_tool"

// newSessionCase lints and compiles a config; ok is false when it lints
// with errors.
func newSessionCase(t testing.TB, name string, cfg, man []byte) (c sessionCase, ok bool) {
	t.Helper()
	m := lint.DefaultManifest()
	if man != nil {
		m = lint.LoadManifest(lint.Source{Name: "manifest.json", Data: man})
	} else {
		man = manifest.DefaultManifest()
	}
	res := engine.Run(lint.Source{Name: "config.toml", Data: cfg}, m)
	if res.HasErrors() || res.World == nil {
		return c, false
	}
	data, err := policy.Marshal(engine.Compile(res.World, engine.Source{Name: "config.toml", Data: cfg},
		engine.Source{Name: m.Source.Name, Data: m.Source.Data}))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	p, err := policy.Parse(name, data)
	if err != nil {
		t.Fatalf("%s: the compiled policy does not load: %v", name, err)
	}
	ref, err := reference.New(cfg, man)
	if errors.Is(err, reference.ErrNumberRange) {
		t.Logf("%s: left out: %v", name, err)
		return c, false
	}
	if err != nil {
		t.Fatalf("%s: the reference cannot read it: %v", name, err)
	}
	c = sessionCase{name: name, p: p, ref: ref}
	d := p.Document()
	for _, ts := range d.TrustOrder {
		c.toolsets = append(c.toolsets, ts)
		for _, tool := range d.Toolsets[ts].Tools {
			c.tools = append(c.tools, ts+"."+tool.Name)
			if !slices.Contains(c.tools, tool.Name) {
				c.tools = append(c.tools, tool.Name)
			}
		}
	}
	c.toolsets = append(c.toolsets, "ghost", "core")
	for _, core := range []string{"spawn_subagent", "activate_skill", "available_tools", "load_tools"} {
		c.tools = append(c.tools, core, "core."+core)
	}
	c.tools = append(c.tools, sessionMadeUp, "ghost."+sessionMadeUp)
	for _, ts := range d.TrustOrder {
		c.tools = append(c.tools, ts+"."+sessionMadeUp)
	}
	return c, true
}

// sessionAnswer maps the runtime's decisions onto the reference's answers.
var sessionAnswer = map[policy.Decision]string{
	policy.Unavailable: reference.Unavailable,
	policy.NotLoaded:   reference.Loadable,
	policy.Run:         reference.Run,
	policy.Confirm:     reference.Confirm,
	policy.Review:      reference.Review,
}

// sessionCompare asks both sessions about every tool, attended and not,
// and reports the first few disagreements. It counts the reference's
// answers into seen.
func sessionCompare(t testing.TB, c sessionCase, agent string, steps []string, s *policy.Session, rs *reference.Session, seen map[string]int) bool {
	t.Helper()
	fail := func(format string, args ...any) bool {
		t.Errorf("%s: agent %q after %s: %s", c.name, agent, strings.Join(steps, ", "), fmt.Sprintf(format, args...))
		return false
	}
	if got, want := s.Loadable(), rs.Loadable(); strings.Join(got, ",") != strings.Join(want, ",") {
		return fail("loadable toolsets %v, the reference says %v", got, want)
	}
	for _, tool := range c.tools {
		want := rs.Answer(tool)
		seen[want]++
		ans := s.Decide(tool, policy.Turn{})
		if got := sessionAnswer[ans.Decision]; got != want {
			return fail("%q is %s (%s), the reference says %s", tool, ans.Decision, ans.Reason.Summary, want)
		}
		name := tool[strings.Index(tool, ".")+1:]
		if want == reference.Review && ans.Reason.Reviewer != c.ref.ReviewerFirst(name) {
			return fail("the review of %q goes to the reviewer first: %v, the reference says %v (auto-approval %v, floor %v)",
				tool, ans.Reason.Reviewer, c.ref.ReviewerFirst(name), c.ref.AutoApproval, c.ref.FloorTools())
		}
		un := s.Decide(tool, policy.Turn{Unattended: true}).Decision
		wantUn := ans.Decision
		if want == reference.Confirm || want == reference.Review {
			wantUn = policy.Denied
		}
		if un != wantUn {
			return fail("%q in an unattended turn is %s, want %s", tool, un, wantUn)
		}
		if want == reference.Unavailable && ans.Decision == policy.Run {
			return fail("%q runs, though the reference says it is unavailable", tool)
		}
	}
	return true
}

// sessionDrive plays one random conversation of an agent: a fresh session
// or a preloaded one, then loads, every answer compared after each step.
func sessionDrive(t testing.TB, c sessionCase, agent string, rng *rand.Rand, seen map[string]int) {
	t.Helper()
	pick := func() string { return c.toolsets[rng.IntN(len(c.toolsets))] }
	var steps []string
	var s *policy.Session
	var rs *reference.Session
	if rng.IntN(3) == 0 {
		var loads []string
		for range rng.IntN(4) {
			loads = append(loads, pick())
		}
		var err error
		s, _, err = c.p.Preload(agent, loads)
		if err != nil {
			t.Fatalf("%s: preload %s: %v", c.name, agent, err)
		}
		rs = c.ref.Preload(agent, loads)
		steps = append(steps, fmt.Sprintf("preload %v", loads))
	} else {
		var err error
		s, err = c.p.NewSession(agent)
		if err != nil {
			t.Fatalf("%s: session %s: %v", c.name, agent, err)
		}
		rs = c.ref.NewSession(agent)
		steps = append(steps, "a fresh session")
	}
	if !sessionCompare(t, c, agent, steps, s, rs, seen) {
		return
	}
	for range 1 + rng.IntN(4) {
		ts := pick()
		res := s.Load(ts)
		ok, added := rs.Load(ts)
		steps = append(steps, "load "+ts)
		if res.OK != ok || strings.Join(res.Added, ",") != strings.Join(added, ",") {
			t.Errorf("%s: agent %q after %s: the load gives ok %v, added %v; the reference ok %v, added %v (%s)",
				c.name, agent, strings.Join(steps, ", "), res.OK, res.Added, ok, added, res.Message)
			return
		}
		if !sessionCompare(t, c, agent, steps, s, rs, seen) {
			return
		}
	}
}

// sessionGenerated are small generated configs, each also with
// auto-approval off.
func sessionGenerated(t testing.TB) []sessionCase {
	var out []sessionCase
	for _, agents := range []int{1, 4, 9} {
		for _, toolsets := range []int{6, 12, 45} {
			cfg, man := gen.Config(agents, toolsets), gen.Manifest(toolsets)
			off := []byte(strings.Replace(string(cfg), "enabled = true", "enabled = false", 1))
			for i, data := range [][]byte{cfg, off} {
				name := fmt.Sprintf("gen.Config(%d, %d)", agents, toolsets)
				if i == 1 {
					name += " with auto-approval off"
				}
				c, ok := newSessionCase(t, name, data, man)
				if !ok {
					t.Fatalf("%s lints with errors:\n%s", name, data)
				}
				out = append(out, c)
			}
		}
	}
	return out
}

// sessionGolden are the compile golden cases.
func sessionGolden(t testing.TB) []sessionCase {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "compile", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []sessionCase
	for _, dir := range dirs {
		cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
		if err != nil {
			t.Fatal(err)
		}
		man, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			man = nil
		}
		c, ok := newSessionCase(t, filepath.Base(dir), cfg, man)
		if !ok {
			t.Fatalf("%s lints with errors", dir)
		}
		out = append(out, c)
	}
	return out
}

// sessionLintGolden are the lint golden cases that lint without errors:
// MCP servers connected or not, skills, plugins, shadowed names.
func sessionLintGolden(t testing.TB) []sessionCase {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "lint", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []sessionCase
	for _, dir := range dirs {
		cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
		if err != nil {
			continue
		}
		man, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			man = nil
		}
		if c, ok := newSessionCase(t, filepath.Base(dir), cfg, man); ok {
			out = append(out, c)
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d lint golden cases lint clean; expected many more", len(out))
	}
	return out
}

// TestSessionDifferential drives random conversations of every agent of
// small generated configs and of the compile and lint golden cases, comparing
// every answer with the reference's after every load.
func TestSessionDifferential(t *testing.T) {
	t.Parallel()
	cases := slices.Concat(sessionGenerated(t), sessionGolden(t), sessionLintGolden(t))
	seen := map[string]int{}
	conversations := 0
	for i, c := range cases {
		rng := rand.New(rand.NewPCG(uint64(i), 0x73657373696f6e))
		var agents []string
		for name := range c.p.Document().Agents {
			agents = append(agents, name)
		}
		slices.Sort(agents)
		for _, agent := range agents {
			for range 2 {
				sessionDrive(t, c, agent, rng, seen)
				conversations++
			}
		}
		if t.Failed() {
			return
		}
	}
	for _, answer := range []string{reference.Unavailable, reference.Loadable, reference.Run, reference.Confirm, reference.Review} {
		if seen[answer] == 0 {
			t.Errorf("no call was answered %s: the conversations miss a whole kind of answer", answer)
		}
	}
	t.Logf("%d cases, %d conversations; answers %v", len(cases), conversations, seen)
}
