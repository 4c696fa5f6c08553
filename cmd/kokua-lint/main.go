// Command kokua-lint checks Kokua's config.toml offline, against a registry
// manifest, for every problem Kokua would find at startup or at a toolset's
// first load, and reports them all at once.
package main

import "os"

func main() {
	growStack()
	os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// growStack grows the main goroutine's stack, once and while it is
// shallow, to the 16 KiB a lint run reaches. Left to itself, the stack
// doubles from 8 KiB in the middle of the run, and Go then copies every
// frame of the deep stack, reading each function's tables from the
// binary: a fifth of a millisecond of a nine-millisecond run
// (docs/benchmarks.md). A frame of 12 KiB does not fit in 8 KiB, so Go
// grows the stack here, where there is nothing to copy.
//
//go:noinline
func growStack() byte {
	var frame [12 << 10]byte
	return keep(frame[:])
}

// keep reads the frame so that the compiler keeps it.
//
//go:noinline
func keep(b []byte) byte { return b[len(b)-1] }
