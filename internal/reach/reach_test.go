package reach_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// TestLevelOrder: the one ordering of answers, least permissive first.
func TestLevelOrder(t *testing.T) {
	order := []reach.Level{reach.Unavailable, reach.Asks, reach.Reviewer, reach.Runs}
	names := []string{"unavailable", "asks", "reviewer", "runs"}
	for i, l := range order {
		if l.String() != names[i] {
			t.Errorf("level %d is %q, want %q", i, l, names[i])
		}
		if i > 0 && !(order[i-1] < l) {
			t.Errorf("%v is not below %v", order[i-1], l)
		}
	}
}

// TestEscapes: a name that would end a DOT string or a Mermaid label, or
// start markup, stays text.
func TestEscapes(t *testing.T) {
	name := "a\"b\\c<d>|e\nf"
	if got := reach.DOTString(name); got != `a\"b\\c<d>|e\nf` {
		t.Errorf("DOTString = %s", got)
	}
	got := reach.MermaidText(name)
	for _, bad := range []string{`"`, "<", ">", "|", "\n"} {
		if strings.Contains(got, bad) {
			t.Errorf("MermaidText(%q) = %q still holds %q", name, got, bad)
		}
	}
}

// TestPathsFollowClosure: Paths reaches exactly the agents Closure lists,
// in its order, each path starting at the agent and following edges.
func TestPathsFollowClosure(t *testing.T) {
	p := shipped(t)
	g := reach.New(p)
	for _, a := range g.Agents {
		order, paths := g.Paths(a.Name)
		if !slices.Equal(order, g.Closure(a.Name)) {
			t.Errorf("%s: Paths order %v, Closure %v", a.Name, order, g.Closure(a.Name))
		}
		for _, to := range order {
			path := paths[to]
			if path[0] != a.Name || path[len(path)-1] != to {
				t.Errorf("%s -> %s: path %v", a.Name, to, path)
			}
			for i := 1; i < len(path); i++ {
				if !slices.ContainsFunc(g.Out(path[i-1]), func(e reach.Edge) bool { return e.To == path[i] }) {
					t.Errorf("%s -> %s: path %v has no edge %s -> %s", a.Name, to, path, path[i-1], path[i])
				}
			}
		}
	}
	if order, paths := g.Paths("nobody"); order != nil || paths != nil {
		t.Errorf("Paths of an unknown agent = %v, %v", order, paths)
	}
	_, paths := g.Paths("assistant")
	if !slices.Equal(paths["coder"], []string{"assistant", "coder"}) || !slices.Equal(paths[reach.ComposedNode], []string{"assistant", reach.ComposedNode}) {
		t.Errorf("assistant's paths: %v", paths)
	}
}

// shipped is the shipped config's policy.
func shipped(t *testing.T) *policy.Policy {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Parse("policy.json", policytest.Compile(t, string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
