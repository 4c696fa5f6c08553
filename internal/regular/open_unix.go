//go:build unix

package regular

import (
	"errors"
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
