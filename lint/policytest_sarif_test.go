package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// TestPolicyTestSARIFValid (issue 22): the SARIF of kokua-compile test,
// as its golden cases hold it, is valid against the SARIF 2.1.0 schema the
// linter's own output is checked with.
func TestPolicyTestSARIFValid(t *testing.T) {
	checked := 0
	for _, dir := range golden.Cases(t, "policytest") {
		data, err := os.ReadFile(filepath.Join(dir, "want.sarif.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 {
			continue // a test file with mistakes: no report
		}
		if err := sarifValidate(t, data); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no SARIF report to check")
	}
}
