// Command kokua-lint checks Kokua's config.toml offline, against a registry
// manifest, for every problem Kokua would find at startup or at a toolset's
// first load, and reports them all at once.
package main

import "os"

func main() {
	os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
