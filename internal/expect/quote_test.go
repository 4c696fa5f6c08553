package expect

import (
	"fmt"
	"testing"
)

// TestQuoteAllIsBounded (issue 40): the toolsets a "did you mean" offers
// for a bare tool, once all of them joined by "or", are five and a count.
func TestQuoteAllIsBounded(t *testing.T) {
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprintf("ts%d.read", i))
	}
	for n, want := range map[int]string{1: "'ts0.read'", 2: "'ts0.read' or 'ts1.read'", 12: "'ts0.read', 'ts1.read', 'ts2.read', 'ts3.read', 'ts4.read' or 7 more"} {
		if got := quoteAll(names[:n]); got != want {
			t.Errorf("quoteAll of %d names = %q, want %q", n, got, want)
		}
	}
}
