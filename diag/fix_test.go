package diag

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

func fixOf(edits ...Edit) Fix { return Fix{Title: "t", Edits: edits} }

func TestApply(t *testing.T) {
	src := []byte("0123456789")
	for _, c := range []struct {
		name  string
		fixes []Fix
		want  string
		made  []int
	}{
		{"none", nil, "0123456789", nil},
		{"replace", []Fix{fixOf(Edit{2, 4, "ab"})}, "01ab456789", []int{0}},
		{"two in one fix, given out of order", []Fix{fixOf(Edit{8, 9, "x"}, Edit{0, 1, "y"})}, "y1234567x9", []int{0}},
		{"an overlapping fix is left", []Fix{fixOf(Edit{2, 5, "a"}), fixOf(Edit{4, 6, "b"})}, "01a56789", []int{0}},
		{"touching ranges both made", []Fix{fixOf(Edit{2, 4, "a"}), fixOf(Edit{4, 6, "b"})}, "01ab6789", []int{0, 1}},
		{"insertions at one point in fix order", []Fix{fixOf(Edit{3, 3, "a"}), fixOf(Edit{3, 3, "b"})}, "012ab3456789", []int{0, 1}},
		{"insertion at a range's ends", []Fix{fixOf(Edit{2, 4, "R"}), fixOf(Edit{2, 2, "<"}), fixOf(Edit{4, 4, ">"})}, "01<R>456789", []int{0, 1, 2}},
		{"insertion inside a range is left", []Fix{fixOf(Edit{2, 6, "R"}), fixOf(Edit{4, 4, "x"})}, "01R6789", []int{0}},
		{"a range around an insertion made before is left", []Fix{fixOf(Edit{4, 4, "x"}), fixOf(Edit{2, 6, "R"})}, "0123x456789", []int{0}},
		{"an overlapping fix earlier in the text is left", []Fix{fixOf(Edit{4, 6, "b"}), fixOf(Edit{2, 5, "a"})}, "0123b6789", []int{0}},
		{"a fix between two made is checked against both", []Fix{fixOf(Edit{0, 2, "a"}), fixOf(Edit{6, 8, "c"}), fixOf(Edit{3, 7, "b"}), fixOf(Edit{2, 3, "d"})}, "ad345c89", []int{0, 1, 3}},
		{"a fix whose edits overlap each other is left", []Fix{fixOf(Edit{1, 3, "a"}, Edit{2, 4, "b"}), fixOf(Edit{9, 10, "z"})}, "012345678z", []int{1}},
		{"outside the source is left", []Fix{fixOf(Edit{9, 11, "a"}), fixOf(Edit{-1, 0, "b"}), fixOf(Edit{5, 4, "c"})}, "0123456789", nil},
		{"a fix without edits is not made", []Fix{{Title: "empty"}}, "0123456789", nil},
		{"delete all", []Fix{fixOf(Edit{0, 10, ""})}, "", []int{0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, made := Apply(src, c.fixes)
			if string(got) != c.want || !slices.Equal(made, c.made) {
				t.Errorf("Apply = %q, made %v; want %q, made %v", got, made, c.want, c.made)
			}
			if string(src) != "0123456789" {
				t.Fatalf("Apply changed its source: %q", src)
			}
		})
	}
}

// TestApplyAgreesWithOneAtATime: edits that do not overlap, made at once
// by Apply, give what making them one at a time from the last to the
// first gives.
func TestApplyAgreesWithOneAtATime(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		src := make([]byte, r.IntN(40))
		for i := range src {
			src[i] = byte('a' + r.IntN(26))
		}
		// Cut points, sorted: consecutive pairs are disjoint ranges.
		cuts := make([]int, 2*r.IntN(6))
		for i := range cuts {
			cuts[i] = r.IntN(len(src) + 1)
		}
		sort.Ints(cuts)
		var edits []Edit
		for i := 0; i < len(cuts); i += 2 {
			if i > 0 && cuts[i] == cuts[i-1] && cuts[i] == cuts[i+1] {
				continue // an insertion where the range before it ends and also begins: the order is ambiguous
			}
			edits = append(edits, Edit{cuts[i], cuts[i+1], string(rune('A' + i))})
		}
		fixes := make([]Fix, len(edits))
		for i, e := range edits {
			fixes[i] = fixOf(e)
		}
		r.Shuffle(len(fixes), func(i, j int) { fixes[i], fixes[j] = fixes[j], fixes[i] })
		got, made := Apply(src, fixes)
		want := slices.Clone(src)
		for i := len(edits) - 1; i >= 0; i-- {
			e := edits[i]
			want = slices.Concat(want[:e.Start], []byte(e.New), want[e.End:])
		}
		if string(got) != string(want) || len(made) != len(fixes) {
			t.Fatalf("src %q, edits %v: Apply = %q (made %d of %d), one at a time %q", src, edits, got, len(made), len(fixes), want)
		}
	}
}

