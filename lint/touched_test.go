package lint

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
)

// TestTouchedIsIsolated holds the round's table index to its definition:
// over generated rounds, a fix is held back by the index exactly when
// diag.Fix.Isolated holds it back against some fix taken before it, so
// --fix makes the same fixes in the same rounds as asking each fix taken.
func TestTouchedIsIsolated(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 1))
	tables := []string{"[a]", "[a.tools]", "[b.tools]", "[security]", "[c]"}
	held := 0
	for round := range 2000 {
		var taken []diag.Fix
		var index touched
		for k := range 1 + r.IntN(12) {
			f := diag.Fix{Title: fmt.Sprint(k), Local: r.IntN(2) == 0}
			for _, tb := range tables {
				if r.IntN(4) == 0 {
					f.Touches = append(f.Touches, tb)
				}
			}
			want := slices.ContainsFunc(taken, f.Isolated)
			if got := index.isolates(f); got != want {
				t.Fatalf("round %d: fix %+v against %+v: the index says isolated %v, Isolated %v", round, f, taken, got, want)
			}
			if want {
				held++
				continue
			}
			taken = append(taken, f)
			index.add(f)
		}
	}
	if held < 1000 {
		t.Fatalf("only %d fixes held back: the generator hardly tests isolation", held)
	}
}
