package install

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The servers the tests read: servers built with the MCP Go SDK's server
// package, served on loopback by httptest, and a hand-written JSON-RPC
// server for the answers the SDK would never give (a flood, a cursor
// without end, a tool of any name).

// sdkServer is an MCP server of the Go SDK listing tools, served over
// streamable HTTP on loopback. It returns the server, to add and remove
// tools while it runs, and its url.
func sdkServer(t *testing.T, tools ...*mcp.Tool) (*mcp.Server, string) {
	t.Helper()
	s := newSDKServer(0, tools...)
	return s, serve(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
}

// newSDKServer is the server sdkServer serves, pageSize tools to a page
// of tools/list (0 for the SDK's default).
func newSDKServer(pageSize int, tools ...*mcp.Tool) *mcp.Server {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ServerOptions{PageSize: pageSize, Logger: quiet})
	for _, tool := range tools {
		s.AddTool(tool, noCall)
	}
	return s
}

// noCall is the handler of a test tool, which no test calls.
func noCall(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{}, nil
}

// testTool is a tool with a description and an object schema of one
// string property.
func testTool(name, description string) *mcp.Tool {
	return &mcp.Tool{Name: name, Description: description, InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}},
	}}
}

// serve serves h on loopback until the test ends, and returns the url of
// its /mcp path.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// counting counts the JSON-RPC requests of each method h is sent.
type counting struct {
	h     http.Handler
	lists atomic.Int64
}

func (c *counting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"tools/list"`)) {
			c.lists.Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	c.h.ServeHTTP(w, r)
}

// rpcRequest is a JSON-RPC request or notification.
type rpcRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// fakeServer is a hand-written MCP server over streamable HTTP: it
// answers initialize for the version asked, refuses server/discover (so
// that the SDK's client falls back to initialize), accepts
// notifications, and answers tools/list with what list writes for the
// request's cursor: the JSON of a result.
func fakeServer(t *testing.T, list func(cursor string) []byte) string {
	t.Helper()
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req rpcRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		var result []byte
		switch req.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(req.Params, &p)
			result = fmt.Appendf(nil, `{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}`, p.ProtocolVersion)
		case "tools/list":
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(req.Params, &p)
			result = list(p.Cursor)
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, req.ID)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":`, req.ID)
		_, _ = w.Write(result)
		_, _ = io.WriteString(w, "}")
	}))
}

// toolsPage is the JSON of a tools/list result: tools named prefix0,
// prefix1 ... up to n, with next as its cursor ("" for none).
func toolsPage(prefix string, from, n int, next string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i := from; i < from+n; i++ {
		if i > from {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"%s%d","inputSchema":{"type":"object"}}`, prefix, i)
	}
	b.WriteString(`]`)
	if next != "" {
		fmt.Fprintf(&b, `,"nextCursor":%q`, next)
	}
	b.WriteString(`}`)
	return b.Bytes()
}

// testConfig is a config whose entry agent, assistant, holds memory and
// each server, with the approval lists given; each server is named and
// placed at its url, with its token_env when one is given as name=ENV.
func testConfig(confirm string, servers ...string) Source {
	var b strings.Builder
	fmt.Fprintf(&b, "[assistant.tools]\nconfirm = [%s]\nreview = []\n\n[agents.assistant]\ndescription = \"The assistant.\"\n\n[agents.assistant.tools]\navailable = [\"memory\"", confirm)
	for i := 0; i < len(servers); i += 2 {
		name, _, _ := strings.Cut(servers[i], "=")
		fmt.Fprintf(&b, ", %q", name)
	}
	b.WriteString("]\n")
	for i := 0; i < len(servers); i += 2 {
		name, env, _ := strings.Cut(servers[i], "=")
		fmt.Fprintf(&b, "\n[[mcp.server]]\nname = %q\nurl = %q\n", name, servers[i+1])
		if env != "" {
			fmt.Fprintf(&b, "token_env = %q\n", env)
		}
	}
	return Source{Name: "config.toml", Data: []byte(b.String())}
}
