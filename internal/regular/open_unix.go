//go:build unix

package regular

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openNonBlocking opens path for reading with O_NONBLOCK, which makes the
// open of a named pipe return at once rather than wait for a writer. The
// file it returns blocks again, and so stays out of the runtime's network
// poller: what Open lets through is a regular file, which the poller
// cannot wait on, and os.OpenFile registers every file it opens there (on
// Linux), which cost a one-file lint run a tenth of a millisecond to set
// up.
func openNonBlocking(path string) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		_ = syscall.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// nonBlock opens a file without waiting: Read and the write in place
// open a name that was a regular file, and may find a named pipe there.
const nonBlock = syscall.O_NONBLOCK

// writable reports whether the mode of info lets the one running the
// command write the file: the owner's bit for its owner, the group's for
// a member of its group, the others' for anyone else, and any of them
// for root, which the kernel lets write a file whatever its mode but
// which must not replace a file no one may write (0444).
func writable(info fs.FileInfo) bool {
	perm := info.Mode().Perm()
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return perm&0o222 != 0
	}
	uid := os.Geteuid()
	switch {
	case uid == 0:
		return perm&0o222 != 0
	case uint32(uid) == st.Uid:
		return perm&0o200 != 0
	case inGroup(st.Gid):
		return perm&0o020 != 0
	}
	return perm&0o002 != 0
}

// inGroup reports whether the one running the command is of group gid.
func inGroup(gid uint32) bool {
	if uint32(os.Getegid()) == gid {
		return true
	}
	groups, _ := os.Getgroups()
	for _, g := range groups {
		if uint32(g) == gid {
			return true
		}
	}
	return false
}

// links is the number of names the file of info has.
func links(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int64(st.Nlink)
	}
	return 1
}

// chown is (*os.File).Chown; a test replaces it to stand for a file
// system, or a user, that cannot give a file away.
var chown = (*os.File).Chown

// keepOwner gives f, the new file, the owner and group of the file of
// old, when they differ from those it was created with; nothing for a
// new file. Failing that, the replacement is refused: the service that
// reads the file as its owner or group could no longer read it.
func keepOwner(f *os.File, old fs.FileInfo) error {
	if old == nil {
		return nil
	}
	was, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	info, err := f.Stat()
	if err != nil {
		return err
	}
	now, ok := info.Sys().(*syscall.Stat_t)
	if !ok || now.Uid == was.Uid && now.Gid == was.Gid {
		return nil
	}
	if err := chown(f, int(was.Uid), int(was.Gid)); err != nil {
		return fmt.Errorf("%w (owner %d, group %d): %w, and it is left as it is", ErrOwner, was.Uid, was.Gid, unwrap(err))
	}
	return nil
}
