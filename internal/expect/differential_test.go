package expect_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/expect"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// claim is a generated [[expect]] table, kept as its parts so that the
// brute force reads it without the parser.
type claim struct {
	agent, tool string
	decision    []string
	unattended  bool
	loaded      []string // nil: no loaded key
	reach       bool
}

func (c claim) toml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[[expect]]\nagent = %q\ntool = %q\ndecision = [", c.agent, c.tool)
	for i, d := range c.decision {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", d)
	}
	fmt.Fprintf(&b, "]\nunattended = %v\nreach = %v\n", c.unattended, c.reach)
	if c.loaded != nil {
		b.WriteString("loaded = [")
		for i, l := range c.loaded {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q", l)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestDifferential (issue 22): on generated configs, each generated claim's
// verdict, and its count of failing pairs (of which it keeps the first
// expect.Shown, issue 37), is what a brute force finds by
// asking the runtime (a fresh policy.Session per pair) about every
// (agent, tool) pair of the policy, with the claim's session state, the
// closure walked over delegates_to and capabilities by hand, and the
// groups spelled out here.
func TestDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 2026))
	for _, size := range []struct{ agents, toolsets int }{{3, 6}, {7, 14}, {16, 30}} {
		data := gen.Config(size.agents, size.toolsets)
		m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(size.toolsets)})
		side, _, err := diff.Load(lint.Source{Name: "config.toml", Data: data}, m, nil)
		if err != nil || side == nil {
			t.Fatalf("%v: the generated config does not compile: %v", size, err)
		}
		d := side.Policy.Document()
		var agents []string
		for name := range d.Agents {
			agents = append(agents, name)
		}
		slices.Sort(agents)
		tools := allTools(d)
		var claims []claim
		held := 0
		for range 150 {
			c := randomClaim(r, d, agents, tools)
			claims = append(claims, c)
		}
		var text strings.Builder
		for _, c := range claims {
			text.WriteString(c.toml())
		}
		f, ds := expect.Parse("kokua.test.toml", []byte(text.String()))
		if len(ds) > 0 {
			t.Fatalf("%v: %v", size, ds)
		}
		results := expect.Run(side, f)
		for i, c := range claims {
			want, failing, pairs := brute(side.Policy, d, agents, tools, c)
			res := results[i]
			// The result keeps the first expect.Shown failing pairs, and
			// counts them all.
			if len(res.Problems) > 0 || res.Passed != want || res.Failing != failing || len(res.Failures) != min(failing, expect.Shown) || res.Pairs < pairs {
				t.Errorf("%v: %s: passed %v with %d failing (%d kept) of %d pairs (problems %v); the brute force: %v with %d failing of %d distinct pairs",
					size, c.toml(), res.Passed, res.Failing, len(res.Failures), res.Pairs, res.Problems, want, failing, pairs)
			}
			if want {
				held++
			}
		}
		// The generated claims are worth their name only if both verdicts
		// come up.
		if held == 0 || held == len(claims) {
			t.Errorf("%v: %d of %d generated claims hold", size, held, len(claims))
		}
	}
}

// allTools are every tool of a policy, qualified, core ones included.
func allTools(d *policy.Document) []string {
	var out []string
	for _, c := range d.CoreTools {
		out = append(out, kokua.Core+"."+c)
	}
	for name, ts := range d.Toolsets {
		for _, t := range ts.Tools {
			out = append(out, name+"."+t.Name)
		}
	}
	slices.Sort(out)
	return out
}

var words = []string{"run", "confirm", "review", "not_loaded", "unavailable", "denied", "asks", "not run"}

func randomClaim(r *rand.Rand, d *policy.Document, agents, tools []string) claim {
	var c claim
	switch n := r.IntN(10); {
	case n == 0:
		c.agent = "*"
	case n == 1 && d.Composed.Possible:
		c.agent = "composed"
	default:
		c.agent = agents[r.IntN(len(agents))]
	}
	q := tools[r.IntN(len(tools))]
	ts, _, _ := strings.Cut(q, ".")
	switch r.IntN(5) {
	case 0:
		c.tool = "*"
	case 1:
		c.tool = ts
	case 2:
		c.tool = ts + ".*"
	default:
		c.tool = q
	}
	for _, i := range r.Perm(len(words))[:1+r.IntN(3)] {
		c.decision = append(c.decision, words[i])
	}
	c.unattended = r.IntN(3) == 0
	c.reach = r.IntN(3) == 0
	if c.agent != "composed" && r.IntN(3) == 0 {
		c.loaded = []string{}
		for _, name := range d.TrustOrder {
			if r.IntN(4) == 0 {
				c.loaded = append(c.loaded, name)
			}
		}
	}
	return c
}

// brute evaluates a claim the long way: whether it holds, how many pairs
// fail, and how many distinct pairs it selects.
func brute(p *policy.Policy, d *policy.Document, agents, tools []string, c claim) (bool, int, int) {
	var starts []string
	switch c.agent {
	case "*":
		starts = agents
	case "composed":
		starts = []string{"composed"}
	default:
		starts = []string{c.agent}
	}
	var subjects []string
	if c.reach {
		for _, s := range starts {
			queue := []string{s}
			for len(queue) > 0 {
				a := queue[0]
				queue = queue[1:]
				if slices.Contains(subjects, a) {
					continue
				}
				subjects = append(subjects, a)
				if a == "composed" {
					continue
				}
				queue = append(queue, d.Agents[a].DelegatesTo...)
				if d.Composed.Possible && slices.Contains(d.Agents[a].Available.Expanded, kokua.Capabilities) {
					queue = append(queue, "composed")
				}
			}
		}
	} else {
		subjects = starts
	}
	wanted := map[policy.Decision]bool{}
	for _, w := range c.decision {
		switch w {
		case "asks":
			wanted[policy.Confirm], wanted[policy.Review] = true, true
		case "not run":
			for _, x := range []policy.Decision{policy.Confirm, policy.Review, policy.NotLoaded, policy.Unavailable, policy.Denied} {
				wanted[x] = true
			}
		default:
			wanted[policy.Decision(w)] = true
		}
	}
	turn := policy.Turn{Unattended: c.unattended}
	failing, pairs := 0, 0
	for _, a := range subjects {
		for _, q := range tools {
			ts, _, _ := strings.Cut(q, ".")
			if c.tool != "*" && c.tool != ts && c.tool != ts+".*" && c.tool != q {
				continue
			}
			pairs++
			var got policy.Decision
			if a == "composed" {
				got = p.Decide(d.Composed.LabelPrefix+"brute", q, turn).Decision
			} else {
				s, err := p.NewSession(a)
				if err != nil {
					panic(err)
				}
				switch {
				case c.loaded != nil:
					for _, l := range c.loaded {
						s.Load(l)
					}
				case slices.Contains(d.Agents[a].Deferred, ts):
					s.Load(ts)
				}
				got = s.Decide(q, turn).Decision
			}
			if !wanted[got] {
				failing++
			}
		}
	}
	return failing == 0, failing, pairs
}
