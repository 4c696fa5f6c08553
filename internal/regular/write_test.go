//go:build unix

package regular

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeTestFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func stat(t *testing.T, path string) *syscall.Stat_t {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Sys().(*syscall.Stat_t)
}

// noTemporaryFiles fails the test when a write left a file beside the
// ones the test made.
func noTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// TestReplaceKeepsOwnerAndGroup (issue 37): a replaced file keeps its
// mode, owner and group, as a 0640 nobody:daemon config a service reads
// must; before, it became the writer's (root:root), unreadable to the
// service. Only root can make a file another user's, so the test needs
// root.
func TestReplaceKeepsOwnerAndGroup(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another owner needs root")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	writeTestFile(t, path, "old", 0o640)
	const uid, gid = 65534, 1
	if err := os.Chown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	st := stat(t, path)
	if st.Uid != uid || st.Gid != gid || st.Mode&0o7777 != 0o640 || readTestFile(t, path) != "new" {
		t.Errorf("after the write: owner %d, group %d, mode %04o, %q; want %d, %d, 0640, \"new\"", st.Uid, st.Gid, st.Mode&0o7777, readTestFile(t, path), uid, gid)
	}
	noTemporaryFiles(t, dir)
}

// TestReplaceRefusesWhenTheOwnerCannotBeKept: when the new file cannot
// be given the old one's owner and group (a user who does not own the
// file, a file system that refuses), nothing is replaced, and the error
// says why.
func TestReplaceRefusesWhenTheOwnerCannotBeKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	writeTestFile(t, path, "old", 0o644)
	// A file created now is the writer's: stand for a replaced file that
	// is someone else's by a chown that must happen, and fails.
	was := chown
	t.Cleanup(func() { chown = was })
	called := false
	chown = func(*os.File, int, int) error { called = true; return syscall.EPERM }
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	other := *info.Sys().(*syscall.Stat_t)
	other.Uid++
	err = keepOwner(mustCreate(t, filepath.Join(dir, "new")), fakeInfo{info, &other})
	if !errors.Is(err, ErrOwner) || !called || !strings.Contains(err.Error(), "owner and group cannot be kept") {
		t.Errorf("keepOwner: %v (chown called: %v), want ErrOwner", err, called)
	}
	// Through Replace: a file whose owner differs from the writer's.
	if os.Geteuid() == 0 {
		if err := os.Chown(path, 65534, 1); err != nil {
			t.Fatal(err)
		}
		err := WriteFile(path, []byte("new"), WriteOptions{})
		var we *WriteError
		if !errors.Is(err, ErrOwner) || !errors.As(err, &we) || we.Partial {
			t.Errorf("WriteFile: %v, want ErrOwner", err)
		}
		if readTestFile(t, path) != "old" {
			t.Error("the file was replaced although its owner could not be kept")
		}
		_ = os.Remove(filepath.Join(dir, "new"))
		noTemporaryFiles(t, dir)
	}
}

type fakeInfo struct {
	os.FileInfo
	sys *syscall.Stat_t
}

func (f fakeInfo) Sys() any { return f.sys }

func mustCreate(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// TestReplaceRefusesReadOnlyAndLinkedFiles (issue 37): a read-only file
// (0444) is refused, whoever runs the write, root included, which the
// kernel would let replace it; a file with other hard links is refused,
// since a rename would leave the other names holding the old contents,
// unless InPlace, which writes the same file and keeps the links. Each
// refusal says why, and leaves the file as it was.
func TestReplaceRefusesReadOnlyAndLinkedFiles(t *testing.T) {
	dir := t.TempDir()
	readOnly := filepath.Join(dir, "read-only.toml")
	writeTestFile(t, readOnly, "old", 0o444)
	linked := filepath.Join(dir, "linked.toml")
	writeTestFile(t, linked, "old", 0o644)
	other := filepath.Join(dir, "other-name.toml")
	if err := os.Link(linked, other); err != nil {
		t.Skip("no hard links here:", err)
	}
	for _, c := range []struct {
		path string
		opts WriteOptions
		want error
		says string
	}{
		{readOnly, WriteOptions{}, ErrReadOnly, "it is read-only (mode 0444)"},
		{readOnly, WriteOptions{InPlace: true}, ErrReadOnly, "it is read-only (mode 0444)"},
		{linked, WriteOptions{}, ErrHardLinks, "it has other hard links (1 other hard link), which a replacement would leave holding the old contents"},
	} {
		for name, check := range map[string]func() error{
			"CheckOutput": func() error { return CheckOutput(c.path, c.opts) },
			"WriteFile":   func() error { return WriteFile(c.path, []byte("new"), c.opts) },
		} {
			err := check()
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "cannot write "+c.path+": "+c.says) {
				t.Errorf("%s(%s, %+v): %v, want %v saying %q", name, c.path, c.opts, err, c.want, c.says)
			}
		}
		if readTestFile(t, c.path) != "old" {
			t.Errorf("%s was changed", c.path)
		}
	}
	inode := stat(t, linked).Ino
	if err := CheckOutput(linked, WriteOptions{InPlace: true}); err != nil {
		t.Errorf("CheckOutput in place: %v", err)
	}
	if err := WriteFile(linked, []byte("new, and longer"), WriteOptions{InPlace: true}); err != nil {
		t.Fatalf("in place: %v", err)
	}
	if err := WriteFile(linked, []byte("new"), WriteOptions{InPlace: true}); err != nil {
		t.Fatalf("in place: %v", err)
	}
	if readTestFile(t, linked) != "new" || readTestFile(t, other) != "new" || stat(t, linked).Ino != inode || stat(t, linked).Nlink != 2 {
		t.Errorf("in place: %q and %q, inode %d (was %d), %d links; want both \"new\", the same inode and 2 links",
			readTestFile(t, linked), readTestFile(t, other), stat(t, linked).Ino, inode, stat(t, linked).Nlink)
	}
	noTemporaryFiles(t, dir)
}

