package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
)

// TestEveryAnswerIsJSON sends raw requests over TCP to the server as
// kokua-run serve runs it (HTTPServer through Listener): methods, targets
// and protocol noise that ServeMux and net/http used to answer by
// themselves with plain text, HTML, an empty body or a 307 redirect to
// the cleaned path (issue 18, Why 7). Each answer has its status,
// Content-Type application/json, no Location, and a body that is the
// documented error object (docs/openapi.yaml's Error) with that status and
// code.
func TestEveryAnswerIsJSON(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	addr := strings.TrimPrefix(serveHTTP(t, s), "http://")
	o := loadOpenAPI(t)
	errSchema, err := o.compiler.Compile(o.url + "#/components/schemas/Error")
	if err != nil {
		t.Fatal(err)
	}
	one := `{"agent":"coder","tool":"fs.read_file"}`
	post := func(target string) string {
		return "POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(one)) + "\r\n\r\n" + one
	}
	get := func(target string) string { return "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n" }
	for _, c := range []struct {
		name, request string
		status        int
		code          string
	}{
		{"CONNECT to a host", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 404, "not_found"},
		{"CONNECT to a path", "CONNECT /v1/decide HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method_not_allowed"},
		{"the HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505, "http_version_not_supported"},
		{"OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", 404, "not_found"},
		{"GET *", get("*"), 404, "not_found"},
		{"/v1/../healthz", get("/v1/../healthz"), 404, "not_found"},
		{"//v1/decide", post("//v1/decide"), 404, "not_found"},
		{"/v1/./decide", post("/v1/./decide"), 404, "not_found"},
		{"/v1/decide/.", post("/v1/decide/."), 404, "not_found"},
		{"/v1/decide/batch/..", post("/v1/decide/batch/.."), 404, "not_found"},
		{"/./healthz", get("/./healthz"), 404, "not_found"},
		{"//healthz", get("//healthz"), 404, "not_found"},
		{"/v1/agents//coder", get("/v1/agents//coder"), 404, "not_found"},
		{"/v1/agents/x/../coder", get("/v1/agents/x/../coder"), 404, "not_found"},
		{"/v1/%2e%2e/healthz", get("/v1/%2e%2e/healthz"), 404, "not_found"},
		{"/v1/%2E/decide", post("/v1/%2E/decide"), 404, "not_found"},
		{"absolute form, unclean", get("http://x/v1/../healthz"), 404, "not_found"},
		{"absolute form, no path", get("http://x"), 404, "not_found"},
		{"a slash at the end", get("/healthz/"), 404, "not_found"},
		{"HTTP/1.0, unclean", "GET /v1/../metrics HTTP/1.0\r\n\r\n", 404, "not_found"},
		{"an Expect other than 100-continue", "POST /v1/decide HTTP/1.1\r\nHost: x\r\nExpect: x-teapot\r\nContent-Length: 2\r\n\r\n{}", 417, "expectation_failed"},
		{"an unknown method", "BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method_not_allowed"},
		{"TRACE", "TRACE /v1/decide HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method_not_allowed"},
		{"a bad request line", "GARBAGE\r\n\r\n", 400, "malformed_request"},
		{"a bad escape in the path", get("/v1/agents/%zz"), 400, "malformed_request"},
		{"a NUL in the path", get("/v1/\x00decide"), 400, "malformed_request"},
		{"a header without a colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nNo colon\r\n\r\n", 400, "malformed_request"},
		{"two Content-Lengths", "POST /v1/decide HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400, "malformed_request"},
		{"a TLS ClientHello", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400, "malformed_request"},
		{"HTTP/0.9", "GET /healthz\r\n\r\n", 400, "malformed_request"},
		{"HTTP/3.0", "GET /healthz HTTP/3.0\r\nHost: x\r\n\r\n", 505, "http_version_not_supported"},
		{"headers over the limit", get("/healthz")[:len(get("/healthz"))-2] + "X-Big: " + strings.Repeat("a", MaxHeaderBytes+8192) + "\r\n\r\n", 431, "headers_too_large"},
		{"a path over the header limit", get("/" + strings.Repeat("a", MaxHeaderBytes+8192)), 431, "headers_too_large"},
		{"chunked garbage", "POST /v1/decide HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400, "invalid_request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, header, body := rawRequest(t, addr, c.request)
			if status != c.status {
				t.Fatalf("status %d, want %d: %q", status, c.status, body)
			}
			if ct := header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q: %q", ct, body)
			}
			if loc := header.Get("Location"); loc != "" {
				t.Errorf("Location %q", loc)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("the body is not JSON: %v: %q", err, body)
			}
			if err := errSchema.Validate(inst); err != nil {
				t.Fatalf("the body is not the documented error object: %v: %q", err, body)
			}
			e := inst.(map[string]any)["error"].(map[string]any)
			if e["status"] != json.Number(strconv.Itoa(c.status)) || e["code"] != c.code {
				t.Errorf("error %v, want status %d and code %s", e, c.status, c.code)
			}
		})
	}
	// The clean spellings of the same paths are answered as usual.
	for _, req := range []string{get("/healthz"), get("http://x/healthz"), post("/v1/decide"), get("/v1/agents/coder"),
		"GET /healthz HTTP/1.0\r\n\r\n"} {
		if status, header, body := rawRequest(t, addr, req); status != 200 || header.Get("Content-Type") != "application/json" {
			t.Errorf("%q: %d %q", req, status, body)
		}
	}
}

// rawRequest writes request on a new connection and reads one answer.
func rawRequest(t *testing.T, addr, request string) (int, http.Header, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	// Written while the answer is read: the server may answer (and stop
	// reading) before a large request is all written.
	go func() { _, _ = io.WriteString(conn, request) }()
	method, _, _ := strings.Cut(request, " ")
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil && len(body) == 0 {
		t.Fatalf("reading the answer: %v", err)
	}
	return resp.StatusCode, resp.Header, body
}

// TestShortBody: a request whose body ends before its Content-Length is
// refused with a 400 that says so, whichever way the body is read (a
// length given, or chunks).
func TestShortBody(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	addr := strings.TrimPrefix(serveHTTP(t, s), "http://")
	for _, c := range []struct{ name, request string }{
		{"Content-Length", "POST /v1/decide HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"agent\":"},
		{"chunked", "POST /v1/decide HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n{\"agent\":\r\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = conn.Close() }()
			_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
			if _, err := io.WriteString(conn, c.request); err != nil {
				t.Fatal(err)
			}
			// The client sends nothing more: the server reads the end of
			// the stream where the body should go on.
			if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: "POST"})
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			defer func() { _ = resp.Body.Close() }()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 400 || !strings.Contains(string(body), `"message":"reading the body: unexpected EOF"`) {
				t.Errorf("%d %s, want 400 saying the body ended early", resp.StatusCode, body)
			}
		})
	}
}
