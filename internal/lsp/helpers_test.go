package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
	"github.com/kokua-policy/kokua-policy/lint"
)

// The protocol tests drive a server through its JSON-RPC stream: a
// client on one end of an in-memory pipe, Serve on the other, every
// message encoded and framed as an editor's would be. The client reads
// the server's frames with the server's own reader (frames), which takes
// nothing but well-formed messages.

// client is the test's end of a session.
type client struct {
	t      testing.TB
	stream *frames
	// pending holds the channel each request waits on for its answer,
	// by id.
	mu      sync.Mutex
	pending map[int32]chan *message
	seq     int32
	diags   chan PublishDiagnosticsParams
	logs    chan string
	// served is what Serve returned.
	served chan error
	// patience is how long the client waits for an answer or for
	// diagnostics before the test fails: a guard against a hang, not a
	// measure of speed (a test moving 16 MiB documents under -race on a
	// loaded machine sets more).
	patience time.Duration
}

// outgoing is a request or a notification of the client's.
type outgoing struct {
	Version string `json:"jsonrpc"`
	ID      *int32 `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// start runs a server with opts and initializes it with params (the
// parameters of initialize, merged over a plain client's).
func start(t testing.TB, opts Options, params map[string]any) (*client, map[string]any) {
	t.Helper()
	ours, theirs := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{t: t, stream: newFrames(ours, maxFrame), pending: map[int32]chan *message{},
		diags: make(chan PublishDiagnosticsParams, 1024), logs: make(chan string, 1024), served: make(chan error, 1)}
	go func() { c.served <- Serve(ctx, theirs, opts) }()
	read := make(chan struct{})
	go func() {
		defer close(read)
		c.read(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		_ = ours.Close()
		<-read
		if err := <-c.served; err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, ErrNoShutdown) {
			t.Errorf("Serve: %v", err)
		}
	})
	init := map[string]any{"processId": 1, "rootUri": "file:///", "capabilities": map[string]any{}}
	for k, v := range params {
		init[k] = v
	}
	var res map[string]any
	c.call(methodInitialize, init, &res)
	c.notify(methodInitialized, map[string]any{})
	return c, res
}

// read takes the server's messages until the stream ends: answers go to
// the request waiting for them, diagnostics and log lines to their
// channels.
func (c *client) read(ctx context.Context) {
	for {
		m, err := c.stream.Read(ctx)
		if err != nil {
			return
		}
		switch m.Method {
		case "":
			if m.ID == nil || m.ID.isString {
				c.t.Errorf("an answer to no request of the client's: %+v", m)
				continue
			}
			c.mu.Lock()
			wait := c.pending[m.ID.number]
			delete(c.pending, m.ID.number)
			c.mu.Unlock()
			if wait != nil {
				wait <- m
			}
		case methodPublishDiagnostics:
			var p PublishDiagnosticsParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				c.t.Errorf("publishDiagnostics: %v", err)
			}
			c.diags <- p
		case methodLogMessage, methodShowMessage:
			var p LogMessageParams
			_ = json.Unmarshal(m.Params, &p)
			select {
			case c.logs <- p.Message:
			default:
			}
		}
	}
}

func (c *client) send(msg outgoing) error {
	msg.Version = "2.0"
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return c.stream.send(data)
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	if err := c.request(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// request sends a request and decodes its answer into result; an answer
// with an error is returned as one.
func (c *client) request(method string, params, result any) error {
	c.mu.Lock()
	c.seq++
	id := c.seq
	wait := make(chan *message, 1)
	c.pending[id] = wait
	c.mu.Unlock()
	if err := c.send(outgoing{ID: &id, Method: method, Params: params}); err != nil {
		return err
	}
	select {
	case m := <-wait:
		switch {
		case m.Error != nil:
			return m.Error
		case result != nil && m.Result != nil:
			return json.Unmarshal(*m.Result, result)
		}
		return nil
	case <-time.After(c.timeout()):
		return fmt.Errorf("no answer within %v", c.timeout())
	}
}

// timeout is the client's patience: at least 10 s, more as the test
// binary's time allows (package patience), unless the test set another.
func (c *client) timeout() time.Duration {
	if c.patience == 0 {
		return patience.Timeout(c.t, 10*time.Second)
	}
	return c.patience
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.send(outgoing{Method: method, Params: params}); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// wait returns the next diagnostics published for the document.
func (c *client) wait(u DocumentURI) PublishDiagnosticsParams {
	c.t.Helper()
	timeout := time.After(c.timeout())
	for {
		select {
		case p := <-c.diags:
			if p.URI == u {
				return p
			}
		case <-timeout:
			c.t.Fatalf("no diagnostics for %s within %v", u, c.timeout())
		}
	}
}

// open opens a document and returns its first diagnostics.
func (c *client) open(u DocumentURI, text string) []Diagnostic {
	c.t.Helper()
	c.notify(methodDidOpen, DidOpenTextDocumentParams{TextDocument: TextDocumentItem{
		URI: u, LanguageID: "toml", Version: 1, Text: text}})
	return c.wait(u).Diagnostics
}

// change sends one incremental change and returns the diagnostics
// published for that version.
func (c *client) change(u DocumentURI, version int32, r Range, text string) []Diagnostic {
	c.t.Helper()
	c.notify(methodDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": version},
		"contentChanges": []any{map[string]any{"range": r, "text": text}},
	})
	for {
		p := c.wait(u)
		if p.Version == uint32(version) {
			return p.Diagnostics
		}
	}
}

func (c *client) hover(u DocumentURI, p Position) string {
	c.t.Helper()
	var h *Hover
	c.call(methodHover, HoverParams{TextDocumentPositionParams: TextDocumentPositionParams{
		TextDocument: TextDocumentIdentifier{URI: u}, Position: p}}, &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

// fileURI is the URI of a file of that name in a fresh folder.
func fileURI(t testing.TB, name string) DocumentURI {
	return uriOf(filepath.Join(t.TempDir(), name))
}

// uriOf is the URI of an absolute path, as editors write it.
func uriOf(path string) DocumentURI {
	return DocumentURI((&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String())
}

// shipped is the config Kokua ships, which lints clean.
func shipped(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// find returns the protocol position (UTF-16) of the first occurrence of
// needle in text, plus skip bytes.
func find(t testing.TB, s, needle string, skip int) Position {
	t.Helper()
	off := strings.Index(s, needle)
	if off < 0 {
		t.Fatalf("no %q", needle)
	}
	return newText(s).protocolPos(off+skip, UTF16)
}

// lineOf returns the 0-based line of needle's first occurrence and its
// byte column in that line.
func lineOf(t testing.TB, s, needle string) (line, col uint32) {
	t.Helper()
	i := strings.Index(s, needle)
	if i < 0 {
		t.Fatalf("no %q", needle)
	}
	start := strings.LastIndexByte(s[:i], '\n') + 1
	return uint32(strings.Count(s[:i], "\n")), uint32(i - start)
}

// lintText lints a text as kokua-lint does, for comparison.
func lintText(name, s string) *engine.Linted {
	return engine.Run(lint.Source{Name: name, Data: []byte(s)}, lint.DefaultManifest())
}
