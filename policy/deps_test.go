package policy_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

// TestStandardLibraryOnly holds the package a host embeds to the standard
// library, Kokua's vocabulary (package kokua) and internal/prompt, which
// imports only the standard library: embedding the runtime
// must pull in no TOML parser, no rule engine and no third-party module.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		needs.Missing(t, fmt.Sprintf("go list -deps fails (%v)", err), "the go command on PATH, with the module's dependencies")
	}
	allowed := map[string]bool{
		"github.com/kokua-policy/kokua-policy/policy": true,
		"github.com/kokua-policy/kokua-policy/kokua":  true,
		// Standard library only itself: what the runtime shows the model.
		"github.com/kokua-policy/kokua-policy/internal/prompt": true,
	}
	for _, dep := range strings.Fields(string(out)) {
		if !allowed[dep] {
			t.Errorf("policy imports %s", dep)
		}
	}
}
