package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// pipes joins a reader and a writer into the client's stream.
type pipes struct {
	io.Reader
	io.WriteCloser
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
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{outR, inW}))
	diags := make(chan protocol.PublishDiagnosticsParams, 16)
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
			var p protocol.PublishDiagnosticsParams
			_ = json.Unmarshal(req.Params(), &p)
			diags <- p
		}
		return reply(ctx, nil, nil)
	})
	var init map[string]any
	if _, err := conn.Call(ctx, protocol.MethodInitialize, map[string]any{"processId": 1, "capabilities": map[string]any{}}, &init); err != nil {
		t.Fatal(err)
	}
	if info, _ := init["serverInfo"].(map[string]any); info["name"] != "kokua-lint" {
		t.Errorf("serverInfo: %v", init["serverInfo"])
	}
	u := uri.File(filepath.Join(t.TempDir(), "config.toml"))
	if err := conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "toml", Version: 1, Text: withError(t)}}); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-diags:
		if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "unknown-toolset" || p.Diagnostics[0].Range.Start.Line != 23 {
			t.Errorf("want the unknown toolset on line 24: %+v", p.Diagnostics)
		}
	case <-ctx.Done():
		t.Fatal("no diagnostics")
	}
	if _, err := conn.Call(ctx, protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := conn.Notify(ctx, protocol.MethodExit, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != cli.ExitOK {
			t.Errorf("exit status %d, want 0; stderr:\n%s", c, stderr.String())
		}
	case <-ctx.Done():
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
