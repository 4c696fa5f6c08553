package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Two versions of one config: in A the coder's compute.run_command goes to
// review, in B it asks the user.
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

const configB = `# Version B: the coder's run_command asks the user.
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

var (
	compiled   = map[string][]byte{}
	compiledMu sync.Mutex
)

// compilePolicy compiles a config in process, as kokua-compile does.
func compilePolicy(t testing.TB, config string) []byte {
	t.Helper()
	compiledMu.Lock()
	defer compiledMu.Unlock()
	if out, ok := compiled[config]; ok {
		return out
	}
	src := lint.Source{Name: "config.toml", Data: []byte(config)}
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
	compiled[config] = out
	return out
}

func digestOf(t testing.TB, data []byte) string {
	t.Helper()
	p, err := policy.Parse("test", data)
	if err != nil {
		t.Fatal(err)
	}
	return p.Document().Digest
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

// replace puts data in place of the file as kokua-compile does: a
// temporary file renamed over it.
func replace(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := compile.WriteAtomic(path, data); err != nil {
		t.Fatal(err)
	}
}

func newServer(t testing.TB, data []byte) (*Server, string) {
	t.Helper()
	path := policyFile(t, data)
	s, err := New(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

// do sends one request to the handler.
func do(t testing.TB, h http.Handler, method, target, body string) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, target, r))
	return w
}

func decideBody(agent, tool string, unattended bool) string {
	b, _ := json.Marshal(map[string]any{"agent": agent, "tool": tool, "unattended": unattended})
	return string(b)
}

// errorOf checks that a response is an error object of the given status
// and code, and carries no decision.
func errorOf(t testing.TB, w *httptest.ResponseRecorder, status int, code string) string {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d, want %d; body %s", w.Code, status, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	var body map[string]map[string]any
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("error body is not JSON: %v: %s", err, w.Body)
	}
	if len(body) != 1 || body["error"] == nil {
		t.Fatalf("error body %s: want {\"error\": {...}} only", w.Body)
	}
	e := body["error"]
	if e["status"] != float64(status) || e["code"] != code || e["message"] == "" {
		t.Fatalf("error %v: want status %d, code %q and a message", e, status, code)
	}
	if strings.Contains(w.Body.String(), `"decision"`) {
		t.Fatalf("an error answered a decision: %s", w.Body)
	}
	if w.Header().Get(DigestHeader) != "" {
		t.Errorf("an error carries %s", DigestHeader)
	}
	return e["message"].(string)
}
