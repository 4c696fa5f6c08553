package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// configA is a config whose coder's compute.run_command goes to review.
const configA = `# Version A: the coder's run_command goes to review.
[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = []

[agents.assistant]
delegates_to = ["coder"]

[agents.assistant.tools]
available = ["time", "fs"]

[agents.coder.tools]
available = ["compute", "fs", "time"]
confirm = []
review = ["compute.run_command"]
`

// askRunCommand asks POST /v1/decide about the coder's run_command.
const askRunCommand = `{"agent":"coder","tool":"compute.run_command"}`

var (
	policyA     []byte
	policyAOnce sync.Once
)

// compilePolicyA compiles configA in process, as kokua-compile does, once.
func compilePolicyA(t testing.TB) []byte {
	t.Helper()
	policyAOnce.Do(func() {
		src := lint.Source{Name: "config.toml", Data: []byte(configA)}
		m := lint.DefaultManifest()
		res := lint.Lint(src, m)
		if res.HasErrors() || res.World == nil {
			t.Fatalf("the test config has errors: %v", res.Diagnostics)
		}
		doc := compile.Compile(res.World, compile.Input{Name: src.Name, Data: src.Data},
			compile.Input{Name: m.Source.Name, Data: m.Source.Data})
		out, err := policy.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		policyA = out
	})
	if policyA == nil {
		t.Fatal("configA did not compile")
	}
	return policyA
}

// tamper changes one byte of a policy's content, so that its digest no
// longer matches.
func tamper(t testing.TB, data []byte) []byte {
	t.Helper()
	out := bytes.Replace(data, []byte(`"max_per_turn": 5`), []byte(`"max_per_turn": 6`), 1)
	if bytes.Equal(out, data) {
		t.Fatal("tamper: nothing to change")
	}
	return out
}

// policyFile writes data to a fresh directory and returns the file's path.
func policyFile(t testing.TB, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// waitFor polls until cond holds or the time is up.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
