// Package regular opens the files the commands read (configs, manifests,
// policies, keys) only when they are regular files, and without
// blocking: a named pipe or a device given as an input is refused at
// once, with a message that says what it is, instead of hanging the
// command until something writes to it.
//
// It depends on the standard library only.
package regular

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is what every refusal of a file that is not a regular file
// wraps.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError says what a refused file is instead.
type NotRegularError struct {
	// Kind is what the file is: "a directory", "a named pipe (FIFO)", ...
	Kind string
}

func (e *NotRegularError) Error() string {
	if e.Kind == "a directory" {
		return "it is a directory"
	}
	return "it is " + e.Kind + ", not a regular file"
}

// Unwrap returns ErrNotRegular.
func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// Check refuses a file mode that is not a regular file's.
func Check(mode fs.FileMode) error {
	if mode.IsRegular() {
		return nil
	}
	return &NotRegularError{Kind: Kind(mode)}
}

// Kind names what a file that is not regular is, as messages say it:
// "a directory", "a named pipe (FIFO)", "a character device".
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return fmt.Sprintf("a special file (%v)", mode.Type())
}

// Stat refuses, by its status alone and without opening it, a path that
// is missing or is not a regular file (a symbolic link is followed). The
// error is an *fs.PathError, or a *NotRegularError.
func Stat(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	return Check(info.Mode())
}

// Open opens a regular file for reading. The path's status is checked
// before it is opened, so that a named pipe or a device is never opened;
// the open itself does not block (on Unix, O_NONBLOCK), and what was
// opened is checked again, so that a file swapped for a pipe in between
// is refused too. Reads of the regular file it returns behave as usual.
func Open(path string) (*os.File, error) {
	if err := Stat(path); err != nil {
		return nil, err
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil {
		err = Check(info.Mode())
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// ErrTooLarge is what ReadFile returns, wrapped, for a file over its
// limit.
var ErrTooLarge = errors.New("larger than the limit")

// ReadFile reads a regular file opened with Open, and no more than limit
// bytes of it: a larger file is refused with an error that wraps
// ErrTooLarge.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var b bytes.Buffer
	if info, err := f.Stat(); err == nil && info.Size() <= limit {
		// Room for the file as it is now and for the read that finds its
		// end: one allocation and two reads, where growing from nothing
		// takes a read and a larger buffer for every few hundred bytes.
		b.Grow(int(info.Size()) + bytes.MinRead)
	}
	if _, err := b.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	data := b.Bytes()
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w of %d bytes", ErrTooLarge, limit)
	}
	return data, nil
}
