package textdiff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/kokua-policy/kokua-policy/diag"
)

// The package stands in for go-udiff's root package (see its doc): these
// tests hold it to that package's results on generated texts, so that the
// diffs kokua-lint --diff and migrate print are the ones they printed.

// texts makes pairs of texts from a few lines, so that lines repeat and
// the common subsequences are many: the second of each pair is the first
// with lines dropped, added, changed and moved, and sometimes without its
// last line feed or with a character of more than one byte.
func texts(seed uint64, n int) [][2]string {
	r := rand.New(rand.NewPCG(seed, 1))
	pool := []string{"", "a", "b", "c", "[agents.x]", "available = [\"fs\"]", "# é", "confirm = []", "x = 1", "\t", "ü ∀"}
	text := func(lines []string, feed bool) string {
		s := strings.Join(lines, "\n")
		if feed && len(lines) > 0 {
			s += "\n"
		}
		return s
	}
	var out [][2]string
	for range n {
		var a []string
		for range r.IntN(40) {
			a = append(a, pool[r.IntN(len(pool))])
		}
		b := slices.Clone(a)
		for range r.IntN(6) {
			switch i := r.IntN(len(b) + 1); r.IntN(4) {
			case 0:
				b = slices.Insert(b, i, pool[r.IntN(len(pool))])
			case 1:
				if i < len(b) {
					b = slices.Delete(b, i, i+1)
				}
			case 2:
				if i < len(b) {
					b[i] += pool[r.IntN(len(pool))]
				}
			case 3:
				if i < len(b) && len(b) > 1 {
					l := b[i]
					b = slices.Delete(b, i, i+1)
					b = slices.Insert(b, r.IntN(len(b)+1), l)
				}
			}
		}
		out = append(out, [2]string{text(a, r.IntN(5) > 0), text(b, r.IntN(5) > 0)})
	}
	return out
}

func TestUnifiedIsUdiffs(t *testing.T) {
	for i, p := range texts(1, 3000) {
		got, want := Unified("a/f", "b/f", p[0], p[1]), udiff.Unified("a/f", "b/f", p[0], p[1])
		if got != want {
			t.Fatalf("pair %d: Unified differs from go-udiff's\n--- before\n%q\n--- after\n%q\n--- got\n%s\n--- want\n%s", i, p[0], p[1], got, want)
		}
	}
}

func TestUnifiedCases(t *testing.T) {
	for _, c := range []struct{ before, after, want string }{
		{"a\n", "a\n", ""},
		{"", "a\n", "--- f\n+++ g\n@@ -0,0 +1 @@\n+a\n"},
		{"a\n", "", "--- f\n+++ g\n@@ -1 +0,0 @@\n-a\n"},
		{"a\nb\n", "a\nc", "--- f\n+++ g\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\n5\n6\n7\n8\nnine\n", "--- f\n+++ g\n@@ -6,4 +6,4 @@\n 6\n 7\n 8\n-9\n+nine\n"},
	} {
		if got := Unified("f", "g", c.before, c.after); got != c.want {
			t.Errorf("Unified(%q, %q) = %q, want %q", c.before, c.after, got, c.want)
		}
	}
}

func TestEditsAreUdiffsAndApply(t *testing.T) {
	for i, p := range texts(2, 3000) {
		got := Edits(p[0], p[1])
		var want []diag.Edit
		for _, e := range udiff.Strings(p[0], p[1]) {
			want = append(want, diag.Edit{Start: e.Start, End: e.End, New: e.New})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("pair %d: Edits(%q, %q) = %v, go-udiff's %v", i, p[0], p[1], got, want)
		}
		out, err := Apply([]byte(p[0]), got)
		if err != nil || string(out) != p[1] {
			t.Fatalf("pair %d: Apply(Edits) = %q, %v; want %q", i, out, err, p[1])
		}
	}
}

// TestApplyIsUdiffs applies generated edits, overlapping or out of range
// ones among them, with Apply and with go-udiff's ApplyBytes: the same
// text, or both refuse.
func TestApplyIsUdiffs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	for i := range 20000 {
		src := []byte(strings.Repeat("ab\n", r.IntN(5)))
		var edits []diag.Edit
		var theirs []udiff.Edit
		for range r.IntN(5) {
			s := r.IntN(len(src)+3) - 1
			e := s + r.IntN(4) - 1
			n := []string{"", "x", "yz\n"}[r.IntN(3)]
			edits = append(edits, diag.Edit{Start: s, End: e, New: n})
			theirs = append(theirs, udiff.Edit{Start: s, End: e, New: n})
		}
		got, err := Apply(src, edits)
		want, werr := udiff.ApplyBytes(src, theirs)
		if (err != nil) != (werr != nil) || err == nil && string(got) != string(want) {
			t.Fatalf("%d: Apply(%q, %v) = %q, %v; go-udiff's %q, %v", i, src, edits, got, err, want, werr)
		}
	}
}

func FuzzUnified(f *testing.F) {
	for _, p := range texts(4, 20) {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, before, after string) {
		if got, want := Unified("a", "b", before, after), udiff.Unified("a", "b", before, after); got != want {
			t.Errorf("Unified(%q, %q) differs from go-udiff's:\n%s\n---\n%s", before, after, got, want)
		}
		edits := Edits(before, after)
		if out, err := Apply([]byte(before), edits); err != nil || string(out) != after {
			t.Errorf("Apply(Edits(%q, %q)) = %q, %v", before, after, out, err)
		}
	})
}

func ExampleUnified() {
	fmt.Print(Unified("a/config.toml", "b/config.toml", "[agents.x]\nconfirm = [\"fs\"]\n", "[agents.x]\nconfirm = [\"fs.read\"]\n"))
	// Output:
	// --- a/config.toml
	// +++ b/config.toml
	// @@ -1,2 +1,2 @@
	//  [agents.x]
	// -confirm = ["fs"]
	// +confirm = ["fs.read"]
}
