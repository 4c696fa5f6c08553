// Command kokua-compile writes the resolved tool-access policy of a Kokua
// config.toml as one deterministic JSON document, or shows each agent's
// resolved access (kokua-compile agents).
package main

import (
	"os"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
)

func main() {
	// A compile reaches a 32 KiB stack: grow to it now, while shallow.
	cli.GrowStack[[24 << 10]byte]()
	os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
