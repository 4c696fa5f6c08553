// Command kokua-lint checks Kokua's config.toml offline, against a registry
// manifest, for every problem Kokua would find at startup or at a toolset's
// first load, and reports them all at once.
package main

import (
	"os"

	// A lint run reaches a 16 KiB stack: grown to it before any package
	// with a deep init runs.
	_ "github.com/kokua-policy/kokua-policy/cmd/internal/earlystack"
)

func main() {
	os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