// TestApplyAgreesWithBruteForce: on random fixes that may overlap, Apply
// makes exactly the fixes a plain check of each against every fix made
// before it makes, and the same text.
func TestApplyAgreesWithBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 3000 {
		src := make([]byte, 1+r.IntN(30))
		fixes := make([]Fix, r.IntN(8))
		if round%10 == 0 { // many fixes, many ranks: the tree's every level
			src, fixes = make([]byte, 1+r.IntN(200)), make([]Fix, r.IntN(70))
		}
		for i := range src {
			src[i] = byte('a' + r.IntN(26))
		}
		for i := range fixes {
			for range 1 + r.IntN(2) {
				a, b := r.IntN(len(src)+1), r.IntN(len(src)+1)
				if r.IntN(3) == 0 {
					b = a
				}
				fixes[i].Edits = append(fixes[i].Edits, Edit{min(a, b), max(a, b), string(rune('A' + i))})
			}
		}
		// Two edits clash when they share a byte, or one inserts strictly
		// inside the other; written out here, apart from Apply's clash.
		overlap := func(a, b Edit) bool {
			inside := func(p int, e Edit) bool { return e.Start < p && p < e.End }
			return max(a.Start, b.Start) < min(a.End, b.End) ||
				a.Start == a.End && inside(a.Start, b) || b.Start == b.End && inside(b.Start, a)
		}
		var taken []Edit
		var want []int
		for i, f := range fixes {
			ok := true
			for j, e := range f.Edits {
				for _, o := range append(slices.Clone(taken), f.Edits[:j]...) {
					ok = ok && !overlap(e, o)
				}
			}
			if ok {
				taken = append(taken, f.Edits...)
				want = append(want, i)
			}
		}
		got, made := Apply(src, fixes)
		if !slices.Equal(made, want) {
			t.Fatalf("src %q, fixes %v: Apply made %v, brute force %v", src, fixes, made, want)
		}
		if len(made) == 0 && string(got) != string(src) {
			t.Fatalf("no fix made, but the text changed: %q", got)
		}
	}
}

// BenchmarkApply makes n one-edit fixes, one per line of a file of n
// lines, given in reverse order (the worst for keeping them sorted):
// time per fix should stay flat as n grows tenfold.
func BenchmarkApply(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			src := []byte(strings.Repeat("confirm = [\"x\"]\n", n))
			fixes := make([]Fix, n)
			for i := range fixes {
				at := (n-1-i)*16 + 12
				fixes[i] = fixOf(Edit{at, at + 1, "y"})
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, made := Apply(src, fixes); len(made) != n {
					b.Fatalf("made %d of %d", len(made), n)
				}
			}
		})
	}
}

// TestIsolated states when two fixes must not be made in one round: they
// touch a table in common, and one of them is computed from it (not
// local). Two local rewrites of one table, or fixes of different tables,
// share a round.
func TestIsolated(t *testing.T) {
	pair := []string{"[agents.coder.tools]"}
	for _, c := range []struct {
		name string
		f, g Fix
		want bool
	}{
		{"two computed fixes of one table", Fix{Touches: pair}, Fix{Touches: pair}, true},
		{"a computed fix and a rewrite of its table", Fix{Touches: pair}, Fix{Touches: pair, Local: true}, true},
		{"a rewrite and a computed fix of its table", Fix{Touches: pair, Local: true}, Fix{Touches: pair}, true},
		{"two rewrites of one table", Fix{Touches: pair, Local: true}, Fix{Touches: pair, Local: true}, false},
		{"a table in common among others", Fix{Touches: []string{"[a]", "[assistant.tools]"}}, Fix{Touches: []string{"[assistant.tools]", "[b]"}}, true},
		{"different tables", Fix{Touches: []string{"[a]"}}, Fix{Touches: []string{"[b]"}}, false},
		{"no table", Fix{}, Fix{Touches: pair}, false},
	} {
		if got := c.f.Isolated(c.g); got != c.want {
			t.Errorf("%s: Isolated = %v, want %v", c.name, got, c.want)
		}
		if got := c.g.Isolated(c.f); got != c.want {
			t.Errorf("%s, the other way: Isolated = %v, want %v", c.name, got, c.want)
		}
	}
}
