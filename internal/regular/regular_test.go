//go:build unix

package regular

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
)

// notBlocking runs f and fails the test if it has not returned within a
// generous bound: a FIFO open that blocks would never return at all.
func notBlocking(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-patience.After(t, 20*time.Second):
		t.Fatalf("%s blocked", what)
	}
}

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	file := filepath.Join(dir, "real.toml")
	if err := os.WriteFile(file, []byte("x = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	toFIFO := filepath.Join(dir, "link-to-fifo")
	toFile := filepath.Join(dir, "link-to-file")
	if err := os.Symlink(fifo, toFIFO); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, toFile); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want string
	}{
		{fifo, "it is a named pipe (FIFO), not a regular file"},
		{toFIFO, "it is a named pipe (FIFO), not a regular file"},
		{"/dev/null", "it is a character device, not a regular file"},
		{dir, "it is a directory"},
		{filepath.Join(dir, "missing"), "no such file"},
		{file, ""},
		{toFile, ""},
	} {
		var data []byte
		var err error
		notBlocking(t, "ReadFile("+c.path+")", func() { data, err = ReadFile(c.path, 1<<20) })
		switch {
		case c.want == "" && err != nil:
			t.Errorf("ReadFile(%s): %v", c.path, err)
		case c.want == "" && string(data) != "x = 1\n":
			t.Errorf("ReadFile(%s) = %q", c.path, data)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("ReadFile(%s) = %v, want an error saying %q", c.path, err, c.want)
		case c.want != "" && c.want != "no such file" && !errors.Is(err, ErrNotRegular):
			t.Errorf("ReadFile(%s) = %v, which is not ErrNotRegular", c.path, err)
		}
	}
}

func TestReadFileLimit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(file, make([]byte, 11), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(file, 10); !errors.Is(err, ErrTooLarge) {
		t.Errorf("11 bytes under a limit of 10: %v, want ErrTooLarge", err)
	}
	if data, err := ReadFile(file, 11); err != nil || len(data) != 11 {
		t.Errorf("11 bytes under a limit of 11: %d bytes, %v", len(data), err)
	}
}
