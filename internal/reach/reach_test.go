package reach_test

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/reach"
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
