//go:build !unix

package regular

import (
	"io/fs"
	"os"
)

// openNonBlocking opens path for reading; outside Unix, the check of the
// path's status before it is what keeps a special file from being opened.
func openNonBlocking(path string) (*os.File, error) {
	return os.Open(path)
}

// nonBlock is 0 outside Unix: Read's check of the file's status is what
// keeps a special file from being read.
const nonBlock = 0

// writable reports whether the file's mode lets its owner write it: the
// read-only attribute, outside Unix.
func writable(info fs.FileInfo) bool { return info.Mode().Perm()&0o200 != 0 }

// links is 1 outside Unix: hard links are not counted there.
func links(fs.FileInfo) int64 { return 1 }

// keepOwner does nothing outside Unix, where a file has no owner and
// group the os package can give.
func keepOwner(*os.File, fs.FileInfo) error { return nil }
