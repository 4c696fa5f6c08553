package policy_test

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/policy"
)

// FuzzSession asks the golden policies arbitrary questions: the fuzzer's
// text is a script of lines "agent tool", "load toolset", "preload
// toolset" and "call tool". Nothing may panic, and a conversation that
// has loaded nothing answers every call as Policy.Decide does: the
// precomputed answers and the session's own path agree.
func FuzzSession(f *testing.F) {
	bases := goldenPolicies(f)
	var policies []*policy.Policy
	for _, data := range bases {
		p, err := policy.Parse("golden", data)
		if err != nil {
			f.Fatal(err)
		}
		policies = append(policies, p)
	}
	f.Add(uint8(0), "assistant\ncall memory.store_memory\nload skills\ncall add_skill_script\n")
	f.Add(uint8(5), "coder\ncall compute.run_command\ncall run_command\nload ghost\ncall core.load_tools\n")
	f.Add(uint8(1), "composed:x\ncall fs.read_file\n")
	f.Add(uint8(2), "assistant\npreload mcp\npreload documents\ncall add_mcp_server\n")
	f.Fuzz(func(t *testing.T, which uint8, script string) {
		p := policies[int(which)%len(policies)]
		lines := strings.Split(script, "\n")
		agent := lines[0]
		var preloads []string
		for _, line := range lines[1:] {
			if ts, ok := strings.CutPrefix(line, "preload "); ok {
				preloads = append(preloads, ts)
			}
		}
		s, err := p.NewSession(agent)
		if err != nil {
			for _, line := range lines[1:] {
				if tool, ok := strings.CutPrefix(line, "call "); ok {
					if a := p.Decide(agent, tool, policy.Turn{}); a.Decision != policy.Denied && a.Decision != policy.Unavailable && !strings.HasPrefix(agent, "composed:") && agent != "[assistant.tools]" {
						t.Fatalf("an unknown agent %q got %s for %q", agent, a.Decision, tool)
					}
				}
			}
			return
		}
		fresh := true
		for _, line := range lines[1:] {
			switch {
			case strings.HasPrefix(line, "load "):
				_ = s.Load(strings.TrimPrefix(line, "load "))
				fresh = false
			case strings.HasPrefix(line, "call "):
				tool := strings.TrimPrefix(line, "call ")
				for _, turn := range []policy.Turn{{}, {Unattended: true}} {
					got := s.Decide(tool, turn)
					if want := p.Decide(agent, tool, turn); fresh && got != want {
						t.Fatalf("%s calls %q in a fresh session: the session says %+v, Decide %+v", agent, tool, got, want)
					}
				}
			}
		}
		_ = s.Tools()
		_ = s.NamesLine()
		ps, _, err := p.Preload(agent, preloads)
		if err != nil {
			t.Fatal(err)
		}
		_ = ps.Tools()
		_ = ps.NamesLine()
	})
}
