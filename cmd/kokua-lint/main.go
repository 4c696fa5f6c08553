// Command kokua-lint checks Kokua's config.toml offline, against a registry
// manifest, for every problem Kokua would find at startup or at a toolset's
// first load, and reports them all at once.
package main

import (
	"os"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
)

func main() {
	// A lint run reaches a 16 KiB stack: grow to it now, while shallow.
	cli.GrowStack[[12 << 10]byte]()
	os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
