package migrate_test

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/migrate"
	"github.com/kokua-policy/kokua-policy/lint"
)

// TestFlagPlacement: a marker comment goes on its own line above the line
// it is about, indented as that line is (spaces, a tab, none; CRLF kept);
// above a multi-line string's first line when the key sits on a later line
// of it; at the very start of the file for its first line; and a second
// run adds no second copy. [subagents].concurrent with no [assistant]
// table to move it to is flagged (R20).
func TestFlagPlacement(t *testing.T) {
	const flag = migrate.Marker + " [subagents].concurrent was removed: write it as concurrent_tools in [assistant], then delete this line and this comment"
	for _, c := range []struct {
		name, in string
		indent   string // the marker line's indent
		above    string // the line the markers stand above
	}{
		{"no indent", "[subagents]\nconcurrent = true\n", "", "concurrent = true"},
		{"spaces", "[subagents]\n  concurrent = true\n", "  ", "  concurrent = true"},
		{"tab and space", "[subagents]\n\t concurrent = true\n", "\t ", "\t concurrent = true"},
		{"crlf", "[subagents]\r\n    concurrent = true\r\n", "    ", "    concurrent = true\r"},
		{"first line", "subagents.concurrent = true\n", "", "subagents.concurrent = true"},
		{"key on a string's last line", "  subagents = { note = \"\"\"a\nb\"\"\", concurrent = true }\n", "  ",
			"  subagents = { note = \"\"\"a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := migrateText(t, c.in)
			lines := strings.Split(out, "\n")
			at := -1
			for i, l := range lines {
				if strings.Contains(l, flag) {
					if at >= 0 {
						t.Fatalf("two markers:\n%s", out)
					}
					at = i
				}
			}
			if at < 0 {
				t.Fatalf("no marker:\n%s", out)
			}
			if want := c.indent + flag + strings.TrimPrefix(c.above, strings.TrimRight(c.above, "\r")); lines[at] != want {
				t.Errorf("marker line = %q, want %q", lines[at], want)
			}
			next := at + 1
			for next < len(lines) && strings.HasPrefix(lines[next], c.indent+migrate.Marker) {
				next++
			}
			if next == len(lines) || lines[next] != c.above {
				t.Errorf("the markers stand above the wrong line:\n%s", out)
			}
			if again := migrateText(t, out); strings.Count(again, flag) != 1 {
				t.Errorf("a second run gives %d markers:\n%s", strings.Count(again, flag), again)
			}
		})
	}
}

func migrateText(t *testing.T, in string) string {
	t.Helper()
	res, err := migrate.Migrate(lint.Source{Name: "config.toml", Data: []byte(in)}, lint.DefaultManifest(), migrate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return string(res.Output)
}
