package diff_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// TestComposedHopsCiteCapabilities (issue 38): a risk path's hop taken by
// composed workers cites the capabilities item that makes them, not the
// install's toolsets, and a path ending at a composed worker's ungated
// call says the two ways out Kokua allows in its help line.
func TestComposedHopsCiteCapabilities(t *testing.T) {
	const config = `[assistant]
agent = "lead"

[assistant.tools]
confirm = []
review = ["compute.run_command"]

[agents.lead]
delegates_to = ["coder"]

[agents.lead.tools]
available = ["memory", "web", "time"]

[agents.coder.tools]
available = ["fs", "compute", "time", "capabilities"]
`
	s := loadDefault(t, "config.toml", []byte(config))
	r := diff.Risks(s)
	composed, helps := 0, 0
	for _, a := range r.Agents {
		for _, p := range a.Paths {
			for _, h := range p.Hops {
				if h.Agent != reach.ComposedNode || h.Kind == reach.HopReturns || h.Answer.Entry != "" {
					continue
				}
				composed++
				if want := (diff.Place{File: "config.toml", Line: 15, Column: 39, Key: "[agents.coder.tools].available"}); h.At != want {
					t.Errorf("agent %s: %s hop of composed workers cites %v, want the capabilities item %v", a.Agent, h.Kind, h.At, want)
				}
			}
			last := p.Hops[len(p.Hops)-1]
			help := p.ComposedHelp()
			if ends := last.Agent == reach.ComposedNode && last.Kind == reach.HopCalls && last.Answer.Entry == ""; ends != (help != "") {
				t.Errorf("agent %s: path to %s ends at composed workers' ungated call %v, help %q", a.Agent, p.Toolset, ends, help)
			}
			if help != "" {
				helps++
				for _, way := range []string{"drop capabilities", "declare " + p.Toolset + " on an agent and gate its tools in [assistant.tools]"} {
					if !strings.Contains(help, way) {
						t.Errorf("help %q does not say %q", help, way)
					}
				}
			}
		}
	}
	if composed == 0 || helps == 0 {
		t.Fatalf("%d composed hops, %d helps: the config should give both", composed, helps)
	}
	var out bytes.Buffer
	if err := diff.WriteRisks(&out, "human", r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n    help: composed workers hold every registered toolset"); n != helps {
		t.Errorf("the human report has %d help lines, want %d", n, helps)
	}
	if strings.Contains(out.String(), "<default install> toolsets") {
		t.Errorf("a hop still cites the install:\n%s", out.String())
	}
}
