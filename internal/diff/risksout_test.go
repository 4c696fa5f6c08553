package diff_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
)

// riskSides are the sides the risk output tests read: every config of
// testdata/risks, chains of 8, 10 and 12 agents from the web to compute
// (their first agent's path keeps its nine hops, or every hop but one,
// or three), and a config with no risk path.
func riskSides(t *testing.T) []*diff.Side {
	t.Helper()
	m := lint.DefaultManifest()
	var out []*diff.Side
	for _, dir := range golden.Cases(t, "risks") {
		out = append(out, side(t, filepath.Join(dir, "config.toml"), m))
	}
	for _, n := range []int{8, 10, 12} {
		out = append(out, loadDefault(t, fmt.Sprintf("chain%d.toml", n), gen.RiskChain(n, false)))
	}
	return append(out, loadDefault(t, "calm.toml", []byte("[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant.tools]\navailable = [\"time\"]\n")))
}

// TestRisksHumanLayout holds kokua-compile risks' human report to its
// layout, apart from the goldens: the headline with the grade counts;
// per agent, the agents it sets running, the first reach.MaxRuns named
// and "and N more" only when there are more; "no risk path" exactly for
// an agent without one; per path, its grade, title and level, then its
// hops, with one line counting those left out ("1 more hop", "N more
// hops") after the first reach.HeadHops, only when some are, and the
// way out of a path through composed workers; an agent startup does not
// build says so first.
func TestRisksHumanLayout(t *testing.T) {
	omitted := map[int]int{}
	for _, s := range riskSides(t) {
		r := diff.Risks(s)
		var want strings.Builder
		fmt.Fprintf(&want, "%s: risk paths: %s\n", s.Name, r.Grades)
		for _, a := range r.Agents {
			runs := strings.Join(a.Runs, ", ")
			if a.RunsCount > len(a.Runs) {
				runs += " and " + printable.Thousands(a.RunsCount-len(a.Runs)) + " more"
			}
			unreached := ""
			if !a.Reachable {
				unreached = "not reachable: none of this runs until a change makes it reachable; "
			}
			fmt.Fprintf(&want, "\nagent %s (%ssets running: %s)\n", diff.AgentTitle(a.Agent), unreached, runs)
			if len(a.Paths) == 0 {
				want.WriteString("  no risk path\n")
			}
			for _, p := range a.Paths {
				fmt.Fprintf(&want, "  %s: %s; %s\n", p.Grade, diff.PathTitle(p), p.Level.Phrase())
				for i, h := range p.Hops {
					if i == reach.HeadHops && p.HopCount > len(p.Hops) {
						n := p.HopCount - len(p.Hops)
						word := "hops"
						if n == 1 {
							word = "hop"
						}
						fmt.Fprintf(&want, "    ... %d more %s ...\n", n, word)
						omitted[n]++
					}
					fmt.Fprintf(&want, "    %s (%s)\n", diff.HopText(h), h.At)
				}
				if help := p.ComposedHelp(); help != "" {
					fmt.Fprintf(&want, "    help: %s\n", help)
				}
			}
		}
		var got strings.Builder
		if err := diff.WriteRisks(&got, "human", r); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: the human risks report is\n%s\nwant\n%s", s.Name, got.String(), want.String())
		}
	}
	if omitted[1] == 0 || omitted[3] == 0 {
		t.Errorf("paths leaving out hops, by how many: %v; want some leaving out one and three", omitted)
	}
}

// TestRisksMarkdownSaysNone: the Markdown risks report's headline reads
// "None." for a side without risk paths and counts the grades otherwise,
// and "No risk path." stands under exactly the agents without one.
func TestRisksMarkdownSaysNone(t *testing.T) {
	for _, s := range riskSides(t) {
		r := diff.Risks(s)
		var b strings.Builder
		if err := diff.WriteRisks(&b, "markdown", r); err != nil {
			t.Fatal(err)
		}
		headline := "None."
		empty := 0
		for _, a := range r.Agents {
			if len(a.Paths) == 0 {
				empty++
			} else {
				headline = r.Grades.String() + "."
			}
		}
		if !strings.HasPrefix(b.String(), fmt.Sprintf("### Risk paths: `%s`\n\n%s\n", s.Name, headline)) || strings.Count(b.String(), "\nNo risk path.\n") != empty {
			t.Errorf("%s: want the headline %q and %d agents without a path:\n%s", s.Name, headline, empty, b.String())
		}
	}
}

// TestPlacedPathsKeepTheirClasses: a placed path keeps the classes of the
// path it places, and every gated hop is placed at its gating entry's
// list, every other read or call at the toolset in the agent's available
// (the capabilities item that builds them, for composed workers).
func TestPlacedPathsKeepTheirClasses(t *testing.T) {
	hops := 0
	for _, s := range riskSides(t) {
		list := s.Graph.RiskList()
		r := diff.Risks(s)
		for i, a := range r.Agents {
			for j, p := range a.Paths {
				src := list[i].Paths[j]
				if !slices.Equal(p.Classes, src.Classes) && len(src.Classes)+len(p.Classes) > 0 {
					t.Errorf("%s, %s: classes %v, the path's %v", s.Name, a.Agent, p.Classes, src.Classes)
				}
				for _, h := range p.Hops {
					if h.Kind != reach.HopReads && h.Kind != reach.HopCalls {
						continue
					}
					want := "].available"
					switch {
					case h.Answer.Entry != "":
						want = h.Answer.Key
					case h.Agent == reach.ComposedNode:
						// The capabilities item that builds the workers.
						want = "].available"
					case h.Answer.Toolset == kokua.Core:
						continue
					}
					if !strings.HasSuffix(h.At.Key, want) {
						t.Errorf("%s, %s: the hop %q is placed at %v, want %q", s.Name, a.Agent, diff.HopText(h), h.At, want)
					}
					hops++
				}
			}
		}
	}
	if hops < 20 {
		t.Errorf("only %d hops checked", hops)
	}
}
