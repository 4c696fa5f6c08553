package compile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kokua-policy/kokua-policy/internal/regular"
)

// maxLinks bounds the symlinks WriteFile follows, as the kernel does.
const maxLinks = 40

// WriteFile writes data to path the way kokua-compile -o does:
//
//   - through a temporary file in the target's folder and a rename, so
//     that a reader never sees half a policy and a failed write leaves
//     the old file as it was;
//   - through symlinks: a link is followed to its target, which is what
//     gets replaced, and the link stays;
//   - only over a regular file or nothing: a directory, a device (such as
//     /dev/null), a named pipe or a socket is refused, and left alone;
//   - keeping the mode of the file it replaces (a new file gets 0644).
func WriteFile(path string, data []byte) error {
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	mode := fs.FileMode(0o644)
	switch info, err := os.Stat(target); {
	case err == nil && info.IsDir():
		return fmt.Errorf("cannot write %s: it is a directory", path)
	case err == nil && !info.Mode().IsRegular():
		return fmt.Errorf("cannot write %s: it is %s, not a regular file, and is left as it is", path, regular.Kind(info.Mode()))
	case err == nil:
		mode = info.Mode().Perm()
	case !os.IsNotExist(err):
		return fmt.Errorf("cannot write %s: %w", path, unwrap(err))
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrap(err))
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	for _, step := range []func() error{
		func() error { _, err := tmp.Write(data); return err },
		tmp.Sync,
		func() error { return tmp.Chmod(mode) },
		tmp.Close,
		func() error { return os.Rename(tmp.Name(), target) },
	} {
		if err := step(); err != nil {
			return fmt.Errorf("cannot write %s: %w", path, unwrap(err))
		}
	}
	done = true
	return nil
}

// WriteAtomic is WriteFile, under the name it had first.
func WriteAtomic(path string, data []byte) error { return WriteFile(path, data) }

// resolve follows path through its symlinks to the file they name, which
// need not exist. A relative link is read from the link's own folder.
func resolve(path string) (string, error) {
	for range maxLinks {
		info, err := os.Lstat(path)
		if os.IsNotExist(err) {
			return path, nil
		}
		if err != nil {
			return "", unwrap(err)
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", unwrap(err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("more than %d symlinks (a loop?)", maxLinks)
}

// unwrap drops the path an *fs.PathError or *os.LinkError repeats.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
