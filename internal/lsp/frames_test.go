package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
	"github.com/kokua-policy/kokua-policy/lint"
)

// The frame tests talk to a server in raw bytes: what a client writes
// goes on the wire as it is, and every frame the server writes is read
// strictly (exactly "Content-Length: N\r\n\r\n" and N bytes of a JSON-RPC
// object), so that the server's own output is checked too.

// wire is the test's raw end of a session.
type wire struct {
	t    testing.TB
	conn net.Conn
	// msgs is every message the server writes, in order.
	msgs chan wireMsg
	// ended is closed when the server has returned, err.
	ended chan struct{}
	err   error
}

// wireMsg is one message of the server's: a response or a notification.
type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Params struct {
		Message string `json:"message"`
	} `json:"params"`
}

// startWire runs a server on frames whose body cap is max (maxFrame: the
// server Serve runs).
func startWire(t testing.TB, limit int64) *wire {
	t.Helper()
	ours, theirs := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	w := &wire{t: t, conn: ours, msgs: make(chan wireMsg, 1<<14), ended: make(chan struct{})}
	go func() {
		w.err = serve(ctx, newFrames(theirs, limit), Options{})
		close(w.ended)
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.read(bufio.NewReader(ours))
	}()
	t.Cleanup(func() {
		cancel()
		_ = ours.Close()
		<-done
	})
	return w
}

// read checks and decodes every frame the server writes until the
// stream ends.
func (w *wire) read(in *bufio.Reader) {
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "Content-Length: "), "\r\n"))
		if err != nil || !strings.HasSuffix(line, "\r\n") {
			w.t.Errorf("the server wrote the header line %q", line)
			return
		}
		if blank, err := in.ReadString('\n'); err != nil || blank != "\r\n" {
			w.t.Errorf("the server's header ends with %q, not a blank line", blank)
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(in, body); err != nil {
			return
		}
		var m wireMsg
		var version struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if json.Unmarshal(body, &m) != nil || json.Unmarshal(body, &version) != nil || version.JSONRPC != "2.0" {
			w.t.Errorf("the server wrote a body that is not a JSON-RPC 2.0 object: %q", body)
			return
		}
		w.msgs <- m
	}
}

// send writes raw bytes to the server; false when the session has ended.
func (w *wire) send(s string) bool {
	w.t.Helper()
	_, err := io.WriteString(w.conn, s)
	return err == nil
}

// await returns the messages up to and with the answer to id (a JSON
// value); false when it does not come within 10 s or the session ends.
func (w *wire) await(id string) ([]wireMsg, bool) {
	var seen []wireMsg
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m := <-w.msgs:
			seen = append(seen, m)
			if m.Method == "" && string(m.ID) == id {
				return seen, true
			}
		case <-w.ended:
			return seen, false
		case <-timeout:
			return seen, false
		}
	}
}

// frame frames a body as the protocol does.
func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// shutdown is a shutdown request with id (a JSON value): a request every
// server answers, initialized or not.
func shutdown(id string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"shutdown"}`, id)
}

// ping is a request the server answers with null as often as it is sent:
// a hover over a document that is not open.
func ping(id string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nothing.toml"},"position":{"line":0,"character":0}}}`, id)
}

