//go:build unix

package compile_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
)

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestWriteFileThroughSymlinks (issue 10, safe writes): a symlink is
// written through, to its target, whether the link is relative, absolute
// or chained, and whether the target exists yet; the links stay links.
func TestWriteFileThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "real", "policy.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	rel := filepath.Join(dir, "rel.json")
	abs := filepath.Join(dir, "abs.json")
	chain := filepath.Join(dir, "chain.json")
	dangling := filepath.Join(dir, "new.json")
	for link, to := range map[string]string{
		rel: filepath.Join("real", "policy.json"), abs: target, chain: "rel.json",
		dangling: filepath.Join("real", "new.json"),
	} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	for _, link := range []string{rel, abs, chain} {
		if err := compile.WriteFile(link, []byte(link)); err != nil {
			t.Fatalf("%s: %v", link, err)
		}
		if got := read(t, target); got != link {
			t.Errorf("writing %s: the target holds %q", link, got)
		}
		if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symlink (%v)", link, err)
		}
	}
	if err := compile.WriteFile(dangling, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(dir, "real", "new.json")); got != "new" {
		t.Errorf("the dangling link's target holds %q", got)
	}
	loop := filepath.Join(dir, "loop.json")
	if err := os.Symlink("loop.json", loop); err != nil {
		t.Fatal(err)
	}
	if err := compile.WriteFile(loop, []byte("x")); err == nil || !strings.Contains(err.Error(), "symlinks") {
		t.Errorf("a symlink loop: %v", err)
	}
}

// TestWriteFileRefusesNonRegular: a directory, a named pipe and a device
// are refused and left as they are; nothing is created beside them.
func TestWriteFileRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	link := filepath.Join(dir, "to-null")
	if err := os.Symlink(os.DevNull, link); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		dir: "is a directory", fifo: "is a named pipe", os.DevNull: "is a character device", link: "is a character device",
	} {
		before, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		err = compile.WriteFile(path, []byte("policy"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying it %s", path, err, want)
		}
		after, err := os.Stat(path)
		if err != nil || after.Mode() != before.Mode() {
			t.Errorf("%s changed: %v -> %v (%v)", path, before.Mode(), after.Mode(), err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the folder holds %d entries, want the pipe and the link alone", len(entries))
	}
}

// TestWriteFileKeepsMode: a replaced file keeps its permissions; a new
// one gets 0644.
func TestWriteFileKeepsMode(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(old, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o640); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh.json")
	for path, want := range map[string]os.FileMode{old: 0o640, fresh: 0o644} {
		if err := compile.WriteFile(path, []byte("new")); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(path)
		if err != nil || info.Mode().Perm() != want || read(t, path) != "new" {
			t.Errorf("%s: mode %v (%v), want %v", path, info.Mode().Perm(), err, want)
		}
	}
}
