package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/config"
)

// TestGenerate runs the go generate step as internal/config's directive
// does, into temporary files, and checks the directive names the two
// committed schemas.
func TestGenerate(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "jsonschema.go"))
	if err != nil {
		t.Fatal(err)
	}
	const directive = "//go:generate go run ./schemagen ../../docs/config.schema.json ../lsp/config.schema.json\n"
	if !bytes.Contains(src, []byte(directive)) {
		t.Fatalf("internal/config/jsonschema.go lacks the directive %q", strings.TrimSpace(directive))
	}
	want, err := config.JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	cmd := exec.Command("go", "run", "./schemagen", a, b)
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./schemagen: %v\n%s", err, out)
	}
	for _, path := range []string{a, b} {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from config.JSONSchema()", filepath.Base(path))
		}
	}
	cmd = exec.Command("go", "run", "./schemagen")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || !strings.Contains(string(out), "usage: schemagen FILE...") {
		t.Errorf("schemagen with no file: err %v, output %q; want a usage error", err, out)
	}
}
