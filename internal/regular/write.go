package regular

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// The refusals of a replacement, each wrapped by a *WriteError.
var (
	// ErrChanged: between the path's resolution and the write, the path
	// came to name another file (a symlink swapped, a file renamed over
	// it), or a file appeared where there was none. What was read is
	// not what would be replaced, so nothing is written.
	ErrChanged = errors.New("the path no longer names the file it named when the command started")
	// ErrReadOnly: the file's mode lets no one who runs the command write
	// it (0444): a rename would replace it all the same.
	ErrReadOnly = errors.New("it is read-only")
	// ErrHardLinks: the file has other names, which a rename would leave
	// holding the old contents.
	ErrHardLinks = errors.New("it has other hard links")
	// ErrOwner: the new file cannot be given the owner and group of the
	// one it replaces.
	ErrOwner = errors.New("its owner and group cannot be kept")
)

// maxLinks bounds the symlinks Resolve follows, as the kernel does.
const maxLinks = 40

// WriteOptions change what Replace refuses.
type WriteOptions struct {
	// InPlace writes a file that has other hard links in place (the same
	// file, truncated and rewritten) instead of refusing it: the links
	// keep seeing it, but a reader may see it half written.
	InPlace bool
}

// Target is a file a command reads and replaces, or only writes: its
// path resolved once, through symlinks, to a folder held open and a name
// in it. Whatever later happens to the links or folders of the path, the
// file read (Read) is the file found then, and Replace writes only while
// the name still holds that file (same device and inode) or, when there
// was none, still holds nothing.
type Target struct {
	path string   // as given, for messages
	dir  *os.Root // the folder the file is in
	name string   // its name there
	full string   // the folder's path joined with the name
	info fs.FileInfo
}

// Resolve follows path through its symlinks to the file they name, which
// need not exist, and holds its folder open. A path that exists and is
// not a regular file is refused (*NotRegularError), and so is a folder
// that cannot be opened. Close releases the folder.
func Resolve(path string) (*Target, error) {
	full, err := resolve(path)
	if err != nil {
		return nil, writeError(path, err)
	}
	dir, err := os.OpenRoot(filepath.Dir(full))
	if err != nil {
		return nil, writeError(path, unwrap(err))
	}
	t := &Target{path: path, dir: dir, name: filepath.Base(full), full: full}
	info, err := dir.Lstat(t.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		_ = dir.Close()
		return nil, writeError(path, unwrap(err))
	case info.Mode()&fs.ModeSymlink != 0:
		// A link made since resolve read the path: the path is changing
		// under the command.
		_ = dir.Close()
		return nil, writeError(path, ErrChanged)
	case !info.Mode().IsRegular():
		_ = dir.Close()
		return nil, writeError(path, leftAlone(info.Mode()))
	default:
		t.info = info
	}
	return t, nil
}

// Close releases the folder the target holds.
func (t *Target) Close() error { return t.dir.Close() }

// Name is the path of the file the target resolved to: the folder as
// resolved, and the file's name.
func (t *Target) Name() string { return t.full }

// Mode is the permissions of the file resolved; 0644, which a new file
// gets, when there was none.
func (t *Target) Mode() fs.FileMode {
	if t.info == nil {
		return 0o644
	}
	return t.info.Mode().Perm()
}

// Exists reports whether the path named a file when it was resolved.
func (t *Target) Exists() bool { return t.info != nil }

