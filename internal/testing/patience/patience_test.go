package patience

import (
	"testing"
	"time"
)

type deadlined struct {
	testing.TB
	end time.Time
	ok  bool
}

func (d deadlined) Deadline() (time.Time, bool) { return d.end, d.ok }

// TestTimeout: the bound is the binary's time left less the margin, never
// under the least given, and ten times the least without a deadline.
func TestTimeout(t *testing.T) {
	for _, c := range []struct {
		left, least, lo, hi time.Duration
		ok                  bool
	}{
		{10 * time.Minute, 10 * time.Second, 9*time.Minute + 29*time.Second, 9*time.Minute + 30*time.Second, true},
		{20 * time.Second, 10 * time.Second, 10 * time.Second, 10 * time.Second, true},
		{0, 3 * time.Second, 30 * time.Second, 30 * time.Second, false},
	} {
		got := Timeout(deadlined{t, time.Now().Add(c.left), c.ok}, c.least)
		if got < c.lo || got > c.hi {
			t.Errorf("%v left, at least %v (deadline %v): %v, want %v to %v", c.left, c.least, c.ok, got, c.lo, c.hi)
		}
	}
}
