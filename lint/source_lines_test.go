package lint

import (
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/lineindex"
)

// TestSourceLines: the human format quotes line n of the finding's file
// from an index built once per file, cleaned for the terminal; a file it
// does not hold, or a line the file does not have, quotes nothing.
func TestSourceLines(t *testing.T) {
	q := sourceLines{
		sources: map[string][]byte{
			"a.toml": []byte("first\r\n\tsecond \x1b[31m\n\nlast"),
			"b.toml": []byte(""),
		},
		indexes: map[string]*lineindex.Index{},
	}
	tests := []struct {
		file string
		line int
		want string
		ok   bool
	}{
		{"a.toml", 1, "first", true},
		{"a.toml", 2, " second ?[31m", true},
		{"a.toml", 3, "", true},
		{"a.toml", 4, "last", true},
		{"a.toml", 5, "", false},
		{"a.toml", 0, "", false},
		{"b.toml", 1, "", true},
		{"c.toml", 1, "", false},
	}
	for _, tt := range tests {
		if got, ok := q.line(tt.file, tt.line); got != tt.want || ok != tt.ok {
			t.Errorf("line(%s, %d) = %q, %v; want %q, %v", tt.file, tt.line, got, ok, tt.want, tt.ok)
		}
	}
	if len(q.indexes) != 2 {
		t.Errorf("%d files indexed, want one index for each file held that was asked for", len(q.indexes))
	}
}
