package install

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

// everythingInstall says how to get the MCP server nobody here wrote that
// TestRealServer reads.
const everythingInstall = "npm install -g @modelcontextprotocol/server-everything (.ci/run installs it into a cache folder and puts it on PATH)"

// startEverything starts @modelcontextprotocol/server-everything with the
// given transport (streamableHttp or sse) on a free port, waits until it
// says it listens, and stops it when the test ends. It returns its
// address, http://127.0.0.1:PORT.
func startEverything(t *testing.T, prog, transport string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(prog, transport)
	cmd.Env = append(os.Environ(), "PORT="+port)
	// The server says it listens on standard error.
	out, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	listening := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		var said []string
		for sc.Scan() {
			said = append(said, sc.Text())
			// "listening on port N" (streamableHttp), "running on port N" (sse)
			if strings.HasSuffix(sc.Text(), " on port "+port) {
				listening <- nil
				_, _ = io.Copy(io.Discard, out)
				return
			}
		}
		listening <- fmt.Errorf("it exited without listening; it said:\n%s", strings.Join(said, "\n"))
	}()
	select {
	case err := <-listening:
		if err != nil {
			t.Fatalf("%s %s: %v", prog, transport, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s %s did not listen on port %s within 30s", prog, transport, port)
	}
	return "http://127.0.0.1:" + port
}

// TestRealServer (issue 39): @modelcontextprotocol/server-everything,
// started from npm on loopback, is read over streamable HTTP, and the
// manifest lists exactly what the server lists to a plain JSON-RPC
// client written here (every page of tools/list, in order, each tool's
// name, description and input schema); read again, nothing changed; its
// older SSE transport gives the same tools.
func TestRealServer(t *testing.T) {
	prog := needs.Program(t, "mcp-server-everything", everythingInstall)
	base := startEverything(t, prog, "streamableHttp")
	cfg := testConfig("", "everything", base+"/mcp")
	res := read(t, Options{Config: cfg, Timeout: 30 * time.Second})
	_, ts := serverTools(t, res.Manifest, "everything")

	listed := plainToolsList(t, base+"/mcp")
	if len(listed) == 0 || len(ts.Tools) != len(listed) {
		t.Fatalf("the manifest lists %d tools, the server %d", len(ts.Tools), len(listed))
	}
	for i, lt := range listed {
		mt := ts.Tools[i]
		var spec struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		if err := json.Unmarshal(mt.Spec, &spec); err != nil {
			t.Fatal(err)
		}
		if mt.Name != lt.Name || spec.Name != lt.Name || spec.Description != lt.Description || !sameJSON(t, spec.Parameters, lt.InputSchema) {
			t.Errorf("tool %d: the manifest has %q %q %s, the server lists %q %q %s", i, mt.Name, spec.Description, spec.Parameters, lt.Name, lt.Description, lt.InputSchema)
		}
		if want, _ := manifest.SpecDigest(mt.Spec); mt.Digest != want || mt.SpecBytes != len(mt.Spec) {
			t.Errorf("tool %q: digest %s, spec_bytes %d", mt.Name, mt.Digest, mt.SpecBytes)
		}
	}
	ds, err := Check(Source{Name: "kokua.manifest.json", Data: res.Manifest}, read(t, Options{Config: cfg, Timeout: 30 * time.Second}).Manifest, cfg)
	if err != nil || len(ds) != 0 {
		t.Errorf("read twice, the server changed: %v %v", err, ds)
	}

	sse := startEverything(t, prog, "sse")
	res = read(t, Options{Config: testConfig("", "everything", sse+"/sse"), Timeout: 30 * time.Second})
	got, _ := serverTools(t, res.Manifest, "everything")
	want := make([]string, len(listed))
	for i, lt := range listed {
		want[i] = lt.Name
	}
	if !slices.Equal(got, want) {
		t.Errorf("over SSE the server lists %q, over streamable HTTP %q", got, want)
	}
}

// listedTool is a tool as tools/list gives it.
type listedTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// plainToolsList lists a streamable HTTP server's tools with plain
// JSON-RPC over net/http: initialize (with no client capability, as
// kokua-compile asks), the initialized notification, then tools/list
// until no cursor is given.
func plainToolsList(t *testing.T, url string) []listedTool {
	t.Helper()
	session := ""
	call := func(id int, method string, params any) json.RawMessage {
		msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
		if id > 0 {
			msg["id"] = id
		}
		body, _ := json.Marshal(msg)
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
			session = s
		}
		data, _ := io.ReadAll(resp.Body)
		if id == 0 {
			return nil
		}
		// An SSE answer carries the response on a data: line.
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			for line := range strings.SplitSeq(string(data), "\n") {
				if rest, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(rest, `"id":`+strconv.Itoa(id)) {
					data = []byte(rest)
				}
			}
		}
		var out struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(data, &out); err != nil || out.Error != nil {
			t.Fatalf("%s: %v %s", method, err, data)
		}
		return out.Result
	}
	call(1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "plain", "version": "1"}})
	call(0, "notifications/initialized", map[string]any{})
	var tools []listedTool
	cursor := ""
	for id := 2; ; id++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Tools      []listedTool `json:"tools"`
			NextCursor string       `json:"nextCursor"`
		}
		if err := json.Unmarshal(call(id, "tools/list", params), &page); err != nil {
			t.Fatal(err)
		}
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" {
			return tools
		}
		cursor = page.NextCursor
	}
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	ca, err := manifest.Canonical(a)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := manifest.Canonical(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ca, cb)
}
