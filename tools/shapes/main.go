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
// Each gives n findings (internal/testing/gen). And those of issue 37,
// whose risk paths, diff and policy tests once cost the square of their
// size (kokua-compile risks, diff, report and test):
//
//	risk-chain.toml             a chain of n agents: the first reads the web, the last runs code
//	risk-chain-everywhere.toml  the same, every agent reading the web
//	risk-diamond.toml           n/3 levels of two agents, each delegating to both of the next
//	risk-*.old.toml             each of the three reading nothing: the old side of a diff
//	failing-claims.toml         n claims of every agent and tool that every pair fails
//	                            (kokua-compile test examples/shipped.config.toml failing-claims.toml)
//	bare-entries.toml           n bare "run_command" review entries, one a line, each a
//	                            finding with one safe fix (kokua-lint, --fix, --diff)
//
//	go run ./tools/shapes [-n 3000] DIR
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
		{"bare-entries.toml", gen.BareEntries(*n)},
		{"failing-claims.toml", []byte(strings.Repeat("[[expect]]\nagent = \"*\"\ntool = \"*\"\ndecision = \"denied\"\n\n", *n))},
	}
	for name, data := range map[string][]byte{
		"risk-chain": gen.RiskChain(*n, false), "risk-chain-everywhere": gen.RiskChain(*n, true), "risk-diamond": gen.RiskDiamond(max(*n/3, 1)),
	} {
		files = append(files, struct {
			name string
			data []byte
		}{name + ".toml", data}, struct {
			name string
			data []byte
		}{name + ".old.toml", bytes.ReplaceAll(data, []byte(`"web"`), []byte(`"time"`))})
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
