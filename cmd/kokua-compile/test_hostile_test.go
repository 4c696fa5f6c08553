//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/expect/reports"
	"github.com/kokua-policy/kokua-policy/internal/testing/hostile"
)

// TestPolicyTestHostileNames (issue 22, as issue 13 holds every command):
// agent names, claim names, selectors and file paths holding ESC, BEL, CR,
// LF, the right-to-left override, DEL, a C1 control and invalid UTF-8 reach
// no report of kokua-compile test raw, in any format, and none starts a
// line (a forged workflow command) of its own.
func TestPolicyTestHostileNames(t *testing.T) {
	dir := t.TempDir()
	for i, n := range hostile.Names {
		sub := filepath.Join(dir, fmt.Sprint(i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		cfg := filepath.Join(sub, hostile.FileName(n)+".toml")
		tests := filepath.Join(sub, hostile.FileName(n)+".test.toml")
		if err := os.WriteFile(cfg, []byte(hostileCompileConfig(false)), 0o644); err != nil {
			t.Fatal(err)
		}
		claims := fmt.Sprintf("[[expect]]\nname = %s\nagent = \"*\"\ntool = \"fs.read_file\"\ndecision = \"unavailable\"\nreach = true\n\n"+
			"[[expect]]\nagent = %s\ntool = %s\ndecision = \"run\"\n\n"+
			"[[expect]]\nagent = %s\ntool = \"fs\"\ndecision = \"run\"\nunattended = true\n",
			hostile.JSONString(n), hostile.JSONString(n+"x"), hostile.JSONString("fs."+n), hostile.JSONString(hostileAgents[i%len(hostileAgents)]))
		if err := os.WriteFile(tests, []byte(claims), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range reports.Formats.Names() {
			args := []string{"test", "--format", format, cfg, tests}
			code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", args...).Split()
			if code != cli.ExitFindings || stdout == "" {
				t.Errorf("kokua-compile %q: exit %d, want 1: %s", args, code, stderr)
			}
			for stream, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
				if raw := hostile.Raw([]byte(out)); raw != "" {
					t.Errorf("kokua-compile %q: %s carries %s", args, stream, raw)
				}
				if hostile.Forged([]byte(out)) {
					t.Errorf("kokua-compile %q: a name started a line of its own in %s:\n%s", args, stream, out)
				}
			}
		}
	}
}
