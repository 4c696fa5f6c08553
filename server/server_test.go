package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"

	"github.com/kokua-policy/kokua-policy/policy"
)

// TestDecideIsPolicyDecide checks that POST /v1/decide answers exactly the
// policy's own answer, one line of JSON, for every compiled policy of the
// compiler's golden cases. (cmd/kokua-run's TestServeIsDecide checks the
// same against what kokua-run decide --format json prints.)
func TestDecideIsPolicyDecide(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/compile/*/want.json")
	if len(paths) == 0 {
		t.Fatal("no compiled policies in ../testdata/compile")
	}
	seen := map[policy.Decision]bool{}
	for _, path := range paths {
		s, err := New(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := s.Handler()
		p, err := policy.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range policytest.Questions(s.Policy()) {
			for _, unattended := range []bool{false, true} {
				w := do(t, h, "POST", "/v1/decide", decideBody(q[0], q[1], unattended))
				var a policy.Answer
				if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil || w.Code != http.StatusOK {
					t.Fatalf("%s: %s %s: %d %s", path, q[0], q[1], w.Code, w.Body)
				}
				seen[a.Decision] = true
				want, err := json.Marshal(p.Decide(q[0], q[1], policy.Turn{Unattended: unattended}))
				if err != nil {
					t.Fatal(err)
				}
				if w.Body.String() != string(want)+"\n" {
					t.Fatalf("%s: %s %s unattended=%v:\n got %s\nwant %s", path, q[0], q[1], unattended, w.Body, want)
				}
				if ct := w.Header().Get("Content-Type"); ct != "application/json" {
					t.Fatalf("Content-Type %q", ct)
				}
				if d := w.Header().Get(DigestHeader); d != s.Policy().Document().Digest {
					t.Fatalf("%s %q, want the policy's digest", DigestHeader, d)
				}
			}
		}
	}
	for _, d := range decisions {
		if !seen[d] {
			t.Errorf("no question answered %s: the comparison does not cover it", d)
		}
	}
}

func TestDecideDefaults(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	// unattended is optional, and null is the same as absent.
	for _, body := range []string{
		`{"agent":"coder","tool":"compute.run_command"}`,
		`{"agent":"coder","tool":"compute.run_command","unattended":null}`,
		" \n{\"tool\": \"compute.run_command\", \"agent\": \"coder\", \"unattended\": false}\n\n",
	} {
		w := do(t, h, "POST", "/v1/decide", body)
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"decision":"review"`) {
			t.Errorf("%s: %d %s", body, w.Code, w.Body)
		}
	}
	w := do(t, h, "POST", "/v1/decide", `{"agent":"coder","tool":"compute.run_command","unattended":true}`)
	if !strings.Contains(w.Body.String(), `"decision":"denied"`) {
		t.Errorf("unattended: %s", w.Body)
	}
}

func TestDecideErrors(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	big := `{"agent":"coder","tool":"` + strings.Repeat("x", MaxDecideBytes) + `"}`
	for _, c := range []struct {
		name, body string
		status     int
		code, msg  string
	}{
		{"empty", "", 400, "empty_body", "empty body"},
		{"blank", "  \n", 400, "empty_body", "empty body"},
		{"unknown field", `{"agent":"coder","tool":"fs.read_file","user":"x"}`, 400, "invalid_request", `unknown field "user"`},
		{"missing agent", `{"tool":"fs.read_file"}`, 400, "invalid_request", `missing field "agent"`},
		{"missing tool", `{"agent":"coder"}`, 400, "invalid_request", `missing field "tool"`},
		{"empty agent", `{"agent":"","tool":"fs.read_file"}`, 400, "invalid_request", `missing field "agent"`},
		{"null tool", `{"agent":"coder","tool":null}`, 400, "invalid_request", `missing field "tool"`},
		{"agent number", `{"agent":1,"tool":"fs.read_file"}`, 400, "invalid_request", `field "agent" must be a string, not number`},
		{"tool array", `{"agent":"coder","tool":["fs.read_file"]}`, 400, "invalid_request", `field "tool" must be a string, not array`},
		{"unattended string", `{"agent":"coder","tool":"fs.read_file","unattended":"true"}`, 400, "invalid_request", `field "unattended" must be a boolean`},
		{"unattended number", `{"agent":"coder","tool":"fs.read_file","unattended":1}`, 400, "invalid_request", `field "unattended" must be a boolean`},
		{"array", `[{"agent":"coder","tool":"fs.read_file"}]`, 400, "invalid_request", "must be a JSON object"},
		{"string", `"coder"`, 400, "invalid_request", "must be a JSON object"},
		{"null", `null`, 400, "invalid_request", `missing field "agent"`},
		{"two objects", `{"agent":"coder","tool":"fs.read_file"}{"agent":"coder","tool":"fs.read_file"}`, 400, "invalid_request", "unexpected data after the JSON object"},
		{"trailing garbage", `{"agent":"coder","tool":"fs.read_file"} x`, 400, "invalid_request", "unexpected data after the JSON object"},
		{"truncated", `{"agent":"coder","tool":"fs.`, 400, "invalid_json", "ends too early"},
		{"syntax", `{"agent":"coder" "tool":"fs.read_file"}`, 400, "invalid_json", "invalid JSON at byte"},
		{"too large", big, 413, "body_too_large", "larger than the limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := do(t, h, "POST", "/v1/decide", c.body)
			if msg := errorOf(t, w, c.status, c.code); !strings.Contains(msg, c.msg) {
				t.Errorf("message %q, want it to say %q", msg, c.msg)
			}
		})
	}
	// A body of unknown length over the limit is cut off as it is read.
	r := httptest.NewRequest("POST", "/v1/decide", io.MultiReader(strings.NewReader(big)))
	r.Header.Set("Content-Type", "application/json")
	r.ContentLength = -1
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	errorOf(t, w, 413, "body_too_large")
}

func TestMethodsAndPaths(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	for _, c := range []struct{ method, path, allow string }{
		{"GET", "/v1/decide", "POST"},
		{"PUT", "/v1/decide", "POST"},
		{"GET", "/v1/decide/batch", "POST"},
		{"POST", "/v1/agents", "GET, HEAD"},
		{"DELETE", "/v1/agents/coder", "GET, HEAD"},
		{"POST", "/healthz", "GET, HEAD"},
		{"POST", "/metrics", "GET, HEAD"},
	} {
		w := do(t, h, c.method, c.path, "")
		errorOf(t, w, 405, "method_not_allowed")
		if got := w.Header().Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
	for _, path := range []string{"/", "/v1", "/v1/decide/", "/v2/decide", "/v1/agents/coder/tools", "/health"} {
		errorOf(t, do(t, h, "GET", path, ""), 404, "not_found")
		errorOf(t, do(t, h, "POST", path, `{"agent":"coder","tool":"fs.read_file"}`), 404, "not_found")
	}
	if w := do(t, h, "HEAD", "/healthz", ""); w.Code != 200 {
		t.Errorf("HEAD /healthz: %d", w.Code)
	}
}

func TestBatch(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	qs := policytest.Questions(s.Policy())
	var reqs []string
	var want []string
	for i, q := range qs {
		un := i%3 == 0
		reqs = append(reqs, decideBody(q[0], q[1], un))
		want = append(want, strings.TrimSuffix(do(t, h, "POST", "/v1/decide", decideBody(q[0], q[1], un)).Body.String(), "\n"))
	}
	w := do(t, h, "POST", "/v1/decide/batch", `{"requests":[`+strings.Join(reqs, ",")+`]}`)
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if got, exp := w.Body.String(), `{"answers":[`+strings.Join(want, ",")+"]}\n"; got != exp {
		t.Fatalf("batch answers differ from single ones:\n got %s\nwant %s", got, exp)
	}
	if w.Header().Get(DigestHeader) != s.Policy().Document().Digest {
		t.Errorf("no %s", DigestHeader)
	}
	if w := do(t, h, "POST", "/v1/decide/batch", `{"requests":[]}`); w.Code != 200 || w.Body.String() != "{\"answers\":[]}\n" {
		t.Errorf("empty batch: %d %s", w.Code, w.Body)
	}
	full := strings.Repeat(`{"agent":"coder","tool":"fs.read_file"},`, MaxBatch)
	if w := do(t, h, "POST", "/v1/decide/batch", `{"requests":[`+strings.TrimSuffix(full, ",")+`]}`); w.Code != 200 {
		t.Errorf("a batch of %d: %d %.200s", MaxBatch, w.Code, w.Body)
	}
}

func TestBatchErrors(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	one := `{"agent":"coder","tool":"fs.read_file"}`
	tooMany := `{"requests":[` + strings.Repeat(one+",", MaxBatch) + one + `]}`
	big := `{"requests":[{"agent":"coder","tool":"` + strings.Repeat("x", MaxBatchBytes) + `"}]}`
	for _, c := range []struct {
		name, body string
		status     int
		code, msg  string
	}{
		{"empty", "", 400, "empty_body", "empty body"},
		{"array", `[` + one + `]`, 400, "invalid_request", `{"requests": [`},
		{"missing requests", `{}`, 400, "invalid_request", `missing field "requests"`},
		{"unknown field", `{"requests":[],"unattended":true}`, 400, "invalid_request", `unknown field "unattended"`},
		{"duplicate", `{"requests":[],"requests":[]}`, 400, "invalid_request", `duplicate field "requests"`},
		{"requests object", `{"requests":` + one + `}`, 400, "invalid_request", `field "requests" must be an array`},
		{"requests null", `{"requests":null}`, 400, "invalid_request", `field "requests" must be an array`},
		{"element not object", `{"requests":[` + one + `,"x"]}`, 400, "invalid_request", `requests[1]: a request must be a JSON object`},
		{"element missing tool", `{"requests":[` + one + `,{"agent":"coder"}]}`, 400, "invalid_request", `requests[1]: missing field "tool"`},
		{"element unknown field", `{"requests":[{"agent":"coder","tool":"x","why":1}]}`, 400, "invalid_request", `requests[0]: unknown field "why"`},
		{"element wrong type", `{"requests":[{"agent":"coder","tool":"x","unattended":"no"}]}`, 400, "invalid_request", `requests[0]: field "unattended" must be a boolean`},
		{"truncated", `{"requests":[` + one, 400, "invalid_json", "ends too early"},
		{"truncated element", `{"requests":[{"agent":`, 400, "invalid_json", "ends too early"},
		{"trailing", `{"requests":[]} {}`, 400, "invalid_request", "unexpected data"},
		{"syntax", `{"requests":[` + one + ` ` + one + `]}`, 400, "invalid_json", "invalid JSON"},
		{"too many", tooMany, 413, "batch_too_large", fmt.Sprintf("at most %d requests", MaxBatch)},
		{"too large", big, 413, "body_too_large", "larger than the limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := do(t, h, "POST", "/v1/decide/batch", c.body)
			if msg := errorOf(t, w, c.status, c.code); !strings.Contains(msg, c.msg) {
				t.Errorf("message %q, want it to say %q", msg, c.msg)
			}
		})
	}
}

func TestAgents(t *testing.T) {
	data := policytest.Compile(t, policytest.ConfigA)
	s, _ := newServer(t, data)
	h := s.Handler()
	w := do(t, h, "GET", "/v1/agents", "")
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var list struct {
		Digest     string `json:"digest"`
		EntryAgent string `json:"entry_agent"`
		Agents     []struct {
			Name           string   `json:"name"`
			GateLabel      string   `json:"gate_label"`
			Entry          bool     `json:"entry"`
			Reachable      bool     `json:"reachable"`
			AvailableCount int      `json:"available_count"`
			Deferred       []string `json:"deferred"`
		} `json:"agents"`
	}
	dec := json.NewDecoder(w.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&list); err != nil {
		t.Fatal(err)
	}
	doc := s.Policy().Document()
	if list.Digest != doc.Digest || list.EntryAgent != "assistant" || len(list.Agents) != 2 {
		t.Fatalf("%+v", list)
	}
	a, c := list.Agents[0], list.Agents[1]
	if a.Name != "assistant" || !a.Entry || !a.Reachable || a.AvailableCount != 2 || a.GateLabel != "assistant" || a.Deferred == nil {
		t.Errorf("assistant: %+v", a)
	}
	if c.Name != "coder" || c.Entry || !c.Reachable || c.AvailableCount != 3 {
		t.Errorf("coder: %+v", c)
	}

	// Each agent's object is the compiled one.
	var file struct {
		Agents map[string]json.RawMessage `json:"agents"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	for name, raw := range file.Agents {
		w := do(t, h, "GET", "/v1/agents/"+name, "")
		if w.Code != 200 {
			t.Fatalf("%s: %d %s", name, w.Code, w.Body)
		}
		var got, want any
		_ = json.Unmarshal(w.Body.Bytes(), &got)
		_ = json.Unmarshal(raw, &want)
		g, _ := json.Marshal(got)
		e, _ := json.Marshal(want)
		if !bytes.Equal(g, e) {
			t.Errorf("%s:\n got %s\nwant %s", name, g, e)
		}
	}
	msg := errorOf(t, do(t, h, "GET", "/v1/agents/nobody", ""), 404, "unknown_agent")
	if !strings.Contains(msg, `"nobody"`) {
		t.Errorf("message %q", msg)
	}
	errorOf(t, do(t, h, "GET", "/v1/agents/composed:worker", ""), 404, "unknown_agent")
}

func TestHealthz(t *testing.T) {
	data := policytest.Compile(t, policytest.ConfigA)
	s, path := newServer(t, data)
	h := s.Handler()
	health := func() map[string]any {
		t.Helper()
		w := do(t, h, "GET", "/healthz", "")
		if w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		var body map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		return body
	}
	b := health()
	p := b["policy"].(map[string]any)
	last := b["last_reload"].(map[string]any)
	if b["status"] != "ok" || p["file"] != path || p["digest"] != digestOf(t, data) || p["loaded_at"] == "" ||
		last["ok"] != true || last["error"] != nil || last["trigger"] != "start" {
		t.Fatalf("%v", b)
	}

	replace(t, path, policytest.Tamper(t, data))
	if err := s.Reload(); err == nil {
		t.Fatal("a tampered policy was accepted")
	}
	b = health()
	last = b["last_reload"].(map[string]any)
	if b["status"] != "degraded" || last["ok"] != false || !strings.Contains(fmt.Sprint(last["error"]), "digest does not match") {
		t.Fatalf("%v", b)
	}
	if b["policy"].(map[string]any)["digest"] != digestOf(t, data) {
		t.Fatalf("the last good policy should still answer: %v", b)
	}

	replace(t, path, data)
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if b = health(); b["status"] != "ok" {
		t.Fatalf("%v", b)
	}
}

func TestMetrics(t *testing.T) {
	data := policytest.Compile(t, policytest.ConfigA)
	s, path := newServer(t, data)
	h := s.Handler()
	do(t, h, "POST", "/v1/decide", `{"agent":"coder","tool":"compute.run_command"}`)
	do(t, h, "POST", "/v1/decide", `{"agent":"coder","tool":"fs.read_file"}`)
	do(t, h, "POST", "/v1/decide", `{"agent":"coder"}`)
	do(t, h, "POST", "/v1/decide/batch", `{"requests":[{"agent":"coder","tool":"compute.run_command"},{"agent":"nobody","tool":"x"}]}`)
	do(t, h, "GET", "/nowhere", "")
	replace(t, path, policytest.Tamper(t, data))
	_ = s.Reload()
	replace(t, path, policytest.Compile(t, policytest.ConfigB))
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	w := do(t, h, "GET", "/metrics", "")
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("%d %q", w.Code, w.Header().Get("Content-Type"))
	}
	page := w.Body.String()
	for _, line := range []string{
		`kokua_decisions_total{decision="review"} 2`,
		`kokua_decisions_total{decision="run"} 1`,
		`kokua_decisions_total{decision="denied"} 1`,
		`kokua_decisions_total{decision="confirm"} 0`,
		`kokua_http_requests_total{code="200",route="/v1/decide"} 2`,
		`kokua_http_requests_total{code="400",route="/v1/decide"} 1`,
		`kokua_http_requests_total{code="200",route="/v1/decide/batch"} 1`,
		`kokua_http_requests_total{code="404",route="unmatched"} 1`,
		`kokua_http_request_duration_seconds_count{route="/v1/decide"} 3`,
		`kokua_policy_reloads_total{result="error"} 1`,
		`kokua_policy_reloads_total{result="ok"} 1`,
		`kokua_policy_reloads_total{result="unchanged"} 0`,
		fmt.Sprintf(`kokua_policy_info{digest=%q,file=%q} 1`, digestOf(t, policytest.Compile(t, policytest.ConfigB)), path),
		`kokua_policy_last_reload_ok 1`,
		`kokua_policy_loaded_timestamp_seconds `,
		`go_goroutines `,
	} {
		if !strings.Contains(page, line+"\n") && !strings.Contains(page, line) {
			t.Errorf("no %s in /metrics", line)
		}
	}
	if strings.Contains(page, digestOf(t, data)) {
		t.Error("the old policy's info series is still there")
	}
}

// TestPanicIsAnError checks that a handler that panics answers a 500
// error object, never a decision.
func TestPanicIsAnError(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.wrap(routeDecide, func(http.ResponseWriter, *http.Request, *state) int { panic("boom") })
	errorOf(t, do(t, h, "POST", "/v1/decide", "{}"), 500, "internal")
}

func TestNewRefuses(t *testing.T) {
	data := policytest.Compile(t, policytest.ConfigA)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"missing", nil, "no such file"},
		{"tampered", policytest.Tamper(t, data), "its digest does not match its content"},
		{"truncated", data[:len(data)/2], "not a JSON policy document"},
		{"other version", bytes.Replace(data, []byte(`"policy_version": 1`), []byte(`"policy_version": 2`), 1), "policy_version 2 is not supported"},
	} {
		path := filepath.Join(dir, c.name+".json")
		if c.data != nil {
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, err := New(path, nil)
		if s != nil || err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: New = %v, %v; want an error naming the file and saying %q", c.name, s, err, c.msg)
		}
	}
}