// TestReplaceWritesTheFileResolved (issue 37): a path is resolved once.
// A symlink swapped after the resolution does not move the write: the
// file read is the file written, and the file the link names now is
// left alone. A file renamed over the one resolved, or one that appears
// where there was none, is refused with ErrChanged, and left as it is.
func TestReplaceWritesTheFileResolved(t *testing.T) {
	dir := t.TempDir()
	a, b, link := filepath.Join(dir, "a.toml"), filepath.Join(dir, "b.toml"), filepath.Join(dir, "config.toml")
	writeTestFile(t, a, "a", 0o644)
	writeTestFile(t, b, "b", 0o644)
	if err := os.Symlink("a.toml", link); err != nil {
		t.Fatal(err)
	}
	target, err := Resolve(link)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = target.Close() }()
	if data, err := target.Read(1 << 10); err != nil || string(data) != "a" {
		t.Fatalf("Read: %q, %v", data, err)
	}
	// The link now names b.toml.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b.toml", link); err != nil {
		t.Fatal(err)
	}
	if err := target.Replace([]byte("a fixed"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if readTestFile(t, a) != "a fixed" || readTestFile(t, b) != "b" {
		t.Errorf("a.toml holds %q, b.toml %q: want the file read written, and the other left", readTestFile(t, a), readTestFile(t, b))
	}

	// Another file renamed over the one resolved: refused, both ways.
	target2, err := Resolve(a)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = target2.Close() }()
	swapped := filepath.Join(dir, "swapped.toml")
	writeTestFile(t, swapped, "swapped in", 0o644)
	if err := os.Rename(swapped, a); err != nil {
		t.Fatal(err)
	}
	if _, err := target2.Read(1 << 10); !errors.Is(err, ErrChanged) {
		t.Errorf("Read after a swap: %v, want ErrChanged", err)
	}
	err = target2.Replace([]byte("written"), WriteOptions{})
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "cannot write "+a+": the path no longer names the file it named when the command started") {
		t.Errorf("Replace after a swap: %v, want ErrChanged", err)
	}
	if readTestFile(t, a) != "swapped in" {
		t.Errorf("the file swapped in was replaced: %q", readTestFile(t, a))
	}

	// A file made where there was none.
	fresh := filepath.Join(dir, "fresh.json")
	target3, err := Resolve(fresh)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = target3.Close() }()
	writeTestFile(t, fresh, "made meanwhile", 0o644)
	if err := target3.Replace([]byte("written"), WriteOptions{}); !errors.Is(err, ErrChanged) {
		t.Errorf("Replace of a file made meanwhile: %v, want ErrChanged", err)
	}
	if readTestFile(t, fresh) != "made meanwhile" {
		t.Errorf("the file made meanwhile was replaced")
	}

	// A symlink put in place of the file resolved: the link, not the file.
	target4, err := Resolve(b)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = target4.Close() }()
	if err := os.Rename(b, filepath.Join(dir, "b-moved.toml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b-moved.toml", b); err != nil {
		t.Fatal(err)
	}
	if err := target4.Replace([]byte("written"), WriteOptions{InPlace: true}); !errors.Is(err, ErrChanged) {
		t.Errorf("Replace of a name now a link: %v, want ErrChanged", err)
	}
	if info, err := os.Lstat(b); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link put in its place was replaced (%v)", err)
	}
	noTemporaryFiles(t, dir)
}

// TestReplaceInPlaceChecksTheFile: the write in place opens the name
// again, and refuses a file that is not the one resolved.
func TestReplaceInPlaceChecksTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "linked.toml")
	writeTestFile(t, path, "old", 0o644)
	if err := os.Link(path, filepath.Join(dir, "second")); err != nil {
		t.Skip("no hard links here:", err)
	}
	target, err := Resolve(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = target.Close() }()
	// Between still() and the open: simulated by swapping before
	// Replace, which still() catches first; the open's own check is
	// reached through inPlace directly.
	writeTestFile(t, filepath.Join(dir, "other"), "other", 0o644)
	if err := os.Rename(filepath.Join(dir, "other"), path); err != nil {
		t.Fatal(err)
	}
	if err := target.inPlace([]byte("new")); !errors.Is(err, ErrChanged) {
		t.Errorf("inPlace over another file: %v, want ErrChanged", err)
	}
	if readTestFile(t, path) != "other" || readTestFile(t, filepath.Join(dir, "second")) != "old" {
		t.Error("a file was written")
	}
}
