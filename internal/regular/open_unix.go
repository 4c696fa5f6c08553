//go:build unix

package regular

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading with O_NONBLOCK, which makes the
// open of a named pipe return at once rather than wait for a writer.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
