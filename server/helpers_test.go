package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/policy"
)

func digestOf(t testing.TB, data []byte) string {
	t.Helper()
	p, err := policy.Parse("test", data)
	if err != nil {
		t.Fatal(err)
	}
	return p.Document().Digest
}

// replace puts data in place of the file as kokua-compile does: a
// temporary file renamed over it.
func replace(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := compile.WriteFile(path, data); err != nil {
		t.Fatal(err)
	}
}

func newServer(t testing.TB, data []byte) (*Server, string) {
	t.Helper()
	path := policytest.File(t, data)
	s, err := New(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

// do sends one request to the handler, a POST as JSON.
func do(t testing.TB, h http.Handler, method, target, body string) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	w := httptest.NewRecorder()
	req := httptest.NewRequest(method, target, r)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	h.ServeHTTP(w, req)
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
