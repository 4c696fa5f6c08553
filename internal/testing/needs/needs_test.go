package needs_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

// recorder is a testing.TB that records how a test ended.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper() {}

// Fatalf and Skipf end the goroutine, as testing's do.
func (r *recorder) Fatalf(format string, _ ...any) {
	r.fatal = format
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, _ ...any) {
	r.skip = format
	runtime.Goexit()
}

// TestMissing: under CI=true a missing program fails the test; elsewhere
// it skips it; on GitHub's runner a missing ../shared skips it even under
// CI=true.
func TestMissing(t *testing.T) {
	for _, c := range []struct {
		ci, github string
		shared     bool
		want       string
	}{
		{"true", "", false, "fatal"},
		{"", "", false, "skip"},
		{"true", "", true, "fatal"},
		{"true", "true", true, "skip"},
		{"", "", true, "skip"},
	} {
		t.Setenv("CI", c.ci)
		t.Setenv("GITHUB_ACTIONS", c.github)
		r := &recorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			if c.shared {
				needs.Shared(r, "no ../shared/real-configs")
			} else {
				needs.Program(r, "no-such-program-anywhere", "apt-get install it")
			}
		}()
		<-done
		got := "skip"
		if r.fatal != "" {
			got = "fatal"
		}
		if got != c.want || r.fatal+r.skip == "" {
			t.Errorf("CI=%q GITHUB_ACTIONS=%q shared=%v: %s (%q%q), want %s", c.ci, c.github, c.shared, got, r.fatal, r.skip, c.want)
		}
		if msg := r.fatal + r.skip; !strings.Contains(msg, "%s") {
			t.Errorf("the message says nothing of what is missing: %q", msg)
		}
	}
}
