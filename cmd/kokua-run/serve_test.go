package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
)

// logBuffer is a log that tests read while the server writes it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// served is a server started by serve in the background.
type served struct {
	url    string
	log    *logBuffer
	hup    chan os.Signal
	cancel context.CancelFunc
	code   chan int
}

func startServe(t *testing.T, path string, drain time.Duration) *served {
	t.Helper()
	return startServeWith(t, serveOptions{policy: path, drain: drain})
}

// startServeWith starts serve with the options given, on a free port of
// loopback, logging to the served's log.
func startServeWith(t *testing.T, o serveOptions) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	sv := &served{log: &logBuffer{}, hup: make(chan os.Signal, 1), cancel: cancel, code: make(chan int, 1)}
	addr := make(chan net.Addr, 1)
	go func() {
		if o.addr == "" {
			o.addr = "127.0.0.1:0"
		}
		o.stderr = sv.log
		sv.code <- serve(ctx, o, sv.hup,
			func(a net.Addr) { addr <- a })
	}()
	select {
	case a := <-addr:
		sv.url = "http://" + a.String()
		if tcp, ok := a.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
			sv.url = "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
		}
	case code := <-sv.code:
		t.Fatalf("serve returned %d: %s", code, sv.log)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-sv.code:
		case <-time.After(15 * time.Second):
		}
	})
	return sv
}

func (sv *served) stop(t *testing.T) int {
	t.Helper()
	sv.cancel()
	select {
	case code := <-sv.code:
		sv.code <- code
		return code
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	return -1
}

func TestServe(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	sv := startServe(t, path, time.Second)
	resp, err := http.Post(sv.url+"/v1/decide", "application/json", strings.NewReader(policytest.AskRunCommand))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"decision":"review"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}

	// SIGHUP reloads even when the file did not change.
	sv.hup <- os.Interrupt
	policytest.WaitFor(t, "the SIGHUP reload in the log", func() bool {
		return strings.Contains(sv.log.String(), "policy reloaded: unchanged") && strings.Contains(sv.log.String(), "trigger=sighup")
	})

	if code := sv.stop(t); code != cli.ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"kokua-run serve: serving", "addr=127.0.0.1:", "shutting down", "kokua-run serve: stopped"} {
		if !strings.Contains(sv.log.String(), want) {
			t.Errorf("no %q in the log:\n%s", want, sv.log)
		}
	}
}

// TestGracefulShutdown sends a request whose body is still coming when the
// shutdown starts: it is answered, and serve returns once it is.
func TestGracefulShutdown(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	active := make(chan struct{}, 1)
	sv := startServeWith(t, serveOptions{policy: path, drain: 10 * time.Second, connState: reading(active)})
	body, feed := io.Pipe()
	req, _ := http.NewRequest("POST", sv.url+"/v1/decide", body)
	req.Header.Set("Content-Type", "application/json")
	type reply struct {
		status int
		body   string
		err    error
	}
	replies := make(chan reply, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			replies <- reply{err: err}
			return
		}
		b, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		replies <- reply{resp.StatusCode, string(b), err}
	}()
	if _, err := feed.Write([]byte(`{"agent": "coder", `)); err != nil {
		t.Fatal(err)
	}
	waitActive(t, active) // the request is being read
	sv.cancel()
	policytest.WaitFor(t, "the shutdown to start", func() bool { return strings.Contains(sv.log.String(), "shutting down") })
	select {
	case code := <-sv.code:
		t.Fatalf("serve returned %d before the request in flight was answered", code)
	default:
		// Had it returned later, before the answer, the reply below
		// would be an error.
	}
	// New connections are refused during the drain.
	if resp, err := http.Post(sv.url+"/v1/decide", "application/json", strings.NewReader(policytest.AskRunCommand)); err == nil {
		_ = resp.Body.Close()
		t.Error("a new request was accepted during the drain")
	}
	if _, err := feed.Write([]byte(`"tool": "compute.run_command"}`)); err != nil {
		t.Fatal(err)
	}
	_ = feed.Close()
	r := <-replies
	if r.err != nil || r.status != 200 || !strings.Contains(r.body, `"decision":"review"`) {
		t.Fatalf("the request in flight: %+v", r)
	}
	if code := sv.stop(t); code != cli.ExitOK {
		t.Fatalf("exit %d", code)
	}
}

// TestDrainTimeout checks that the drain is bounded: a request that never
// ends does not hold the shutdown past the drain timeout.
func TestDrainTimeout(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	active := make(chan struct{}, 1)
	sv := startServeWith(t, serveOptions{policy: path, drain: 200 * time.Millisecond, connState: reading(active)})
	body, feed := io.Pipe()
	defer func() { _ = feed.Close() }()
	req, _ := http.NewRequest("POST", sv.url+"/v1/decide", body)
	req.Header.Set("Content-Type", "application/json")
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_ = resp.Body.Close()
		}
	}()
	_, _ = feed.Write([]byte(`{"agent": `))
	waitActive(t, active) // the request is being read
	start := time.Now()
	if code := sv.stop(t); code != cli.ExitOK {
		t.Fatalf("exit %d", code)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the shutdown took %s", d)
	}
	if !strings.Contains(sv.log.String(), "the drain timed out") {
		t.Errorf("no drain timeout in the log:\n%s", sv.log)
	}
}

