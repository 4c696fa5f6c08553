package compile_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/policy"
)

// TestToolBlockFigures reproduces the figures of R192 from a manifest of
// known spec sizes: the shipped entry agent's tool block is 16,244 bytes
// for 19 tools resident and 30,560 bytes all resident, 46.8% smaller. All
// resident it holds 36 tools, one short of the 37 the spec measured (A12).
func TestToolBlockFigures(t *testing.T) {
	raw, _ := compileDir(t, filepath.Join("..", "testdata", "compile", "tool-block"))
	var doc policy.Document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Agents["assistant"].ToolBlock
	want := policy.ToolBlock{ResidentBytes: 16244, ResidentTools: 19, AllResidentBytes: 30560, AllResidentTools: 36, SavedPercent: 46.8}
	if got == nil || *got != want {
		t.Fatalf("tool block %+v, want %+v", got, want)
	}
	// The workers' sizes are known too, and with nothing deferred nothing is saved.
	if tb := doc.Agents["coder"].ToolBlock; tb == nil || tb.SavedPercent != 0 || tb.ResidentBytes != tb.AllResidentBytes {
		t.Errorf("coder defers nothing, yet its tool block is %+v", tb)
	}
}

// TestToolBlockUnknown: without spec sizes the block size is unknown, not 0.
func TestToolBlockUnknown(t *testing.T) {
	raw, _ := compileDir(t, filepath.Join("..", "testdata", "compile", "shipped"))
	var doc policy.Document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if tb := doc.Agents["assistant"].ToolBlock; tb != nil {
		t.Errorf("the default manifest gives no spec sizes, yet the tool block is %+v", tb)
	}
}
