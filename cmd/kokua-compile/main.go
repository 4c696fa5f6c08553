// Command kokua-compile writes the resolved tool-access policy of a Kokua
// config.toml as one deterministic JSON document, or shows each agent's
// resolved access (kokua-compile agents).
package main

import (
	"os"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	// The stack is 16 KiB before any deep package initialization ...
	_ "github.com/kokua-policy/kokua-policy/cmd/internal/earlystack"
)

func main() {
	// ... and a compile reaches 32 KiB: grow to it now, while shallow.
	cli.GrowStack[[24 << 10]byte]()
	os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
