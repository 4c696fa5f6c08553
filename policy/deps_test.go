package policy_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly holds the package a host embeds to the standard
// library and Kokua's vocabulary, package kokua: embedding the runtime
// must pull in no TOML parser, no rule engine and no third-party module.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Skipf("go list is not available: %v", err)
	}
	allowed := map[string]bool{
		"github.com/kokua-policy/kokua-policy/policy": true,
		"github.com/kokua-policy/kokua-policy/kokua":  true,
	}
	for _, dep := range strings.Fields(string(out)) {
		if !allowed[dep] {
			t.Errorf("policy imports %s", dep)
		}
	}
}
