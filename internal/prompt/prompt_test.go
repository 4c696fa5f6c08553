package prompt

import "testing"

func TestNamesLine(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"web"}, "Also available, load before use: web."},
		{[]string{"web", "mcp", "compute"}, "Also available, load before use: web, mcp, compute."},
	} {
		if got := NamesLine(c.in); got != c.want {
			t.Errorf("NamesLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
