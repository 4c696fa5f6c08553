package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/internal/testing/reference"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// corpusCase is one folder of testdata/run: a config (and manifest), the
// requests with their expected decisions, and session scripts.
type corpusCase struct {
	dir              string
	config, manifest []byte
	policyPath       string
}

func cases(t *testing.T) []*corpusCase {
	t.Helper()
	dirs := golden.Cases(t, "run")
	var out []*corpusCase
	for _, dir := range dirs {
		c := &corpusCase{dir: dir}
		var err error
		if c.config, err = os.ReadFile(filepath.Join(dir, "config.toml")); err != nil {
			t.Fatal(err)
		}
		m := lint.DefaultManifest()
		if data, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err == nil {
			m = lint.LoadManifest(lint.Source{Name: "manifest.json", Data: data})
		}
		c.manifest = m.Source.Data
		res := engine.Run(lint.Source{Name: "config.toml", Data: c.config}, m)
		if res.HasErrors() {
			t.Fatalf("%s does not lint clean: %v", dir, res.Diagnostics)
		}
		doc, err := policy.Marshal(engine.Compile(res.World, engine.Source{Name: "config.toml", Data: c.config},
			engine.Source{Name: m.Source.Name, Data: m.Source.Data}))
		if err != nil {
			t.Fatal(err)
		}
		c.policyPath = filepath.Join(t.TempDir(), "policy.json")
		if err := os.WriteFile(c.policyPath, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

type request struct {
	line        string
	agent, tool string
	unattended  bool
	want        policy.Decision
}

func requests(t *testing.T, dir string) []request {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "requests.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []request
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ask, want, ok := strings.Cut(line, "=>")
		f := strings.Fields(ask)
		if !ok || len(f) < 2 || len(f) > 3 || (len(f) == 3 && f[2] != "unattended") {
			t.Fatalf("%s: bad request line %q (want: agent tool [unattended] => decision)", dir, line)
		}
		out = append(out, request{line: line, agent: f[0], tool: f[1], unattended: len(f) == 3,
			want: policy.Decision(strings.TrimSpace(want))})
	}
	return out
}

// referenceAnswers maps the runtime's decisions onto the reference
// evaluator's, which answers attended turns of declared agents only.
var referenceAnswers = map[policy.Decision]string{
	policy.Unavailable: reference.Unavailable, policy.NotLoaded: reference.Loadable, policy.Run: reference.Run,
	policy.Confirm: reference.Confirm, policy.Review: reference.Review,
}

// TestDecisionCorpus asks every request of testdata/run of the runtime and
// of the reference evaluator. The expected decisions are written by hand
// in requests.txt; the full answers with their reasons are golden in
// want.txt (go test ./cmd/kokua-run -update rewrites it).
func TestDecisionCorpus(t *testing.T) {
	for _, c := range cases(t) {
		t.Run(filepath.Base(c.dir), func(t *testing.T) {
			p, err := policy.Load(c.policyPath)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := reference.New(c.config, c.manifest)
			if err != nil {
				t.Fatal(err)
			}
			var answers bytes.Buffer
			for _, r := range requests(t, c.dir) {
				a := p.Decide(r.agent, r.tool, policy.Turn{Unattended: r.unattended})
				if a.Decision != r.want {
					t.Errorf("%s: the runtime says %s (%s)", r.line, a.Decision, a.Reason.Summary)
				}
				bare := r.tool
				if _, tool, ok := strings.Cut(r.tool, "."); ok {
					bare = tool
				}
				if want, ok := referenceAnswers[r.want]; ok && !r.unattended && !strings.Contains(r.tool, ".") && p.Document().Agents[r.agent] != nil {
					if got := ref.Answer(r.agent, bare); got != want {
						t.Errorf("%s: the reference evaluator says %s", r.line, got)
					}
				}
				js, err := json.Marshal(a)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&answers, "%s\n  %s\n", r.line, js)
			}
			golden.Check(t, filepath.Join(c.dir, "want.txt"), answers.Bytes())
		})
	}
}

// TestSessionScripts runs every *.session script of testdata/run through
// kokua-run session and compares the transcript with <script>.want. A
// first line "#! --preload a,b" preloads those toolsets.
func TestSessionScripts(t *testing.T) {
	n := 0
	for _, c := range cases(t) {
		scripts, _ := filepath.Glob(filepath.Join(c.dir, "*.session"))
		for _, script := range scripts {
			n++
			t.Run(filepath.Base(c.dir)+"/"+filepath.Base(script), func(t *testing.T) {
				data, err := os.ReadFile(script)
				if err != nil {
					t.Fatal(err)
				}
				args := []string{"session"}
				if first, _, _ := strings.Cut(string(data), "\n"); strings.HasPrefix(first, "#! --preload ") {
					args = append(args, "--preload", strings.TrimPrefix(first, "#! --preload "))
				}
				code, out, errs := clitest.Run(Main, "kokua-run", string(data), append(args, c.policyPath, "assistant")...).Split()
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				golden.Check(t, script+".want", []byte(out))
			})
		}
	}
	if n == 0 {
		t.Fatal("no session scripts under testdata/run")
	}
}
