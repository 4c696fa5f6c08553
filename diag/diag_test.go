package diag

import (
	"slices"
	"testing"
)

func TestSortIsStableAndDeduplicates(t *testing.T) {
	at := func(file string, line, col int, rule string) Diagnostic {
		return Diagnostic{Rule: rule, Span: Span{File: file, Start: Position{Line: line, Column: col}, End: Position{Line: line, Column: col + 1}}}
	}
	ds := []Diagnostic{at("b.toml", 1, 1, "x"), at("a.toml", 2, 1, "y"), at("a.toml", 2, 1, "x"), at("a.toml", 1, 9, "z"), at("a.toml", 2, 1, "x")}
	got := Sort(ds)
	want := []Diagnostic{at("a.toml", 1, 9, "z"), at("a.toml", 2, 1, "x"), at("a.toml", 2, 1, "y"), at("b.toml", 1, 1, "x")}
	if !slices.EqualFunc(got, want, func(a, b Diagnostic) bool { return Compare(a, b) == 0 }) {
		t.Errorf("Sort = %v, want %v", got, want)
	}
}

func TestSeverity(t *testing.T) {
	for _, s := range []Severity{Error, Warning, Info} {
		back, err := ParseSeverity(s.String())
		if err != nil || back != s {
			t.Errorf("%v does not round-trip: %v %v", s, back, err)
		}
	}
	if !Error.AtLeast(Warning) || Info.AtLeast(Warning) || !Warning.AtLeast(Warning) {
		t.Error("AtLeast orders error > warning > info")
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity accepts an unknown name")
	}
}
