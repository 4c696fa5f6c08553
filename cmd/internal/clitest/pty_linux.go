//go:build linux

package clitest

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// Terminal opens a pseudo-terminal and returns its terminal side, for a
// test that gives a command a terminal as its standard output (as a
// shell run by a person does); both sides are closed when t ends. The
// test is skipped where no pseudo-terminal can be opened.
func Terminal(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminal here:", err)
	}
	t.Cleanup(func() { _ = ptmx.Close() })
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		t.Skip("cannot unlock the pseudo-terminal:", errno)
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Skip("cannot number the pseudo-terminal:", errno)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("cannot open the pseudo-terminal's terminal side:", err)
	}
	t.Cleanup(func() { _ = tty.Close() })
	return tty
}