// initialized starts a server and initializes it.
func initialized(t *testing.T, limit int64) *wire {
	t.Helper()
	w := startWire(t, limit)
	w.send(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":1,"capabilities":{}}}`))
	if _, ok := w.await("1"); !ok {
		t.Fatal("initialize was not answered")
	}
	return w
}

// TestMalformedFrames: each kind of malformed frame is answered with an
// error (a body that is not a JSON-RPC message) or dropped (a frame that
// cannot be delimited), with a line in the log either way, and the
// request sent after it is answered: the session goes on.
func TestMalformedFrames(t *testing.T) {
	const pingID = `"ping"`
	for _, c := range []struct {
		name, frame string
		// code is the error the frame is answered with (answered with id,
		// a JSON value); 0 for a frame that is dropped.
		code     int
		answered string
		// log is a piece of the log line about it.
		log string
	}{
		{"a body that is not JSON", frame(`{"jsonrpc":"2.0","id":2,"method":`), -32700, "null", "not JSON"},
		{"Content-Length: 0", "Content-Length: 0\r\n\r\n", -32700, "null", "empty"},
		{"a JSON array", frame("[" + ping("2") + "]"), -32600, "null", "not a JSON object"},
		{"a JSON string", frame(`"shutdown"`), -32600, "null", "not a JSON object"},
		{"jsonrpc 1.0", frame(`{"jsonrpc":"1.0","id":5,"method":"shutdown"}`), -32600, "5", "not a JSON-RPC 2.0"},
		{"an id that is an object", frame(`{"jsonrpc":"2.0","id":{},"method":"shutdown"}`), -32600, "null", "not a JSON-RPC 2.0"},
		{"a negative Content-Length", "Content-Length: -5\r\n\r\n{}", 0, "", `Content-Length "-5" is not a number`},
		{"a Content-Length that is not a number", "Content-Length: 1e3\r\n\r\n{}", 0, "", `Content-Length "1e3" is not a number`},
		{"an empty Content-Length", "Content-Length:\r\n\r\n{}", 0, "", `Content-Length "" is not a number`},
		{"no Content-Length", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + ping("2"), 0, "", "no Content-Length"},
		{"two Content-Lengths that disagree", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 0, "", "disagree"},
		{"a header line without a colon", "Content-Length 2\r\n\r\n{}", 0, "", "no colon"},
		{"bytes that are no header", "\x1b[31mhello\x00\r\n", 0, "", `"\x1b[31mhello\x00`},
		{"a header line longer than 4 KiB", "X-Pad: " + strings.Repeat("a", 5000) + "\r\n\r\n", 0, "", "longer than 4096 bytes"},
		{"33 header lines", strings.Repeat("X-Pad: a\r\n", 33) + "\r\n", 0, "", "more than 32 lines"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := initialized(t, maxFrame)
			w.send(c.frame)
			w.send(frame(ping(pingID)))
			seen, ok := w.await(pingID)
			if !ok {
				t.Fatalf("the request after the frame was not answered; the server wrote %+v", seen)
			}
			var errs, logs []wireMsg
			for _, m := range seen {
				switch {
				case m.Error != nil:
					errs = append(errs, m)
				case m.Method == methodLogMessage:
					logs = append(logs, m)
				}
			}
			switch {
			case c.code == 0 && len(errs) > 0:
				t.Errorf("a dropped frame was answered: %+v", errs)
			case c.code != 0 && (len(errs) != 1 || errs[0].Error.Code != c.code || string(errs[0].ID) != c.answered):
				t.Errorf("want one answer with error %d and id %s, got %+v", c.code, c.answered, errs)
			}
			if len(logs) != 1 || !strings.Contains(logs[0].Params.Message, c.log) {
				t.Errorf("want one log line with %q, got %+v", c.log, logs)
			}
		})
	}
}

// TestTolerantFrames: what the protocol's framing allows or a client may
// write without harm is read as the message it is: header lines ending
// in "\n" alone, header names in another case, a Content-Type, blank
// lines between frames, a body with whitespace around the JSON.
func TestTolerantFrames(t *testing.T) {
	w := initialized(t, maxFrame)
	body := ping(`"lf"`)
	for i, f := range []string{
		fmt.Sprintf("Content-Length: %d\n\n%s", len(body), body),
		fmt.Sprintf("content-length:%d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n%s", len(body), body),
		"\r\n\n" + frame(body),
		frame(" \r\n" + body + "\n"),
	} {
		w.send(f)
		seen, ok := w.await(`"lf"`)
		if !ok || len(seen) != 1 || seen[0].Error != nil {
			t.Errorf("frame %d: want the answer alone, got %+v", i, seen)
		}
	}
}

