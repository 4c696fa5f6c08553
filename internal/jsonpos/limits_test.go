package jsonpos

import (
	"errors"
	"strings"
	"testing"
)

// TestLimits: a document past MaxDepth or the value limit is refused with
// a LimitError at the value that passes it; one at the limit is read.
func TestLimits(t *testing.T) {
	if valueLimit != MaxValues {
		t.Fatalf("the value limit is %d, not MaxValues", valueLimit)
	}
	const limit = 1000
	defer func(n int) { valueLimit = n }(valueLimit)
	valueLimit = limit
	tests := []struct {
		name   string
		doc    string
		offset int
		msg    string
	}{
		{"one element too many", "[" + strings.Repeat("1,", limit-1) + "1]", 1 + 2*(limit-1), "more than 1000 values"},
		{"one member too many", `{"a":[` + strings.Repeat("1,", limit-3) + `1],"b":2}`, 6 + 2*(limit-2) + 5, "more than 1000 values"},
		{"nesting one too deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), MaxDepth, "nest more than 10000 deep"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.doc))
		var le *LimitError
		if !errors.As(err, &le) || le.Offset != tt.offset || !strings.Contains(le.Msg, tt.msg) {
			t.Errorf("%s: got %v (%#v), want a limit error at %d saying %q", tt.name, err, le, tt.offset, tt.msg)
		}
	}
	for _, doc := range []string{
		"[" + strings.Repeat("1,", limit-2) + "1]",
		strings.Repeat("[", limit-1) + strings.Repeat("]", limit-1),
	} {
		if _, err := Parse([]byte(doc)); err != nil {
			t.Errorf("%.30q... at the limit was refused: %v", doc, err)
		}
	}
}

// TestPositions checks the byte ranges of values and member names.
func TestPositions(t *testing.T) {
	doc := `{"a": [1, "x\n"], "b": {"c": null}}`
	v, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	a := v.Get("a")
	if got := doc[a.From:a.To]; got != `[1, "x\n"]` {
		t.Errorf("a spans %q", got)
	}
	if got := doc[a.Items[1].From:a.Items[1].To]; got != `"x\n"` || a.Items[1].Str != "x\n" {
		t.Errorf("a[1] spans %q, reads %q", got, a.Items[1].Str)
	}
	m := v.Members[1]
	if got := doc[m.From:m.To]; got != `"b"` || v.Get("b").Get("c").Kind != Null {
		t.Errorf("member b's name spans %q", got)
	}
}
