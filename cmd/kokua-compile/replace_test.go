//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestOutputReplaceRefusals (issue 37): -o of the policy and of the
// report refuses, from its path and before the config is read, a
// read-only file (0444) and a file with other hard links (usage errors,
// saying why; the file is left as it is); --in-place writes a linked
// file in place, so each of its names holds the new output.
func TestOutputReplaceRefusals(t *testing.T) {
	cfg := shippedPath(t)
	for _, sub := range [][]string{nil, {"report"}} {
		t.Run(strings.Join(append([]string{"kokua-compile"}, sub...), " "), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			if err := os.WriteFile(out, []byte("old"), 0o444); err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{}, sub...), "-o", out, cfg)
			r := clitest.Run(Main, "kokua-compile", "", args...)
			if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "cannot write "+out+": it is read-only (mode 0444)") {
				t.Errorf("read-only -o: exit %d, stderr %q; want 2, saying it is read-only", r.Code, r.Stderr)
			}
			if err := os.Chmod(out, 0o644); err != nil {
				t.Fatal(err)
			}
			other := filepath.Join(dir, "other-name")
			if err := os.Link(out, other); err != nil {
				t.Skip("no hard links here:", err)
			}
			r = clitest.Run(Main, "kokua-compile", "", args...)
			if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "cannot write "+out+": it has other hard links (1 other hard link)") {
				t.Errorf("linked -o: exit %d, stderr %q; want 2, saying it has other hard links", r.Code, r.Stderr)
			}
			if data, _ := os.ReadFile(out); string(data) != "old" {
				t.Fatal("a refused -o was written")
			}
			r = clitest.Run(Main, "kokua-compile", "", append(append(append([]string{}, sub...), "--in-place"), args[len(sub):]...)...)
			a, _ := os.ReadFile(out)
			b, _ := os.ReadFile(other)
			if r.Code != cli.ExitOK || string(a) == "old" || string(a) != string(b) {
				t.Errorf("--in-place: exit %d (%s), the two names hold %d and %d bytes; want both the new output", r.Code, r.Stderr, len(a), len(b))
			}
		})
	}
}

// TestOutputKeepsOwnerAndGroup (issue 37): a policy or report written
// over a file keeps that file's owner, group and mode.
func TestOutputKeepsOwnerAndGroup(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another owner needs root")
	}
	const uid, gid = 65534, 1
	cfg := shippedPath(t)
	for _, sub := range [][]string{nil, {"report"}} {
		out := filepath.Join(t.TempDir(), "out")
		if err := os.WriteFile(out, []byte("old"), 0o640); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(out, uid, gid); err != nil {
			t.Fatal(err)
		}
		r := clitest.Run(Main, "kokua-compile", "", append(append([]string{}, sub...), "-o", out, cfg)...)
		info, err := os.Stat(out)
		if err != nil {
			t.Fatal(err)
		}
		st := info.Sys().(*syscall.Stat_t)
		if r.Code != cli.ExitOK || st.Uid != uid || st.Gid != gid || info.Mode().Perm() != 0o640 || info.Size() == 3 {
			t.Errorf("%q -o: exit %d, owner %d, group %d, mode %v; want 0, %d, %d, 0640 and the new output", sub, r.Code, st.Uid, st.Gid, info.Mode().Perm(), uid, gid)
		}
	}
}

// TestManifestOutputRefusals: manifest -o refuses a read-only file and a
// file with other hard links as the policy's and the report's -o do,
// before any server is read, and writes a linked file in place with
// --in-place.
func TestManifestOutputRefusals(t *testing.T) {
	cfg := shippedPath(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "manifest.json")
	if r := clitest.Run(Main, "kokua-compile", "", "manifest", "-o", out, cfg); r.Code != cli.ExitOK {
		t.Fatalf("manifest -o: exit %d, stderr %q", r.Code, r.Stderr)
	}
	first, _ := os.ReadFile(out)
	if err := os.Chmod(out, 0o444); err != nil {
		t.Fatal(err)
	}
	r := clitest.Run(Main, "kokua-compile", "", "manifest", "-o", out, cfg)
	if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "cannot write "+out+": it is read-only (mode 0444)") {
		t.Errorf("read-only -o: exit %d, stderr %q; want 2, saying it is read-only", r.Code, r.Stderr)
	}
	if err := os.Chmod(out, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other-name")
	if err := os.Link(out, other); err != nil {
		t.Skip("no hard links here:", err)
	}
	r = clitest.Run(Main, "kokua-compile", "", "manifest", "-o", out, cfg)
	if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "cannot write "+out+": it has other hard links (1 other hard link)") {
		t.Errorf("linked -o: exit %d, stderr %q; want 2, saying it has other hard links", r.Code, r.Stderr)
	}
	r = clitest.Run(Main, "kokua-compile", "", "manifest", "--in-place", "-o", out, cfg)
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(other)
	if r.Code != cli.ExitOK || !strings.Contains(r.Stderr, "wrote "+out) || string(a) != string(first) || string(b) != string(first) {
		t.Errorf("--in-place: exit %d (%s); want the manifest written, both names holding it", r.Code, r.Stderr)
	}
}