// TestContentLengthOverCap: a Content-Length over the cap is answered at
// once, without the body being sent, read or allocated, and the request
// after it is answered; a body at the cap is read.
func TestContentLengthOverCap(t *testing.T) {
	for _, length := range []string{"2147483647", "2147483648", strconv.Itoa(maxFrame + 1), "99999999999999999999999999"} {
		w := initialized(t, maxFrame)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		w.send("Content-Length: " + length + "\r\n\r\n")
		w.send(frame(ping("2")))
		seen, ok := w.await("2")
		runtime.ReadMemStats(&after)
		if !ok {
			t.Fatalf("Content-Length %s: the request after it was not answered; the server wrote %+v", length, seen)
		}
		if len(seen) != 3 || seen[1].Error == nil || seen[1].Error.Code != -32600 || string(seen[1].ID) != "null" ||
			!strings.Contains(seen[1].Error.Message, "over the "+strconv.Itoa(maxFrame)+" the server reads") {
			t.Errorf("Content-Length %s: want a log line and error -32600 before the answer, got %+v", length, seen)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
			t.Errorf("Content-Length %s: %d bytes allocated", length, grew)
		}
	}

	// At a cap of 100 bytes, a body of 100 is read and one of 101 is not.
	w := initialized(t, 100)
	// A request short enough for the cap, answered each time it is sent
	// (with the error of a method the server does not have).
	at := `{"jsonrpc":"2.0","id":"at","method":"x"}`
	at += strings.Repeat(" ", 100-len(at))
	w.send(frame(at))
	if seen, ok := w.await(`"at"`); !ok || len(seen) != 1 {
		t.Errorf("a body at the cap: %+v", seen)
	}
	w.send(frame(at + " "))
	w.send(frame(`{"jsonrpc":"2.0","id":3,"method":"x"}`))
	if seen, ok := w.await("3"); !ok || len(seen) != 3 || seen[1].Error == nil {
		t.Errorf("a body over the cap: want it refused and the next request answered, got %+v", seen)
	}
}

// FuzzFrames writes arbitrary bytes to a server, then blank lines enough
// to end any frame they begin (the fuzzed server's cap is 1 KiB), then a
// request. The server never panics and writes only well-formed frames;
// the request is answered, unless the bytes held an exit that ended the
// session; and bytes that are neither blank nor hold a Content-Length
// header are dropped with a log line.
func FuzzFrames(f *testing.F) {
	body := ping("2")
	for _, seed := range []string{
		"", "\r\n", frame(body), frame("{not json"), "Content-Length: 0\r\n\r\n", "Content-Length: -5\r\n\r\n",
		"Content-Type: x\r\n\r\n" + body, frame("[" + body + "]"), fmt.Sprintf("Content-Length: %d\n\n%s", len(body), body),
		"Content-Length: 2147483648\r\n\r\n", "Content-Length: 1000\r\n\r\n{", "Content-Length 2\r\n\r\n{}",
		frame(`{"jsonrpc":"2.0","method":"exit"}`), frame(`{"jsonrpc":"1.0","id":5,"method":"x"}`),
		frame(`{"jsonrpc":"2.0","id":3,"method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///c.toml","text":"[agents.x]\n"}}}`),
		"\x00\xff\x1b[2J" + frame(body),
	} {
		f.Add([]byte(seed))
	}
	const limit = 1 << 10
	f.Fuzz(func(t *testing.T, garbage []byte) {
		w := startWire(t, limit)
		pinged := frame(ping(`"ping"`))
		sent := w.send(string(garbage)) && w.send(strings.Repeat("\r\n", limit+4)) && w.send(pinged)
		var seen []wireMsg
		if sent {
			seen, sent = w.await(`"ping"`)
		}
		if !sent {
			// The stream was closed, or the answer did not come: either the
			// session ended with an exit the bytes held, or this fails.
			select {
			case <-w.ended:
				if w.err != nil && !errors.Is(w.err, ErrNoShutdown) {
					t.Fatalf("the session ended: %v", w.err)
				}
				return
			case <-time.After(10 * time.Second):
				t.Fatalf("the request after the bytes was not answered; the server wrote %+v", seen)
			}
		}
		if strings.Trim(string(garbage), " \t\r\n") == "" || strings.Contains(strings.ToLower(string(garbage)), "content-length") {
			return
		}
		for _, m := range seen {
			if m.Method == methodLogMessage && strings.HasPrefix(m.Params.Message, "dropped a frame") {
				return
			}
		}
		t.Errorf("bytes without a header were not dropped with a log line; the server wrote %+v", seen)
	})
}

