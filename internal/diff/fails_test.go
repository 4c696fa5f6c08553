package diff_test

import (
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// TestFailsAtAndBelowEachGrade holds Report.Fails, the exit of
// kokua-compile diff, to docs/diff.md: --fail-on critical, high and
// medium fail a report whose most serious change is at least that grade,
// and pass one just below it; --fail-on any fails any widening, and any
// change graded medium or above even when nothing widens (a reviewer
// change widens no list). Every grade is tried with and without a
// widening, so the table is each value at and just below each grade.
func TestFailsAtAndBelowEachGrade(t *testing.T) {
	grades := []reach.Grade{reach.NoGrade, reach.Info, reach.Medium, reach.High, reach.Critical}
	const y, n = true, false
	// want[failOn][widened] is, for each of grades in order, whether the
	// report fails.
	want := map[string][2][5]bool{
		"critical": {{n, n, n, n, y}, {n, n, n, n, y}},
		"high":     {{n, n, n, y, y}, {n, n, n, y, y}},
		"medium":   {{n, n, y, y, y}, {n, n, y, y, y}},
		"any":      {{n, n, y, y, y}, {y, y, y, y, y}},
	}
	if len(want) != len(diff.FailOn) {
		t.Fatalf("the table has %d --fail-on values, diff.FailOn %d", len(want), len(diff.FailOn))
	}
	for _, failOn := range diff.FailOn {
		rows, ok := want[failOn]
		if !ok {
			t.Fatalf("--fail-on %s is not in the table", failOn)
		}
		for w, widened := range []bool{false, true} {
			for i, g := range grades {
				r := &diff.Report{Grade: g, Widened: widened}
				if got := r.Fails(failOn); got != rows[w][i] {
					t.Errorf("--fail-on %s, a report graded %v (widened %v): fails = %v, want %v", failOn, g, widened, got, rows[w][i])
				}
			}
		}
	}
}
