package cli

import "unsafe"

// GrowStack grows the calling goroutine's stack, once and while it is
// shallow, by a frame of type Frame: an array of the bytes to reserve.
// A command's main calls it before its run, with the frame its run needs
// (measured with a probe on runtime.copystack, docs/benchmarks.md). Left
// to itself, a goroutine's stack doubles each time a call does not fit,
// and Go then copies every frame of the stack so far, reading each
// function's tables from the binary: in the middle of a lint run, with
// the deep stack of the rules, that cost a fifth of a millisecond of a
// nine-millisecond process. Here there is almost nothing to copy.
//
//go:noinline
func GrowStack[Frame any]() {
	var frame Frame
	keep(unsafe.Pointer(&frame))
}

// keep takes the frame's address, so that the compiler keeps the frame.
//
//go:noinline
func keep(unsafe.Pointer) {}
