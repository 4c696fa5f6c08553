package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExample: the README's example is what kokua-lint prints for
// the shipped config with tool-access.md's misspelled entry.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```text\n$ kokua-lint config.toml\n")
	want, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("the README has no kokua-lint example")
	}
	shipped, err := os.ReadFile(filepath.Join("..", "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := bytes.Replace(shipped, []byte(`"mcp.add_mcp_server", "config`), []byte(`"mcp.add_mcp_servr", "config`), 1)
	res := Lint(Source{Name: "config.toml", Data: cfg}, DefaultManifest())
	var got bytes.Buffer
	if err := Write(&got, "human", res.Diagnostics, WriteOptions{Sources: map[string][]byte{"config.toml": cfg}}); err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Errorf("the README's example differs from the output:\n--- printed\n%s--- README\n%s", got.String(), want)
	}
}
