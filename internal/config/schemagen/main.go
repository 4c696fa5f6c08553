// Command schemagen writes the editor schema of config.toml, generated
// from config.Schema, to each file named on its command line. go generate
// runs it (see internal/config/jsonschema.go and internal/lsp/schema.go).
package main

import (
	"fmt"
	"os"

	"github.com/kokua-policy/kokua-policy/internal/config"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: schemagen FILE...")
		os.Exit(2)
	}
	data, err := config.JSONSchema()
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
	for _, path := range os.Args[1:] {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "schemagen:", err)
			os.Exit(1)
		}
	}
}
