// Command kokua-compile writes the resolved tool-access policy of a Kokua
// config.toml as one deterministic JSON document, or shows each agent's
// resolved access (kokua-compile agents).
package main

import "os"

func main() {
	os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
