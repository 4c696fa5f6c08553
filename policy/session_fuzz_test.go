package policy_test

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/reference"
	"github.com/kokua-policy/kokua-policy/policy"
)

// FuzzSession asks compiled policies arbitrary conversations: the
// fuzzer's text is a script of lines "agent", then "load toolset",
// "preload toolset" and "call tool". The policies are the compile golden
// cases and small generated configs, each also read by the reference
// evaluator. Every call is answered as the reference's session model
// answers it, after every load, attended and unattended; every load adds
// what the reference's adds; and a rebuilt session that preloads the
// script's preload lines answers every tool as the reference's does. An
// agent the policy does not declare has no session, and Decide denies or
// refuses its every call.
func FuzzSession(f *testing.F) {
	cases := append(sessionGolden(f), sessionGenerated(f)...)
	f.Add(uint8(5), "assistant\ncall memory.store_memory\nload skills\ncall add_skill_script\n")
	f.Add(uint8(5), "coder\ncall compute.run_command\ncall run_command\nload ghost\ncall core.load_tools\n")
	f.Add(uint8(1), "composed:x\ncall fs.read_file\n")
	f.Add(uint8(5), "assistant\npreload mcp\npreload documents\ncall add_mcp_server\nload mcp\ncall no_such_tool\n")
	f.Add(uint8(9), "assistant\nload t004\ncall no_such_tool\ncall t004.no_such_tool\npreload t004\n")
	f.Fuzz(func(t *testing.T, which uint8, script string) {
		c := cases[int(which)%len(cases)]
		lines := strings.Split(script, "\n")
		agent := lines[0]
		var preloads []string
		for _, line := range lines[1:] {
			if ts, ok := strings.CutPrefix(line, "preload "); ok {
				preloads = append(preloads, ts)
			}
		}
		s, err := c.p.NewSession(agent)
		rs := c.ref.NewSession(agent)
		if err != nil || rs == nil {
			if (err == nil) != (rs != nil) {
				t.Fatalf("%s: agent %q: the policy's session error %v, the reference has a session: %v", c.name, agent, err, rs != nil)
			}
			for _, line := range lines[1:] {
				if tool, ok := strings.CutPrefix(line, "call "); ok {
					if a := c.p.Decide(agent, tool, policy.Turn{}); a.Decision != policy.Denied && a.Decision != policy.Unavailable && !strings.HasPrefix(agent, "composed:") && agent != "[assistant.tools]" {
						t.Fatalf("an unknown agent %q got %s for %q", agent, a.Decision, tool)
					}
				}
			}
			return
		}
		steps := []string{"a fresh session"}
		for _, line := range lines[1:] {
			switch {
			case strings.HasPrefix(line, "load "):
				ts := strings.TrimPrefix(line, "load ")
				res := s.Load(ts)
				ok, added := rs.Load(ts)
				steps = append(steps, line)
				if res.OK != ok || strings.Join(res.Added, ",") != strings.Join(added, ",") {
					t.Fatalf("%s: agent %q after %s: the load gives ok %v, added %v; the reference ok %v, added %v",
						c.name, agent, strings.Join(steps, ", "), res.OK, res.Added, ok, added)
				}
			case strings.HasPrefix(line, "call "):
				tool := strings.TrimPrefix(line, "call ")
				sessionCall(t, c, agent, steps, s, rs, tool)
			}
		}
		if !sessionCompare(t, c, agent, steps, s, rs, map[string]int{}) {
			return
		}
		ps, _, err := c.p.Preload(agent, preloads)
		if err != nil {
			t.Fatal(err)
		}
		if !sessionCompare(t, c, agent, []string{"preload " + strings.Join(preloads, ", ")}, ps, c.ref.Preload(agent, preloads), map[string]int{}) {
			return
		}
		if got, want := ps.NamesLine() == "", len(c.ref.Preload(agent, preloads).Loadable()) == 0; got != want {
			t.Fatalf("%s: agent %q after preloading %v: the names line is %q", c.name, agent, preloads, ps.NamesLine())
		}
	})
}

// sessionCall compares one call of any text, attended, with the
// reference.
func sessionCall(t *testing.T, c sessionCase, agent string, steps []string, s *policy.Session, rs *reference.Session, tool string) {
	t.Helper()
	want := rs.Answer(tool)
	if got := s.Decide(tool, policy.Turn{}); sessionAnswer[got.Decision] != want {
		t.Fatalf("%s: agent %q after %s: %q is %s (%s), the reference says %s",
			c.name, agent, strings.Join(steps, ", "), tool, got.Decision, got.Reason.Summary, want)
	}
}
