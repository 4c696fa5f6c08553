package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
)

// lspClient is the test's end of kokua-lint lsp: it writes framed
// messages to the command's stdin and reads the frames of its stdout.
type lspClient struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Reader
}

// send writes one message, framed.
func (c *lspClient) send(msg map[string]any) {
	c.t.Helper()
	msg["jsonrpc"] = "2.0"
	body, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

// lspMessage is what the server writes: an answer or a notification.
type lspMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	Params json.RawMessage `json:"params"`
}

// next reads the server's next message.
func (c *lspClient) next() lspMessage {
	c.t.Helper()
	var length int
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			c.t.Fatalf("reading the server's header: %v", err)
		}
		if line == "\r\n" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.out, body); err != nil {
		c.t.Fatal(err)
	}
	var m lspMessage
	if err := json.Unmarshal(body, &m); err != nil {
		c.t.Fatalf("the server wrote %q: %v", body, err)
	}
	return m
}

// call sends a request and returns its answer's result, skipping the
// notifications before it.
func (c *lspClient) call(id int, method string, params any) json.RawMessage {
	c.t.Helper()
	c.send(map[string]any{"id": id, "method": method, "params": params})
	for {
		m := c.next()
		if m.Method == "" && string(m.ID) == strconv.Itoa(id) {
			if m.Error != nil {
				c.t.Fatalf("%s: %s", method, m.Error)
			}
			return m.Result
		}
	}
}

// TestLSP runs kokua-lint lsp in process on piped stdin and stdout: a
// client initializes it, opens a config with an error and gets the
// finding, then shuts it down; the command exits 0.
func TestLSP(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- Main([]string{"kokua-lint", "lsp", "--stdio"}, inR, outW, &stderr)
		_ = outW.Close()
	}()
	// A client that waits in vain is stopped by closing the streams.
	timer := time.AfterFunc(patience.Timeout(t, 20*time.Second), func() {
		_ = inW.CloseWithError(errors.New("the test timed out"))
		_ = outR.CloseWithError(errors.New("the test timed out"))
	})
	defer timer.Stop()
	c := &lspClient{t: t, in: inW, out: bufio.NewReader(outR)}
	var init map[string]any
	if err := json.Unmarshal(c.call(0, "initialize", map[string]any{"processId": 1, "capabilities": map[string]any{}}), &init); err != nil {
		t.Fatal(err)
	}
	if info, _ := init["serverInfo"].(map[string]any); info["name"] != "kokua-lint" {
		t.Errorf("serverInfo: %v", init["serverInfo"])
	}
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(t.TempDir(), "config.toml"))}).String()
	c.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "toml", "version": 1, "text": withError(t)}}})
	var p struct {
		URI         string `json:"uri"`
		Diagnostics []struct {
			Code  string `json:"code"`
			Range struct {
				Start struct {
					Line int `json:"line"`
				} `json:"start"`
			} `json:"range"`
		} `json:"diagnostics"`
	}
	for p.URI != u {
		if m := c.next(); m.Method == "textDocument/publishDiagnostics" {
			if err := json.Unmarshal(m.Params, &p); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "unknown-toolset" || p.Diagnostics[0].Range.Start.Line != 23 {
		t.Errorf("want the unknown toolset on line 24: %+v", p.Diagnostics)
	}
	c.call(1, "shutdown", nil)
	c.send(map[string]any{"method": "exit"})
	select {
	case status := <-code:
		if status != cli.ExitOK {
			t.Errorf("exit status %d, want 0; stderr:\n%s", status, stderr.String())
		}
	case <-patience.After(t, 20*time.Second):
		t.Fatal("kokua-lint lsp did not exit")
	}
}

func TestLSPUsage(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": shipped(t)})
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "lsp", "config.toml"), "lsp takes no arguments")
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "lsp", "--manifest", "nosuch.json"), "nosuch.json")
	if r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "lsp", "--help"); r.Code != cli.ExitOK || !strings.Contains(r.Stdout, "kokua-lint lsp [--manifest FILE]") {
		t.Errorf("lsp --help: %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestLSPMalformedFrames: kokua-lint lsp reads on past frames it cannot
// use (a negative Content-Length, a body that is not JSON), says so on
// stderr, answers the requests after them and exits 0 after shutdown and
// exit; it used to exit 1 at the first.
func TestLSPMalformedFrames(t *testing.T) {
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	in := frame(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`) +
		"Content-Length: -1\r\n\r\n" + frame("{oops") +
		frame(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`) + frame(`{"jsonrpc":"2.0","method":"exit"}`)
	r := clitest.Run(Main, "kokua-lint", in, "lsp")
	if r.Code != cli.ExitOK {
		t.Errorf("exit status %d, want 0; stderr:\n%s", r.Code, r.Stderr)
	}
	for _, want := range []string{
		"kokua-lint lsp: dropped a frame that cannot be delimited: Content-Length \"-1\" is not a number of bytes",
		"kokua-lint lsp: answered a malformed message with error -32700: the message is not JSON",
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	for _, want := range []string{`"id":null,"error":{"code":-32700`, `"result":null,"id":1`} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("stdout lacks %s:\n%s", want, r.Stdout)
		}
	}
}