// reading is a ConnState hook that signals on active once a connection
// has started a request: from then on, a shutdown waits for its answer
// rather than closing it as idle.
func reading(active chan<- struct{}) func(net.Conn, http.ConnState) {
	return func(_ net.Conn, st http.ConnState) {
		if st == http.StateActive {
			select {
			case active <- struct{}{}:
			default:
			}
		}
	}
}

// waitActive waits for the signal of reading.
func waitActive(t *testing.T, active <-chan struct{}) {
	t.Helper()
	select {
	case <-active:
	case <-time.After(10 * time.Second):
		t.Fatal("the request did not reach the server")
	}
}

func TestServeRefuses(t *testing.T) {
	dir := t.TempDir()
	tampered := filepath.Join(dir, "tampered.json")
	if err := os.WriteFile(tampered, policytest.Tamper(t, policytest.Compile(t, policytest.ConfigA)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, msg string }{
		{filepath.Join(dir, "missing.json"), "no such file or directory"},
		{tampered, "its digest does not match its content"},
	} {
		var log logBuffer
		code := serve(context.Background(), serveOptions{policy: c.path, addr: "127.0.0.1:0", stderr: &log}, nil, nil)
		if code != cli.ExitRefused {
			t.Errorf("%s: exit %d, want %d", c.path, code, cli.ExitRefused)
		}
		for _, want := range []string{"no valid policy, not starting", c.path, c.msg} {
			if !strings.Contains(log.String(), want) {
				t.Errorf("%s: no %q in the log:\n%s", c.path, want, log.String())
			}
		}
	}
}

func TestServeCannotListen(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	var log logBuffer
	if code := serve(context.Background(), serveOptions{policy: path, addr: "127.0.0.1:99999", stderr: &log}, nil, nil); code != cli.ExitUsage {
		t.Errorf("exit %d, want %d", code, cli.ExitUsage)
	}
	if !strings.Contains(log.String(), "cannot listen") {
		t.Errorf("log:\n%s", log.String())
	}
}

// TestServeAnswersNoiseAsJSON: kokua-run serve answers what ServeMux and
// net/http used to answer by themselves (an empty 200 to OPTIONS *, a 307
// to a cleaned path, an empty 417) with error objects; server's
// TestEveryAnswerIsJSON goes through every case.
func TestServeAnswersNoiseAsJSON(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	sv := startServe(t, path, time.Second)
	for _, c := range []struct {
		request, status string
	}{
		{"OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", "404"},
		{"GET /v1/../healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", "404"},
		{"POST //v1/decide HTTP/1.1\r\nHost: localhost:8181\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}", "404"},
		{"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "505"},
		{"POST /v1/decide HTTP/1.1\r\nHost: x\r\nExpect: x\r\nContent-Length: 2\r\n\r\n{}", "417"},
		{"GARBAGE\r\n\r\n", "400"},
		// On loopback, a foreign Host is refused whatever the path.
		{"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "421"},
		{"POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}", "415"},
	} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(sv.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		_, _ = io.WriteString(conn, c.request)
		answer, _ := io.ReadAll(conn) // the server closes the connection after each of these
		_ = conn.Close()
		head, body, _ := strings.Cut(string(answer), "\r\n\r\n")
		if !strings.HasPrefix(head, "HTTP/1.1 "+c.status+" ") || !strings.Contains(head, "\r\nContent-Type: application/json\r\n") ||
			!strings.HasPrefix(body, `{"error":{"status":`+c.status+`,"code":"`) {
			t.Errorf("%q answered\n%s", c.request, answer)
		}
	}
}

// TestListenAddr (issue 21): --addr localhost, a host with no port, used
// to fail with "missing port in address"; a host alone now gets the
// default port, and anything else is listened on as given.
func TestListenAddr(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"", "127.0.0.1:8181"},
		{"localhost", "localhost:8181"},
		{"127.0.0.1", "127.0.0.1:8181"},
		{"0.0.0.0", "0.0.0.0:8181"},
		{"::1", "[::1]:8181"},
		{"[::1]", "[::1]:8181"},
		{"localhost:9000", "localhost:9000"},
		{"[::1]:9000", "[::1]:9000"},
		{":9000", ":9000"},
		{"a:b:c", "a:b:c"},
	} {
		if got := listenAddr(c.addr); got != c.want {
			t.Errorf("--addr %q: listens on %q, want %q", c.addr, got, c.want)
		}
	}
}

// TestServeHostWithoutPort (issue 21): serve --addr localhost listens on
// localhost's default port instead of refusing "missing port in address".
// It is skipped when something else holds that port.
func TestServeHostWithoutPort(t *testing.T) {
	if ln, err := net.Listen("tcp", "127.0.0.1:8181"); err != nil {
		t.Skip("port 8181 is taken here:", err)
	} else if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	ctx, cancel := context.WithCancel(context.Background())
	var log logBuffer
	code, addr := make(chan int, 1), make(chan net.Addr, 1)
	go func() {
		code <- serve(ctx, serveOptions{policy: path, addr: "127.0.0.1", stderr: &log}, nil, func(a net.Addr) { addr <- a })
	}()
	select {
	case a := <-addr:
		if a.String() != "127.0.0.1:8181" {
			t.Errorf("--addr 127.0.0.1 listens on %s, want 127.0.0.1:8181", a)
		}
	case c := <-code:
		t.Fatalf("--addr 127.0.0.1: exit %d: %s", c, log.String())
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	cancel()
	if c := <-code; c != cli.ExitOK {
		t.Errorf("exit %d after the shutdown: %s", c, log.String())
	}
}
