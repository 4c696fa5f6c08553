// Command shapes writes the inputs of issue 18 whose findings once cost
// the square of their size, for timing kokua-lint on them as a whole
// process (scripts/bench.sh):
//
//	unknown-delegates.toml  n agents, each delegating to an agent nobody declares
//	pending-dead.toml       n agents that could load 'mcp' and n confirm entries under it naming no tool
//	dead-line.toml          n dead entries on one line
//	near-miss.toml          n misspelt tool names, checked against near-miss.manifest.json,
//	                        one toolset of the n tools (kokua-lint --manifest near-miss.manifest.json)
//
// Each gives n findings (internal/testing/gen).
//
//	go run ./tools/shapes [-n 3000] DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
)

func main() {
	n := flag.Int("n", 3000, "how many findings each shape gives")
	flag.Parse()
	if flag.NArg() != 1 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: shapes [-n N] DIR (N at least 1)")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	nearMiss, manifest := gen.NearMissManifest(*n)
	files := []struct {
		name string
		data []byte
	}{
		{"unknown-delegates.toml", gen.UnknownDelegates(*n)},
		{"pending-dead.toml", gen.PendingDeadEntries(*n, *n)},
		{"dead-line.toml", gen.DeadLine(*n)},
		{"near-miss.toml", nearMiss},
		{"near-miss.manifest.json", manifest},
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "shapes:", err)
		os.Exit(1)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "shapes:", err)
			os.Exit(1)
		}
	}
}
