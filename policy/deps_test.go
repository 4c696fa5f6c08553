package policy_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly holds the package a host embeds to the standard
// library: embedding the runtime must pull in no TOML parser, no rule
// engine and no third-party module.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Skipf("go list is not available: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "github.com/kokua-policy/kokua-policy/policy" {
			t.Errorf("policy imports %s", dep)
		}
	}
}
