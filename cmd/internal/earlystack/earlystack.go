// Package earlystack grows the main goroutine's stack to 16 KiB before any
// package of a command with a deep init runs. A command imports it for that
// effect alone:
//
//	import _ "github.com/kokua-policy/kokua-policy/cmd/internal/earlystack"
//
// Why (docs/benchmarks.md): the main goroutine starts with a 2 KiB stack,
// and internal/godebug's init, the first deep one, doubled it to 4 KiB; a
// lint run then needs 16 KiB. Go takes a stack size's first stack from a
// fresh 32 KiB span of stacks of that size and writes a free-list link into
// each of them, so the 4 KiB step alone touched eight fresh pages of memory,
// then copied the stack again. Growing straight to 16 KiB, while the stack
// holds two frames, skips the steps between.
//
// Why here: Go initializes, at each step, the package first by import path
// among those whose imports are all initialized. This package imports
// nothing but unsafe, so it is ready from the start, and its path sorts
// before "internal/...": it initializes before every package whose init is
// deep. TestFirst holds both.
package earlystack

import "unsafe"

func init() { grow() }

// grow calls with a 12 KiB frame: the stack it needs, with Go's guard,
// rounds up to 16 KiB, the stack a lint run reaches.
//
//go:noinline
func grow() {
	var frame [12 << 10]byte
	keep(unsafe.Pointer(&frame))
}

// keep takes the frame's address, so that the compiler keeps the frame.
//
//go:noinline
func keep(unsafe.Pointer) {}
