package english

import (
	"fmt"
	"strings"
	"testing"
)

func quote(s string) string { return "'" + s + "'" }

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("n%d", i)
	}
	return out
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		names []string
		last  string
		show  func(string) string
		want  string
	}{
		{nil, "and", nil, ""},
		{[]string{"a"}, "and", quote, "'a'"},
		{[]string{"a", "b"}, "and", quote, "'a' and 'b'"},
		{[]string{"a", "b", "c"}, "or", quote, "'a', 'b' or 'c'"},
		{[]string{"a", "b", "c"}, "", nil, "a, b, c"},
		{names(5), "and", nil, "n0, n1, n2, n3 and n4"},
		{names(6), "and", nil, "n0, n1, n2, n3, n4 and 1 more"},
		{names(3002), "or", quote, "'n0', 'n1', 'n2', 'n3', 'n4' or 2,997 more"},
		{names(7), "", nil, "n0, n1, n2, n3, n4 and 2 more"},
	} {
		if got := Names(c.names, c.last, c.show); got != c.want {
			t.Errorf("Names(%d names, %q) = %q, want %q", len(c.names), c.last, got, c.want)
		}
	}
}

// TestNamesIsBounded: whatever the count, a list of names shows at most
// MaxNames of them, and shows only those to show.
func TestNamesIsBounded(t *testing.T) {
	for _, n := range []int{0, 1, MaxNames, MaxNames + 1, 100, 100_000} {
		shown := 0
		got := Names(names(n), "and", func(s string) string { shown++; return s })
		if shown != min(n, MaxNames) {
			t.Errorf("%d names: show called %d times, want %d", n, shown, min(n, MaxNames))
		}
		if len(got) > 80 {
			t.Errorf("%d names: %d bytes, want a bounded list: %q", n, len(got), got)
		}
		if n > MaxNames && !strings.HasSuffix(got, " more") {
			t.Errorf("%d names: %q does not count the rest", n, got)
		}
	}
}

func TestCounted(t *testing.T) {
	for _, c := range []struct {
		shown []string
		total int
		want  string
	}{
		{[]string{"a", "b"}, 2, "a, b"},
		{[]string{"a", "b"}, 1, "a, b"},
		{[]string{"a", "b"}, 4, "a, b and 2 more"},
		{[]string{"a"}, 1001, "a and 1,000 more"},
	} {
		if got := Counted(c.shown, c.total, "", nil); got != c.want {
			t.Errorf("Counted(%q, %d) = %q, want %q", c.shown, c.total, got, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	words := []string{"human", "json", "junit", "sarif", "github", "markdown"}
	if got, want := Words(words, "or", nil), "human, json, junit, sarif, github or markdown"; got != want {
		t.Errorf("Words = %q, want %q", got, want)
	}
	if got, want := Words(words[:1], "or", nil), "human"; got != want {
		t.Errorf("Words of one = %q, want %q", got, want)
	}
}
