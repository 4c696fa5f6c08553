package reach_test

import (
	"fmt"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/policy"
)

// graphOf compiles a config of the default install into its graph.
func graphOf(t *testing.T, config []byte) *reach.Graph {
	t.Helper()
	doc, ds, err := compile.Compile(config, nil, compile.Options{})
	if err != nil {
		t.Fatalf("%v %v", err, ds)
	}
	data, err := policy.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Parse("p.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return reach.New(p)
}

// TestRiskSearchesDoNotGrowWithDepth (issue 37): down a chain of agents,
// whether content is read at its top or by every agent of it, one view
// is searched for the agent that holds the dangerous tool and one for the
// chain's top, whatever the depth: every other agent passes work on, and
// its view is the next one's and itself, found without a search; in a
// diamond, only the views that read untrusted content are searched. The
// views' paths are held to the search they replaced by
// diff.TestRiskSearchAgreesWithReference.
func TestRiskSearchesDoNotGrowWithDepth(t *testing.T) {
	for _, c := range []struct {
		name   string
		config func(n int) []byte
		most   int
	}{
		{"chain read at its top", func(n int) []byte { return gen.RiskChain(n, false) }, 3},
		{"chain read everywhere", func(n int) []byte { return gen.RiskChain(n, true) }, 3},
		{"diamond", func(n int) []byte { return gen.RiskDiamond(n / 2) }, 3},
	} {
		for _, n := range []int{20, 200} {
			t.Run(fmt.Sprintf("%s of %d", c.name, n), func(t *testing.T) {
				searched, views := reach.RiskSearches(graphOf(t, c.config(n)))
				if searched > c.most || views < n {
					t.Errorf("%d of %d views searched, want at most %d", searched, views, c.most)
				}
			})
		}
	}
}
