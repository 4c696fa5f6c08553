package compile_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/kokua"
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

// TestCompileInputs: Compile names its inputs as Options say, in the
// diagnostics and in the document, with the documented defaults; a config
// that is not TOML, or a manifest that does not follow the format, gives
// no document, an error wrapping ErrFindings and the finding that says why.
func TestCompileInputs(t *testing.T) {
	good := []byte("[assistant]\nagent = \"assistant\"\n\n[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant.tools]\navailable = [\"fs\"]\n")
	cases := []struct {
		name             string
		config, manifest []byte
		opts             compile.Options
		// wantFiles are the document's inputs; wantRule, when set, the
		// first finding's rule and file of a refused config.
		wantFiles          [2]string
		wantRule, wantFile string
	}{
		{name: "defaults", config: good, wantFiles: [2]string{"config.toml", "<default install>"}},
		{name: "named", config: good, opts: compile.Options{ConfigName: "agents/config.toml", ManifestName: "install"},
			wantFiles: [2]string{"agents/config.toml", "install"}},
		{name: "not TOML", config: []byte("[assistant\n"), opts: compile.Options{ConfigName: "broken.toml"},
			wantRule: "invalid-toml", wantFile: "broken.toml"},
		{name: "bad manifest", config: good, manifest: []byte(`{"toolsets": 3}`),
			wantRule: "invalid-manifest", wantFile: "kokua.manifest.json"},
		{name: "bad manifest named", config: good, manifest: []byte(`[]`), opts: compile.Options{ManifestName: "m.json"},
			wantRule: "invalid-manifest", wantFile: "m.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, ds, err := compile.Compile(c.config, c.manifest, c.opts)
			if c.wantRule == "" {
				if err != nil || doc == nil {
					t.Fatalf("Compile: %v, %v", err, ds)
				}
				if got := [2]string{doc.Inputs.Config.File, doc.Inputs.Manifest.File}; got != c.wantFiles {
					t.Errorf("the document records %q, want %q", got, c.wantFiles)
				}
				return
			}
			if doc != nil || !errors.Is(err, compile.ErrFindings) {
				t.Fatalf("Compile gave a document %v and error %v, want none and ErrFindings", doc != nil, err)
			}
			if len(ds) == 0 || ds[0].Rule != c.wantRule || ds[0].Span.File != c.wantFile {
				t.Fatalf("findings %v, want %s in %s first", ds, c.wantRule, c.wantFile)
			}
			if !strings.Contains(err.Error(), c.wantRule) {
				t.Errorf("the error %q does not name the first finding", err)
			}
		})
	}
}

// TestReviewerRecordsWhatRuns: the policy records what each reviewer runs
// with, not what its table writes. A reviewer that sets no model runs on
// [assistant].model (R144) and one that sets no thinking inherits
// [assistant].thinking (R143): the value is recorded with its source,
// "inherited"; "declared" for the reviewer's own value, and "builtin",
// with "", when neither writes it. thinking and generation are recorded
// in one TOML form, whatever form the config writes them in.
func TestReviewerRecordsWhatRuns(t *testing.T) {
	head := "[assistant]\nagent = \"assistant\"\n%s\n[assistant.tools]\nconfirm = []\nreview = [\"compute\"]\n\n" +
		"[agents.assistant.tools]\navailable = [\"compute\"]\n\n[security]\nnever_auto_approve = []\n\n[security.auto_approval]\nenabled = true\nreviewers = [\"guard\"]\n\n" +
		"[reviewers.guard]\nsystem_message = \"Approve reads only.\"\n%s"
	for _, tt := range []struct {
		name, assistant, guard string
		want                   policy.Reviewer
	}{
		{"inherited", "model = \"anthropic:claude-sonnet-4-5\"\nthinking = 'high'\n", "generation.temperature = 0.0\n",
			policy.Reviewer{Model: "anthropic:claude-sonnet-4-5", ModelSource: kokua.Inherited, Thinking: `"high"`, ThinkingSource: kokua.Inherited,
				Generation: "{temperature = 0.0}"}},
		{"declared", "model = \"anthropic:claude-sonnet-4-5\"\nthinking = \"high\"\n", "model = \"local:tiny-1b\"\nthinking = false\n[reviewers.guard.generation]\ntemperature = 0.0\n",
			policy.Reviewer{Model: "local:tiny-1b", ModelSource: kokua.Declared, Thinking: "false", ThinkingSource: kokua.Declared,
				Generation: "{temperature = 0.0}"}},
		{"builtin", "", "",
			policy.Reviewer{ModelSource: kokua.Builtin, ThinkingSource: kokua.Builtin}},
	} {
		doc, diags, err := compile.Compile([]byte(fmt.Sprintf(head, tt.assistant, tt.guard)), nil, compile.Options{})
		if err != nil {
			t.Fatalf("%s: %v %v", tt.name, err, diags)
		}
		got := doc.Reviewers["guard"]
		if got == nil {
			t.Fatalf("%s: no reviewer guard", tt.name)
		}
		tt.want.SystemMessage, tt.want.Position = "Approve reads only.", got.Position
		if *got != tt.want {
			t.Errorf("%s: recorded %+v, want %+v", tt.name, *got, tt.want)
		}
		if err := doc.Validate(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
