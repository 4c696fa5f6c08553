package server

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"

	"github.com/kokua-policy/kokua-policy/internal/testing/tampered"
	"github.com/kokua-policy/kokua-policy/policy"
)

// corpus is the tampered corpus, made from the golden policy of
// testdata/compile/skills-on-entry, and that policy.
func corpus(t *testing.T) ([]tampered.Case, []byte) {
	t.Helper()
	base, err := os.ReadFile(filepath.Join("..", "testdata", "compile", "skills-on-entry", "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := tampered.Corpus(base)
	if err != nil {
		t.Fatal(err)
	}
	return cases, base
}

// TestStartRefusesTamperedCorpus: New refuses every policy of the corpus
// with its kind (kokua-run serve then exits 4), never with a panic.
func TestStartRefusesTamperedCorpus(t *testing.T) {
	cases, _ := corpus(t)
	for _, c := range cases {
		s, err := New(policytest.File(t, c.Data), nil)
		if s != nil || !errors.Is(err, c.Kind) || !strings.Contains(err.Error(), c.Reason) {
			t.Errorf("%s: New = %v, want %v saying %q", c.Name, err, c.Kind, c.Reason)
		}
	}
}

// TestReloadTamperedCorpus: a serving server survives a reload of every
// policy of the tampered corpus (issue 13, Why 1: a trust_order naming a
// missing toolset panicked in the watcher's goroutine and ended the
// server), each through the file watcher and through Reload, while
// requests keep coming; every request is answered by the last good
// policy, /healthz says degraded, and the good policy comes back.
func TestReloadTamperedCorpus(t *testing.T) {
	cases, base := corpus(t)
	s, path := newServer(t, base)
	s.debounce = 5 * time.Millisecond
	watch(t, s)
	want := do(t, s.Handler(), "POST", "/v1/decide", `{"agent":"assistant","tool":"memory.store_memory"}`).Body.String()

	var stop atomic.Bool
	var wg sync.WaitGroup
	var answered atomic.Int64
	for range 2 {
		wg.Go(func() {
			for !stop.Load() {
				w := do(t, s.Handler(), "POST", "/v1/decide", `{"agent":"assistant","tool":"memory.store_memory"}`)
				if w.Code != 200 || w.Body.String() != want {
					t.Errorf("during the reloads: %d %s", w.Code, w.Body)
					return
				}
				answered.Add(1)
			}
		})
	}
	for _, c := range cases {
		before := time.Now()
		replace(t, path, c.Data)
		policytest.WaitFor(t, c.Name+" seen by the watcher", func() bool {
			st := s.last.Load()
			return st.Trigger == triggerWatch && !st.At.Before(before)
		})
		if st := s.last.Load(); st.OK || st.Error == nil || !strings.Contains(*st.Error, c.Reason) {
			t.Errorf("%s: the watcher's reload: ok %v, error %v; want a refusal saying %q", c.Name, st.OK, st.Error, c.Reason)
		}
		if err := s.Reload(); !errors.Is(err, c.Kind) {
			t.Errorf("%s: Reload = %v, want %v", c.Name, err, c.Kind)
		}
		if got := healthStatus(t, s); got != "degraded" {
			t.Errorf("%s: healthz %s", c.Name, got)
		}
	}
	stop.Store(true)
	wg.Wait()
	if answered.Load() == 0 {
		t.Error("no request was answered during the reloads")
	}
	replace(t, path, base)
	if err := s.Reload(); err != nil || healthStatus(t, s) != "ok" {
		t.Fatalf("the good policy does not come back: %v", err)
	}
}

// TestRawHTTPErrorsAreJSON: the answers net/http writes by itself, before
// any handler runs, are error objects through Listener, like every other
// error (issue 13, Why 5: they were plain text), and a good request on
// the same listener is answered as usual.
func TestRawHTTPErrorsAreJSON(t *testing.T) {
	_, base := corpus(t)
	s, _ := newServer(t, base)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.HTTPServer()
	go func() { _ = srv.Serve(Listener(ln)) }()
	defer func() { _ = srv.Close() }()

	huge := "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", MaxHeaderBytes+8192) + "\r\n\r\n"
	for _, c := range []struct {
		name, request string
		status        int
		code, message string
	}{
		{"headers over the limit", huge, 431, "headers_too_large", "larger than the limit of 65536 bytes"},
		{"malformed request line", "GARBAGE\r\n\r\n", 400, "malformed_request", "not valid HTTP/1.1"},
		{"no Host header", "GET /healthz HTTP/1.1\r\n\r\n", 400, "malformed_request", "missing required Host header"},
		{"unknown protocol", "GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", 505, "http_version_not_supported", "use HTTP/1.1"},
		{"bad Host header", "GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "malformed_request", "malformed Host header"},
		{"unsupported transfer encoding", "POST /v1/decide HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501,
			"unsupported_transfer_encoding", "Transfer-Encoding"},
		{"a good request", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 200, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = conn.Close() }()
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			go func() { _, _ = io.WriteString(conn, c.request) }()
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			body, err := io.ReadAll(resp.Body)
			if err != nil && c.status == 200 {
				t.Fatal(err)
			}
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q: %s", ct, body)
			}
			if c.status == 200 {
				return
			}
			var e errorBody
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&e); err != nil {
				t.Fatalf("the body is not an error object: %v: %q", err, body)
			}
			if e.Error.Status != c.status || e.Error.Code != c.code || !strings.Contains(e.Error.Message, c.message) {
				t.Errorf("error %+v, want status %d, code %s, a message with %q", e.Error, c.status, c.code, c.message)
			}
		})
	}
}

