// Package patience says how long a test waits for what should take far
// less: a browser's answer, a language server's reply, a command that
// must not hang. A fixed bound fails a test on a loaded machine (a
// browser test once failed at its 3 minutes with 8 busy processes on 2
// cores) although nothing was wrong; this one scales with the time the
// test binary has (go test -timeout, 10 minutes by default), so that a
// slow machine is slow and passes, and a hang still ends the test with a
// message of its own before the binary is killed. Only tests import it.
package patience

import (
	"testing"
	"time"
)

// margin is what is kept of the binary's time for the test to fail with
// its own message, and for the tests after it.
const margin = 30 * time.Second

// Timeout is at least least, and otherwise the time left before the test
// binary's deadline, less a margin. Without a deadline (go test
// -timeout 0, or a benchmark), it is ten times least.
func Timeout(tb testing.TB, least time.Duration) time.Duration {
	d, ok := tb.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return 10 * least
	}
	end, ok := d.Deadline()
	if !ok {
		return 10 * least
	}
	return max(least, time.Until(end)-margin)
}

// After is time.After(Timeout(tb, least)).
func After(tb testing.TB, least time.Duration) <-chan time.Time {
	return time.After(Timeout(tb, least))
}
