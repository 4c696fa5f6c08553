package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

// TestGraphShipped holds kokua-compile graph of the shipped config to
// docs/shipped-graph.dot (DOT) and testdata/graph/shipped.mmd (Mermaid),
// and the same graph drawn from the compiled policy to the same bytes.
// go test ./cmd/kokua-compile -run TestGraph -update rewrites both, and
// the SVG below.
func TestGraphShipped(t *testing.T) {
	root := golden.Root(t)
	shipped := filepath.Join(root, "examples", "shipped.config.toml")
	policyFile := compileTo(t, shipped, "policy.json")
	for format, want := range map[string]string{
		"dot":     filepath.Join(root, "docs", "shipped-graph.dot"),
		"mermaid": filepath.Join(root, "testdata", "graph", "shipped.mmd"),
	} {
		code, fromConfig, stderr := clitest.Run(Main, "kokua-compile", "", "graph", "--format", format, shipped).Split()
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		golden.Check(t, want, []byte(fromConfig))
		if _, fromPolicy, _ := clitest.Run(Main, "kokua-compile", "", "graph", "--format", format, policyFile).Split(); fromPolicy != fromConfig {
			t.Errorf("%s: the graph of the compiled policy differs from the config's:\n%s", format, fromPolicy)
		}
	}
}

// TestGraphSVG keeps docs/shipped-graph.svg, the picture in the README, in
// step with docs/shipped-graph.dot (which TestGraphShipped keeps in step
// with the command): Graphviz's dot must render the DOT to exactly the
// committed SVG. It needs dot (Debian's graphviz); without it the test is
// skipped, except under CI=true, where .ci/run installs graphviz and a
// missing dot fails.
func TestGraphSVG(t *testing.T) {
	dot := needs.Program(t, "dot", "Debian's graphviz (.ci/run installs it)")
	root := golden.Root(t)
	svg, err := exec.Command(dot, "-Tsvg", filepath.Join(root, "docs", "shipped-graph.dot")).Output()
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join(root, "docs", "shipped-graph.svg"), svg)
}