// TestRewritePlainError: only net/http's own error answers are rewritten,
// never a handler's answer, whatever its headers.
func TestRewritePlainError(t *testing.T) {
	for _, b := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nfine",
		"HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n400 Bad Request",
		"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nDate: Mon, 30 Nov 2026 07:00:00 GMT\r\n\r\n404",
		"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n",
		"{\"decision\":\"run\"}",
		"HTTP/1.1 417 Expectation Failed\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 417 Expectation Failed\r\nContent-Length: 0\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
	} {
		if out, ok := rewritePlainError([]byte(b)); ok {
			t.Errorf("%q was rewritten as %q", b, out)
		}
		if out, ok := rewriteExpectationFailed([]byte(b)); ok {
			t.Errorf("%q was rewritten as %q", b, out)
		}
	}
}

// TestVerifiedServer: a server given a verify key refuses an unsigned
// policy at the start, and on reload refuses an unsigned one and one
// signed by another key, keeping the last good policy, then takes a
// policy signed with its key.
func TestVerifiedServer(t *testing.T) {
	_, base := corpus(t)
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{8}, ed25519.SeedSize))
	pub := key.Public().(ed25519.PublicKey)
	sign := func(data []byte, k ed25519.PrivateKey) []byte {
		p, err := policy.Parse("base", data)
		if err != nil {
			t.Fatal(err)
		}
		out, err := policy.MarshalSigned(p.Document(), k)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if _, err := NewVerified(policytest.File(t, base), pub, nil); !errors.Is(err, policy.ErrSignature) {
		t.Fatalf("an unsigned policy at the start: %v", err)
	}
	path := policytest.File(t, sign(base, key))
	s, err := NewVerified(path, pub, nil)
	if err != nil {
		t.Fatal(err)
	}
	good := s.cur.Load().digest
	for _, bad := range [][]byte{base, sign(policytest.Compile(t, policytest.ConfigA), other)} {
		replace(t, path, bad)
		if err := s.Reload(); !errors.Is(err, policy.ErrSignature) {
			t.Errorf("Reload = %v, want ErrSignature", err)
		}
		if s.cur.Load().digest != good {
			t.Error("a policy that does not verify was swapped in")
		}
	}
	replace(t, path, sign(policytest.Compile(t, policytest.ConfigA), key))
	if err := s.Reload(); err != nil || s.cur.Load().digest == good {
		t.Errorf("a policy signed with the key was not swapped in: %v", err)
	}
}