// TestDocumentOverCap: a document over lint.MaxInputBytes, opened or
// changed to, gets exactly one diagnostic, kokua-lint's error for a file
// that large, and is not linted; a document at the cap is linted, and so
// is one changed back under it.
func TestDocumentOverCap(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	// Three 16 MiB documents go through JSON and a pipe: under -race on a
	// loaded two-core machine that took over 10 s.
	c.patience = 3 * time.Minute
	pad := func(s string, size int) string {
		s += "#"
		return s + strings.Repeat("x", size-len(s)-1) + "\n"
	}
	good := shipped(t)
	atCap := pad(good, lint.MaxInputBytes)
	over := pad(good, lint.MaxInputBytes+1)

	// kokua-lint's message for a file of that size, named as the server
	// names the document.
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, int64(len(over))); err != nil {
		t.Fatal(err)
	}
	_, err := lint.ReadFile(path)
	if err == nil {
		t.Fatal("kokua-lint read a file over its cap")
	}
	u := uriOf(path)
	wantOne := func(what string, ds []Diagnostic) {
		t.Helper()
		if len(ds) != 1 || ds[0].Message != err.Error() || ds[0].Severity != SeverityError {
			t.Errorf("%s: want the one diagnostic %q, got %+v", what, err, ds)
		}
	}
	wantOne("opened over the cap", c.open(u, over))
	if h := c.hover(u, Position{Line: 1, Character: 1}); h != "" {
		t.Errorf("a hover on a document that is not linted: %q", h)
	}

	replace := func(version int32, text string) []Diagnostic {
		c.notify(methodDidChange, map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": version},
			"contentChanges": []any{map[string]any{"text": text}},
		})
		for {
			if p := c.wait(u); p.Version == uint32(version) {
				return p.Diagnostics
			}
		}
	}
	if ds := replace(2, atCap); len(ds) != 0 {
		t.Errorf("a document at the cap, the shipped config and a comment: %+v, want it linted clean", ds)
	}
	wantOne("changed to over the cap", replace(3, over))
	broken := strings.Replace(good, `available = ["web", "misc"`, `available = ["webb", "misc"`, 1)
	if ds := replace(4, broken); len(ds) != 1 || ds[0].Code != "unknown-toolset" {
		t.Errorf("changed back under the cap: %+v, want the unknown toolset", ds)
	}
}

// TestOutOfTurn: the session's order, as the protocol gives it. Before
// initialize, a notification is dropped (a document opened then is not
// linted: it once panicked for want of a manifest) and a request is
// answered with ServerNotInitialized (-32002); a second initialize is an
// InvalidRequest (-32600); after shutdown, so is every request but exit,
// which ends the session cleanly.
func TestOutOfTurn(t *testing.T) {
	w := startWire(t, maxFrame)
	open, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///config.toml", "languageId": "toml", "version": 1, "text": "[agents.coder]\n[agents.coder.tools]\navailable = [\"webb\"]\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	errorOf := func(id string, want int64) {
		t.Helper()
		seen, ok := w.await(id)
		if !ok || len(seen) != 1 || seen[0].Error == nil || int64(seen[0].Error.Code) != want {
			t.Fatalf("request %s: want its answer alone, with error %d; got %+v", id, want, seen)
		}
	}
	w.send(frame(string(open)))
	w.send(frame(ping("1")))
	errorOf("1", -32002)
	w.send(frame(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":{}}}`))
	if seen, ok := w.await("2"); !ok || len(seen) != 1 || seen[0].Error != nil {
		t.Fatalf("initialize: want its answer alone; got %+v", seen)
	}
	w.send(frame(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"capabilities":{}}}`))
	errorOf("3", -32600)
	w.send(frame(shutdown("4")))
	if seen, ok := w.await("4"); !ok || len(seen) != 1 || seen[0].Error != nil {
		t.Fatalf("shutdown: want its answer alone; got %+v", seen)
	}
	w.send(frame(ping("5")))
	errorOf("5", -32600)
	w.send(frame(`{"jsonrpc":"2.0","method":"exit"}`))
	select {
	case <-w.ended:
		if w.err != nil {
			t.Errorf("exit after shutdown: the session ended with %v", w.err)
		}
	case <-patience.After(t, 10*time.Second):
		t.Fatal("exit did not end the session")
	}
}

// TestFrameCapDocumented: docs/editor.md gives the Content-Length cap in
// MiB as maxFrame has it.
func TestFrameCapDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "editor.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("A `Content-Length` over %d MiB** (6 x %d MiB + 1 MiB)", maxFrame>>20, lint.MaxInputBytes>>20)
	if maxFrame%(1<<20) != 0 || !strings.Contains(string(doc), want) {
		t.Errorf("docs/editor.md does not say %q", want)
	}
}
