package compile_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// toolBlockDoc compiles testdata/compile/tool-block with its manifest's
// spec sizes of 500 bytes replaced by size.
func toolBlockDoc(t *testing.T, size string) *policy.Document {
	t.Helper()
	return compileToolBlock(t, size, 0)
}

// compileToolBlock is toolBlockDoc, with the spec sizes of 500 bytes set to
// force (when it is not 0) in the manifest the linter has read: sizes the
// manifest reader refuses, which only a program that builds its own
// manifest.Manifest can give Compile.
func compileToolBlock(t *testing.T, size string, force int) *policy.Document {
	t.Helper()
	dir := filepath.Join("..", "testdata", "compile", "tool-block")
	cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte(`"spec_bytes": 500`), []byte(`"spec_bytes": `+size))
	m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: data})
	res := engine.Run(lint.Source{Name: "config.toml", Data: cfg}, m)
	if res.HasErrors() || res.World == nil {
		t.Fatalf("does not lint clean: %v", res.Diagnostics)
	}
	if force != 0 {
		for _, ts := range res.World.Manifest.Toolsets {
			for _, tool := range ts.Tools {
				if tool.SpecBytes == 500 {
					tool.SpecBytes = force
				}
			}
		}
	}
	return engine.Compile(res.World, engine.Source{Name: "config.toml", Data: cfg}, engine.Source{Name: "manifest.json", Data: data})
}

// TestToolBlockOverflow: spec sizes whose sum overflows an int give no
// tool block rather than a wrapped one (issue 13, Why 5: saved_percent
// was 2.56e19), and Write refuses the sizes themselves, as the runtime
// would. The manifest reader refuses such sizes (an invalid-manifest
// finding, internal/manifest's TestSpecBytesRange), so they are set in
// the manifest after it is read, as a program building its own would.
func TestToolBlockOverflow(t *testing.T) {
	doc := compileToolBlock(t, "500", 1<<62) // two of them overflow
	for name, a := range doc.Agents {
		if b := a.ToolBlock; b != nil && (b.ResidentBytes < 0 || b.AllResidentBytes < 0 || b.SavedPercent > 100 || b.SavedPercent < -1e6) {
			t.Errorf("%s: tool block %+v", name, *b)
		}
	}
	if _, err := compile.Write(doc, nil); err == nil || !strings.Contains(err.Error(), "is not between 0 and 1073741824") {
		t.Errorf("Write = %v", err)
	}
	// Sizes within the bound are written, and the runtime loads them.
	out, err := compile.Write(toolBlockDoc(t, "1073741824"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := policy.Parse("policy.json", out); err != nil {
		t.Errorf("the runtime refuses what Write wrote: %v", err)
	}
}

// TestWriteSizeCap: Write refuses a policy over policy.MaxBytes with its
// size, rather than write one every runtime refuses (issue 13, Why 5: a
// 5 MB config compiled to a 69 MB policy).
func TestWriteSizeCap(t *testing.T) {
	doc := toolBlockDoc(t, "500")
	out, err := compile.Write(doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer compile.SetMaxBytes(len(out) - 1)()
	_, err = compile.Write(doc, nil)
	want := fmt.Sprintf("no runtime would load its policy: it is %d bytes", len(out))
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "over the 64 MiB a runtime reads") {
		t.Errorf("Write = %v, want %q", err, want)
	}
	compile.SetMaxBytes(len(out))
	if _, err := compile.Write(doc, nil); err != nil {
		t.Errorf("a policy of exactly the limit: %v", err)
	}
}

// TestWriteRefusesInfinity: a timeout_seconds of inf, which TOML writes
// and JSON cannot, is refused with the member's name rather than an
// encoder's error.
func TestWriteRefusesInfinity(t *testing.T) {
	doc := toolBlockDoc(t, "500")
	doc.AutoApproval.TimeoutSeconds = math.Inf(1)
	if _, err := compile.Write(doc, nil); err == nil || !strings.Contains(err.Error(), "auto_approval.timeout_seconds: is +Inf, which JSON cannot write") {
		t.Errorf("Write = %v", err)
	}
}
