package migrate

import (
	"fmt"
	"testing"
)

// TestAndIsBounded (issue 40): the names a migration note joins, once all
// of them, are five and a count of the rest.
func TestAndIsBounded(t *testing.T) {
	var names []string
	for i := range 40 {
		names = append(names, fmt.Sprintf("t%d", i))
	}
	for n, want := range map[int]string{0: "", 1: "t0", 2: "t0 and t1", 5: "t0, t1, t2, t3 and t4", 40: "t0, t1, t2, t3, t4 and 35 more"} {
		if got := and(names[:n]); got != want {
			t.Errorf("and of %d names = %q, want %q", n, got, want)
		}
	}
}