// Read reads the file resolved, and no more than limit bytes of it (a
// larger file is refused with ErrTooLarge): the file found when the path
// was resolved, or an error wrapping ErrChanged when its name holds
// another one now.
func (t *Target) Read(limit int64) ([]byte, error) {
	if t.info == nil {
		return nil, &fs.PathError{Op: "open", Path: t.path, Err: fs.ErrNotExist}
	}
	f, err := t.dir.OpenFile(t.name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(info, t.info) {
		return nil, fmt.Errorf("%w (another file was put in its place)", ErrChanged)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w of %d bytes", ErrTooLarge, limit)
	}
	return data, nil
}

// WriteError is a refused or failed write: the path as given, what went
// wrong, and whether the file may have been changed (only by a write in
// place that failed part way).
type WriteError struct {
	Path    string
	Err     error
	Partial bool
}

func (e *WriteError) Error() string {
	return "cannot write " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns what went wrong.
func (e *WriteError) Unwrap() error { return e.Err }

func writeError(path string, err error) error {
	return &WriteError{Path: path, Err: err}
}

// Check refuses, from the file as it was resolved, what Replace would
// refuse: a read-only file, and a file with other hard links unless
// opts.InPlace. A path that named nothing passes.
func (t *Target) Check(opts WriteOptions) error {
	if t.info == nil {
		return nil
	}
	if err := replaceable(t.info, opts); err != nil {
		return writeError(t.path, err)
	}
	return nil
}

// replaceable says why the file of info is not to be replaced, or nil.
func replaceable(info fs.FileInfo, opts WriteOptions) error {
	if !writable(info) {
		return fmt.Errorf("%w (mode %04o), and is left as it is: make it writable if it is meant to be replaced", ErrReadOnly, info.Mode().Perm())
	}
	if n := links(info); n > 1 && !opts.InPlace {
		other := "1 other hard link"
		if n > 2 {
			other = fmt.Sprintf("%d other hard links", n-1)
		}
		return fmt.Errorf("%w (%s), which a replacement would leave holding the old contents, and is left as it is: write it in place to keep them (--in-place), or remove the other names", ErrHardLinks, other)
	}
	return nil
}

// Replace writes data to the target: through a temporary file in the
// file's folder and a rename, so that a reader never sees half a file
// and a failed write leaves the old one as it was; with the mode, owner
// and group of the file it replaces (a new file gets 0644 and the
// command's own). Just before the rename, the name must still hold the
// file resolved (or nothing, when there was none), else ErrChanged; a
// read-only file and one with other hard links are refused (Check),
// and a file whose owner and group cannot be given to the new one too
// (ErrOwner). With opts.InPlace, a file with other hard links is
// written in place instead. Every error is a *WriteError, and leaves the
// file as it was, but for a write in place that fails part way.
func (t *Target) Replace(data []byte, opts WriteOptions) error {
	if err := t.replace(data, opts); err != nil {
		var partial *partialError
		if errors.As(err, &partial) {
			return &WriteError{Path: t.path, Err: partial.err, Partial: true}
		}
		return writeError(t.path, err)
	}
	return nil
}

// partialError is a write in place that failed after it began.
type partialError struct{ err error }

func (e *partialError) Error() string { return e.err.Error() }

func (t *Target) replace(data []byte, opts WriteOptions) error {
	if err := t.still(); err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if t.info != nil {
		if err := replaceable(t.info, opts); err != nil {
			return err
		}
		if links(t.info) > 1 {
			return t.inPlace(data)
		}
		mode = t.info.Mode().Perm()
	}
	tmp, tmpName, err := t.temp()
	if err != nil {
		return unwrap(err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = t.dir.Remove(tmpName)
		}
	}()
	for _, step := range []func() error{
		func() error { _, err := tmp.Write(data); return err },
		func() error { return tmp.Chmod(mode) },
		func() error { return keepOwner(tmp, t.info) },
		tmp.Sync,
		tmp.Close,
		// The last look before the rename: the name still holds the
		// file that was read, as it was.
		t.still,
		func() error { return t.dir.Rename(tmpName, t.name) },
	} {
		if err := step(); err != nil {
			return unwrap(err)
		}
	}
	done = true
	return nil
}

// still checks that the target's name holds the file resolved, still
// replaceable as it was, or still nothing.
func (t *Target) still() error {
	info, err := t.dir.Lstat(t.name)
	switch {
	case t.info == nil && errors.Is(err, fs.ErrNotExist):
		return nil
	case t.info == nil && err == nil:
		return fmt.Errorf("%w (a file appeared where there was none)", ErrChanged)
	case err != nil:
		return fmt.Errorf("%w (%w)", ErrChanged, unwrap(err))
	case !os.SameFile(info, t.info):
		return fmt.Errorf("%w (another file, or a link, was put in its place)", ErrChanged)
	}
	return nil
}

// temp creates a new file in the target's folder, beside it.
func (t *Target) temp() (*os.File, string, error) {
	for {
		var b [6]byte
		_, _ = rand.Read(b[:])
		name := "." + t.name + "." + hex.EncodeToString(b[:]) + ".tmp"
		f, err := t.dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
}

// inPlace writes data into the file resolved itself, which keeps its
// other names: opened again by name, it must still be the same file.
func (t *Target) inPlace(data []byte) error {
	f, err := t.dir.OpenFile(t.name, os.O_WRONLY|nonBlock, 0)
	if err != nil {
		return unwrap(err)
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil {
		return unwrap(err)
	}
	if !os.SameFile(info, t.info) {
		return fmt.Errorf("%w (another file was put in its place)", ErrChanged)
	}
	_, err = f.WriteAt(data, 0)
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		return &partialError{unwrap(err)}
	}
	return nil
}

// WriteFile resolves path and replaces it with data (Resolve, Replace).
func WriteFile(path string, data []byte, opts WriteOptions) error {
	t, err := Resolve(path)
	if err != nil {
		return err
	}
	defer func() { _ = t.Close() }()
	return t.Replace(data, opts)
}

// CheckOutput refuses, from its path alone, an output that Replace would
// refuse as it is now: not a regular file, read-only, or with other hard
// links (unless opts.InPlace). A path that names nothing, or cannot be
// examined, passes: writing it says what is wrong.
func CheckOutput(path string, opts WriteOptions) error {
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if err := leftAlone(info.Mode()); err != nil {
		return writeError(path, err)
	}
	if err := replaceable(info, opts); err != nil {
		return writeError(path, err)
	}
	return nil
}

// leftAlone is Check's refusal of what is not a regular file, saying it
// is left as it is.
func leftAlone(mode fs.FileMode) error {
	err := Check(mode)
	if err == nil || mode.IsDir() {
		return err
	}
	return fmt.Errorf("%w, and is left as it is", err)
}

// resolve follows path through its symlinks to the file they name, which
// need not exist. A relative link is read from the link's own folder.
func resolve(path string) (string, error) {
	for range maxLinks {
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
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
