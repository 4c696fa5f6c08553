// Package policytest holds what the tests of the server and of kokua-run
// share: two versions of one config, compiled in process as kokua-compile
// compiles them, the questions worth asking of a policy, and the small
// file and JSON helpers around a policy. Only tests import it.
package policytest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// ConfigA is a config in which the coder's compute.run_command goes to
// review.
const ConfigA = `# Version A: the coder's run_command goes to review.
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

// ConfigB is ConfigA with the coder's compute.run_command asking the user.
const ConfigB = `# Version B: the coder's run_command asks the user.
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
confirm = ["compute.run_command"]
review = []
`

// AskRunCommand asks POST /v1/decide about the coder's run_command.
const AskRunCommand = `{"agent":"coder","tool":"compute.run_command"}`

var (
	compiled   = map[string][]byte{}
	compiledMu sync.Mutex
)

// Compile compiles a config in process, as kokua-compile does, once per
// config.
func Compile(t testing.TB, config string) []byte {
	t.Helper()
	compiledMu.Lock()
	defer compiledMu.Unlock()
	if out, ok := compiled[config]; ok {
		return out
	}
	doc, ds, err := compile.Compile([]byte(config), nil, compile.Options{})
	if err != nil {
		t.Fatalf("the test config has errors: %v\n%v", err, ds)
	}
	out, err := policy.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	compiled[config] = out
	return out
}

// Tamper changes one byte of a policy's content, so that its digest no
// longer matches.
func Tamper(t testing.TB, data []byte) []byte {
	t.Helper()
	out := bytes.Replace(data, []byte(`"max_per_turn": 5`), []byte(`"max_per_turn": 6`), 1)
	if bytes.Equal(out, data) {
		t.Fatal("tamper: nothing to change")
	}
	return out
}

// File writes data to a fresh folder and returns the file's path.
func File(t testing.TB, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// WaitFor asks cond every 5 ms until it holds, or fails the test once
// the time the test binary has is nearly out (internal/testing/patience,
// at least ten seconds): a fixed bound failed on a loaded machine where
// nothing was wrong. It waits for what cond observes, never for a time.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	wait := patience.Timeout(t, 10*time.Second)
	deadline := time.After(wait)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline:
			t.Fatalf("timed out waiting %v for %s", wait, what)
		case <-tick.C:
		}
	}
}

// Questions are agent, tool pairs worth asking of a policy: every agent,
// a composed worker and an unknown agent, about a tool of every toolset
// (qualified and bare), a core tool, and tools that do not exist.
func Questions(p *policy.Policy) [][2]string {
	doc := p.Document()
	agents := []string{"nobody", kokua.ComposedPrefix + "worker"}
	for name := range doc.Agents {
		agents = append(agents, name)
	}
	sort.Strings(agents)
	tools := []string{"no_such_tool", "fs.no_such_tool", "core." + kokua.LoadTools, kokua.SpawnSubagent, "x<y>&z", "caf\u00e9.\u2028"}
	for _, ts := range doc.TrustOrder {
		if t := doc.Toolsets[ts]; t != nil && len(t.Tools) > 0 {
			tools = append(tools, ts+"."+t.Tools[0].Name, t.Tools[len(t.Tools)-1].Name)
		}
	}
	var qs [][2]string
	for _, a := range agents {
		for _, t := range tools {
			qs = append(qs, [2]string{a, t})
		}
	}
	return qs
}

// Decoded is a JSON text decoded to Go values, numbers kept as written, for
// comparing two texts by what they hold.
func Decoded(t testing.TB, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
