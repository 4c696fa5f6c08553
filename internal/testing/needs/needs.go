// Package needs is for a test that needs something from outside the
// repository: a program (openssl, python3, dot, the go command) or a file
// beside the clone (../shared). Missing, the test fails under CI=true,
// where .ci/run installs every such program and ../shared lies beside the
// clone, and is skipped elsewhere, saying what is missing and why. Only
// tests import it.
package needs

import (
	"os"
	"os/exec"
	"testing"
)

// CI reports whether the tests run in CI (CI=true), where nothing a test
// needs may be missing.
func CI() bool { return os.Getenv("CI") == "true" }

// GitHub reports whether the tests run on GitHub's runner
// (GITHUB_ACTIONS=true), which has the clone alone: no ../shared.
func GitHub() bool { return os.Getenv("GITHUB_ACTIONS") == "true" }

// Missing ends a test that cannot run because what is missing is: a
// failure under CI=true, a skip elsewhere. Both say what and why; install
// says how to get it.
func Missing(tb testing.TB, what, install string) {
	tb.Helper()
	if CI() {
		tb.Fatalf("%s, so this test cannot run; CI must have it: %s", what, install)
	}
	tb.Skipf("%s, so this test is skipped (it fails under CI=true): %s", what, install)
}

// Program returns the path of a program on PATH, or ends the test as
// Missing says.
func Program(tb testing.TB, name, install string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(tb, name+" is not on PATH", install)
	}
	return path
}

// Shared ends a test whose folder beside the clone (../shared/...) is
// missing: a failure under CI=true, except on GitHub's runner, which has
// no ../shared (.ci/run, run by the project's own CI with ../shared beside
// the clone, covers the test there: docs/testing.md); a skip elsewhere.
func Shared(tb testing.TB, what string) {
	tb.Helper()
	if GitHub() {
		tb.Skipf("%s: GitHub's runner has no ../shared; the project's CI, with ../shared beside the clone, runs this test (docs/testing.md)", what)
	}
	Missing(tb, what, "../shared beside the clone, as the project's CI lays it")
}
