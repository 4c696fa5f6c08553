package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/lint"
)

// The protocol tests drive a server through its JSON-RPC stream: a
// client connection on one end of an in-memory pipe, Serve on the other,
// every message encoded and framed as an editor's would be.

// client is the test's end of a session.
type client struct {
	t     testing.TB
	conn  jsonrpc2.Conn
	diags chan protocol.PublishDiagnosticsParams
	logs  chan string
	// served is what Serve returned.
	served chan error
	// patience is how long the client waits for an answer or for
	// diagnostics before the test fails: a guard against a hang, not a
	// measure of speed (a test moving 16 MiB documents under -race on a
	// loaded machine sets more).
	patience time.Duration
}

// start runs a server with opts and initializes it with params (the
// parameters of initialize, merged over a plain client's).
func start(t testing.TB, opts Options, params map[string]any) (*client, map[string]any) {
	t.Helper()
	ours, theirs := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{t: t, diags: make(chan protocol.PublishDiagnosticsParams, 1024), logs: make(chan string, 1024), served: make(chan error, 1)}
	go func() { c.served <- Serve(ctx, theirs, opts) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(ours))
	c.conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case protocol.MethodTextDocumentPublishDiagnostics:
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				t.Errorf("publishDiagnostics: %v", err)
			}
			c.diags <- p
		case protocol.MethodWindowLogMessage, protocol.MethodWindowShowMessage:
			var p protocol.LogMessageParams
			_ = json.Unmarshal(req.Params(), &p)
			select {
			case c.logs <- p.Message:
			default:
			}
		}
		return reply(ctx, nil, nil)
	})
	t.Cleanup(func() {
		cancel()
		_ = c.conn.Close()
		if err := <-c.served; err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, ErrNoShutdown) {
			t.Errorf("Serve: %v", err)
		}
	})
	init := map[string]any{"processId": 1, "rootUri": "file:///", "capabilities": map[string]any{}}
	for k, v := range params {
		init[k] = v
	}
	var res map[string]any
	c.call(protocol.MethodInitialize, init, &res)
	c.notify(protocol.MethodInitialized, map[string]any{})
	return c, res
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout())
	defer cancel()
	if _, err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// timeout is the client's patience, 10 s unless the test set another.
func (c *client) timeout() time.Duration {
	if c.patience == 0 {
		return 10 * time.Second
	}
	return c.patience
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// wait returns the next diagnostics published for the document.
func (c *client) wait(u protocol.DocumentURI) protocol.PublishDiagnosticsParams {
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
func (c *client) open(u protocol.DocumentURI, text string) []protocol.Diagnostic {
	c.t.Helper()
	c.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "toml", Version: 1, Text: text}})
	return c.wait(u).Diagnostics
}

// change sends one incremental change and returns the diagnostics
// published for that version.
func (c *client) change(u protocol.DocumentURI, version int32, r protocol.Range, text string) []protocol.Diagnostic {
	c.t.Helper()
	c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
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

func (c *client) hover(u protocol.DocumentURI, p protocol.Position) string {
	c.t.Helper()
	var h *protocol.Hover
	c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: p}}, &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

// fileURI is the URI of a file of that name in a fresh folder.
func fileURI(t testing.TB, name string) protocol.DocumentURI {
	return uri.File(filepath.Join(t.TempDir(), name))
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
func find(t testing.TB, s, needle string, skip int) protocol.Position {
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
