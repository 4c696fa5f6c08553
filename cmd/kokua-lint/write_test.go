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

// safeFixed is fixable after --fix: its one safe fix made.
var safeFixed = strings.Replace(fixable, `"run_command"`, `"compute.run_command"`, 1)

// TestFixWritesTheFileItRead (issue 37): --fix and migrate --write
// resolve a config's path once. A symlink swapped between the read and
// the write does not move the write to the file the link names now
// (before, the path was resolved again, and the fix of one file replaced
// another); a file renamed over the one read is refused, exit 3, and
// left as it is.
func TestFixWritesTheFileItRead(t *testing.T) {
	other := strings.Replace(fixable, "[agents.assistant.tools]", "# another file\n[agents.assistant.tools]", 1)
	t.Run("link swapped", func(t *testing.T) {
		dir := files(t, map[string]string{"a.toml": fixable, "b.toml": other})
		link := filepath.Join(dir, "config.toml")
		if err := os.Symlink("a.toml", link); err != nil {
			t.Fatal(err)
		}
		swapped := false
		setBeforeReplace(t, func(string) {
			swapped = true
			if err := os.Remove(link); err != nil {
				t.Error(err)
			}
			if err := os.Symlink("b.toml", link); err != nil {
				t.Error(err)
			}
		})
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--fix", "config.toml")
		wantCode(t, r, cli.ExitFindings)
		if !swapped {
			t.Fatal("the hook between the read and the write did not run")
		}
		if got := readConfig(t, filepath.Join(dir, "a.toml")); got != safeFixed {
			t.Errorf("a.toml, the file read, holds:\n%s\nwant its fix", got)
		}
		if got := readConfig(t, filepath.Join(dir, "b.toml")); got != other {
			t.Errorf("b.toml, never read, was written:\n%s", got)
		}
	})
	t.Run("file replaced", func(t *testing.T) {
		dir := files(t, map[string]string{"config.toml": fixable, "other.toml": other})
		setBeforeReplace(t, func(string) {
			if err := os.Rename(filepath.Join(dir, "other.toml"), filepath.Join(dir, "config.toml")); err != nil {
				t.Error(err)
			}
		})
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--fix", "config.toml")
		wantWriteError(t, r, "cannot write config.toml: the path no longer names the file it named when the command started", "config.toml was not changed")
		if got := readConfig(t, filepath.Join(dir, "config.toml")); got != other {
			t.Errorf("the file put in its place was written:\n%s", got)
		}
	})
	// migrate --write reads and replaces through the same target: a file
	// renamed over the one it migrated is refused, exit 3, and left as
	// it is; the original it read is kept beside it, as it always is.
	t.Run("migrate --write, file replaced", func(t *testing.T) {
		newer := strings.Replace(oldConfig, "\n", "\n# another file\n", 1)
		dir := files(t, map[string]string{"config.toml": oldConfig, "other.toml": newer})
		replaced := false
		setBeforeReplace(t, func(string) {
			replaced = true
			if err := os.Rename(filepath.Join(dir, "other.toml"), filepath.Join(dir, "config.toml")); err != nil {
				t.Error(err)
			}
		})
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml")
		if !replaced {
			t.Fatal("the hook between the read and the write did not run")
		}
		wantWriteError(t, r, "cannot write config.toml: the path no longer names the file it named when the command started")
		if got := readConfig(t, filepath.Join(dir, "config.toml")); got != newer {
			t.Errorf("the file put in its place was written:\n%s", got)
		}
	})
}

func setBeforeReplace(t *testing.T, f func(string)) {
	was := beforeReplace
	t.Cleanup(func() { beforeReplace = was })
	beforeReplace = f
}

// TestFixRefusesReadOnlyAndLinkedConfigs (issue 37): --fix and migrate
// --write refuse a read-only config (0444), which root could otherwise
// replace, and a config with other hard links, which a replacement
// would leave holding the old text, each with a usage error that says
// why, before anything is read or written. --in-place writes a linked
// config in place, so every name sees the fix.
func TestFixRefusesReadOnlyAndLinkedConfigs(t *testing.T) {
	for _, args := range [][]string{{"--fix"}, {"migrate", "--write"}} {
		text := fixable
		if args[0] == "migrate" {
			text = oldConfig
		}
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := files(t, map[string]string{"config.toml": text})
			path := filepath.Join(dir, "config.toml")
			if err := os.Chmod(path, 0o444); err != nil {
				t.Fatal(err)
			}
			r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", append(args, "config.toml")...)
			wantUsageError(t, r, "cannot write config.toml: it is read-only (mode 0444)")
			if err := os.Chmod(path, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(path, filepath.Join(dir, "deployed.toml")); err != nil {
				t.Skip("no hard links here:", err)
			}
			r = clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", append(args, "config.toml")...)
			wantUsageError(t, r, "cannot write config.toml: it has other hard links (1 other hard link)", "--in-place")
			if readConfig(t, path) != text {
				t.Fatal("a refused run changed the config")
			}
			r = clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", append(args, "--in-place", "config.toml")...)
			if r.Code != cli.ExitOK && r.Code != cli.ExitFindings {
				t.Fatalf("--in-place: exit %d\n%s", r.Code, r.Stderr)
			}
			got, linked := readConfig(t, path), readConfig(t, filepath.Join(dir, "deployed.toml"))
			if got == text || got != linked {
				t.Errorf("--in-place: config.toml holds\n%s\nand its other name\n%s\nwant both changed alike", got, linked)
			}
		})
	}
}

// TestWritesKeepOwnerAndGroup (issue 37): every file kokua-lint
// replaces keeps its owner, group and mode: a 0640 config owned by
// nobody:daemon stays so after --fix and migrate --write, and the SARIF
// file too. Before, it became root:root, unreadable to the service.
func TestWritesKeepOwnerAndGroup(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another owner needs root")
	}
	const uid, gid = 65534, 1
	for _, c := range []struct {
		name, text, file string
		args             []string
	}{
		{"--fix", fixable, "config.toml", []string{"--fix", "config.toml"}},
		{"migrate --write", oldConfig, "config.toml", []string{"migrate", "--write", "config.toml"}},
		{"--sarif-file", fixable, "out.sarif", []string{"--sarif-file", "out.sarif", "config.toml"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := files(t, map[string]string{"config.toml": c.text, "out.sarif": "{}"})
			path := filepath.Join(dir, c.file)
			if err := os.Chmod(path, 0o640); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(path, uid, gid); err != nil {
				t.Fatal(err)
			}
			before := readConfig(t, path)
			r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", c.args...)
			if r.Code != cli.ExitOK && r.Code != cli.ExitFindings {
				t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			st := info.Sys().(*syscall.Stat_t)
			if readConfig(t, path) == before || st.Uid != uid || st.Gid != gid || info.Mode().Perm() != 0o640 {
				t.Errorf("%s: owner %d, group %d, mode %v, changed %v; want %d, %d, 0640 and a new text",
					c.file, st.Uid, st.Gid, info.Mode().Perm(), readConfig(t, path) != before, uid, gid)
			}
		})
	}
}
