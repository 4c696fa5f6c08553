package install

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/testing/hostile"
)

// read reads the install of cfg with the options given, failing the test
// on an error.
func read(t *testing.T, o Options) *Result {
	t.Helper()
	res, err := Read(context.Background(), o)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return res
}

// readErr reads the install of cfg and returns the error, failing the
// test when there is none.
func readErr(t *testing.T, o Options) error {
	t.Helper()
	res, err := Read(context.Background(), o)
	if err == nil {
		t.Fatalf("Read gave a manifest, want an error:\n%s", res.Manifest)
	}
	return err
}

// serverTools are the toolset of that name in a manifest: its tools'
// names, and the toolset's entry as read back by the manifest reader,
// which also holds the file to the format.
func serverTools(t *testing.T, data []byte, name string) ([]string, *manifest.Toolset) {
	t.Helper()
	m, problems := manifest.Load("m.json", data)
	if len(problems) > 0 {
		t.Fatalf("the manifest does not follow the format: %v\n%s", problems, data)
	}
	for _, ts := range m.Toolsets {
		if ts.Name == name {
			return ts.Names(), ts
		}
	}
	t.Fatalf("the manifest has no toolset %q", name)
	return nil, nil
}

// TestReadPages: every page of tools/list is read, in the server's order,
// and each tool's spec is its name, description and input schema, with
// its size and digest; the server's entry has its digest.
func TestReadPages(t *testing.T) {
	var tools []*mcp.Tool
	var names []string
	for _, n := range []string{"alpha", "bravo", "charlie", "delta", "echo"} {
		tools = append(tools, testTool(n, "The "+n+" tool."))
		names = append(names, n)
	}
	s := newSDKServer(2, tools...)
	counter := &counting{h: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)}
	url := serve(t, counter)
	res := read(t, Options{Config: testConfig("", "pages", url)})
	got, ts := serverTools(t, res.Manifest, "pages")
	if !slices.Equal(got, names) {
		t.Errorf("tools %q, want %q", got, names)
	}
	if n := counter.lists.Load(); n != 3 {
		t.Errorf("%d tools/list requests for 5 tools 2 to a page, want 3", n)
	}
	var spec map[string]any
	if err := json.Unmarshal(ts.Tools[2].Spec, &spec); err != nil {
		t.Fatal(err)
	}
	if spec["name"] != "charlie" || spec["description"] != "The charlie tool." || spec["parameters"].(map[string]any)["type"] != "object" {
		t.Errorf("spec %s", ts.Tools[2].Spec)
	}
	if ts.Tools[2].SpecBytes != len(ts.Tools[2].Spec) || ts.Tools[2].Digest == "" || ts.Digest == "" || !ts.Connected {
		t.Errorf("tool %+v, toolset digest %q connected %v", ts.Tools[2], ts.Digest, ts.Connected)
	}
	// The same install read again gives the same bytes.
	if again := read(t, Options{Config: testConfig("", "pages", url)}); string(again.Manifest) != string(res.Manifest) {
		t.Errorf("two reads of one install differ")
	}
}

// TestReadOrder: the manifest lists Kokua's own toolsets, then the
// plugins, the skills and the MCP servers, each kind in its order
// (R165): plugins as --plugins lists them, skills sorted, servers in the
// config's order, however fast each answers.
func TestReadOrder(t *testing.T) {
	_, zeta := sdkServer(t, testTool("z", "z"))
	_, alpha := sdkServer(t, testTool("a", "a"))
	plugins := Source{Name: "plugins.json", Data: []byte(`[
  {"name": "jira", "kind": "plugin", "description": "Jira.", "tools": [{"name": "jira_search"}]},
  {"name": "crm", "kind": "plugin", "description": "CRM.", "tools": []}
]`)}
	res := read(t, Options{Config: testConfig("", "zeta", zeta, "alpha", alpha), Skills: "testdata/skills", Plugins: &plugins})
	m, problems := manifest.Load("m.json", res.Manifest)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	var kinds, names []string
	for _, ts := range m.Toolsets {
		if len(kinds) == 0 || kinds[len(kinds)-1] != ts.Kind {
			kinds = append(kinds, ts.Kind)
		}
		if ts.Kind != "kokua" {
			names = append(names, ts.Name)
		}
	}
	if want := []string{"kokua", "plugin", "skill", "mcp"}; !slices.Equal(kinds, want) {
		t.Errorf("kinds in the order %q, want %q", kinds, want)
	}
	if want := []string{"jira", "crm", "pdf-tools", "weekly-digest", "zeta", "alpha"}; !slices.Equal(names, want) {
		t.Errorf("toolsets %q, want %q", names, want)
	}
	if res.Kokua != 23 || res.Plugins != 2 || res.Skills != 2 || res.Servers != 2 {
		t.Errorf("counts %+v", res)
	}
	// A plugin fragment holding another kind is refused, at its place.
	bad := Source{Name: "plugins.json", Data: []byte(`[{"name": "x", "kind": "skill", "description": "", "tools": []}]`)}
	if err := readErr(t, Options{Config: testConfig(""), Plugins: &bad}); !strings.Contains(err.Error(), "--plugins carries plugins only") {
		t.Errorf("a skill in --plugins: %v", err)
	}
	broken := Source{Name: "plugins.json", Data: []byte("[\n  {\"name\": \"x\", \"kind\": \"plugin\", \"tools\": []}\n]")}
	if err := readErr(t, Options{Config: testConfig(""), Plugins: &broken}); !strings.Contains(err.Error(), "plugins.json:2:3:") || !strings.Contains(err.Error(), "description") {
		t.Errorf("a plugin without a description: %v", err)
	}
}

// TestSSEFallback: a server of the older HTTP+SSE transport, which
// answers the first POST with 400, is read over SSE.
func TestSSEFallback(t *testing.T) {
	s := newSDKServer(0, testTool("old", "An SSE server's tool."))
	url := serve(t, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil))
	res := read(t, Options{Config: testConfig("", "legacy", url)})
	if got, _ := serverTools(t, res.Manifest, "legacy"); !slices.Equal(got, []string{"old"}) {
		t.Errorf("tools %q", got)
	}
}

// TestBearerToken: the token is read from the variable token_env names
// and sent to the server; it is written nowhere. A missing or refused
// token is an error naming the server and the variable.
func TestBearerToken(t *testing.T) {
	const token = "s3cret-t0ken-value"
	s := newSDKServer(0, testTool("private", "Needs a token."))
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.Header().Set("WWW-Authenticate", `Bearer realm="test"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	cfg := testConfig("", "vault=KOKUA_TEST_TOKEN", url)

	t.Setenv("KOKUA_TEST_TOKEN", token)
	res := read(t, Options{Config: cfg})
	if got, _ := serverTools(t, res.Manifest, "vault"); !slices.Equal(got, []string{"private"}) {
		t.Errorf("tools %q", got)
	}
	if strings.Contains(string(res.Manifest), token) {
		t.Errorf("the manifest holds the token")
	}

	t.Setenv("KOKUA_TEST_TOKEN", "wrong")
	err := readErr(t, Options{Config: cfg})
	if want := "MCP server 'vault': refused the bearer token in 'KOKUA_TEST_TOKEN' (HTTP 401)"; err.Error() != want {
		t.Errorf("a wrong token: %q, want %q", err, want)
	}

	t.Setenv("KOKUA_TEST_TOKEN", "")
	err = readErr(t, Options{Config: cfg})
	if !strings.Contains(err.Error(), "MCP server 'vault': its token_env names the variable 'KOKUA_TEST_TOKEN', which is not set") {
		t.Errorf("no token: %q", err)
	}
	// Without token_env, the server's 401 asks for authorization that
	// kokua-compile cannot give.
	err = readErr(t, Options{Config: testConfig("", "vault", url)})
	if !strings.Contains(err.Error(), "MCP server 'vault': requires authorization (HTTP 401; WWW-Authenticate: 'Bearer realm=\"test\"')") ||
		!strings.Contains(err.Error(), "cannot sign in with OAuth") {
		t.Errorf("no token_env: %q", err)
	}
}

// TestBadServers: each server that cannot be read is an error naming it
// and why, every one of them at once, and no manifest; with AllowMissing,
// each is recorded as not connected.
func TestBadServers(t *testing.T) {
	refusing := closedPort(t)
	garbage := serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html><body>Welcome to the wiki</body></html>"))
	}))
	failing := serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "database down", http.StatusInternalServerError)
	}))
	oauth := serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	forbidden := serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusForbidden) }))
	everyTool := fakeServer(t, func(cursor string) []byte {
		// 100,000 tools, a thousand to a page.
		n := 0
		if cursor != "" {
			n = atoi(t, cursor)
		}
		next := ""
		if n+1000 < 100000 {
			next = strconv.Itoa(n + 1000)
		}
		return toolsPage("t", n, 1000, next)
	})
	flood := fakeServer(t, func(string) []byte {
		return []byte(`{"tools":[{"name":"big","description":"` + strings.Repeat("x", 10<<20) + `","inputSchema":{"type":"object"}}]}`)
	})
	onePage := fakeServer(t, func(string) []byte { return toolsPage("t", 0, 100000, "") })
	var page atomic.Int64
	looping := fakeServer(t, func(string) []byte { return toolsPage("t", int(page.Add(1)), 1, "again") })
	endless := fakeServer(t, func(cursor string) []byte { return toolsPage("", 0, 0, cursor+"x") })
	twice := fakeServer(t, func(string) []byte {
		return []byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]}`)
	})
	refusedByClient := fakeServer(t, func(string) []byte {
		return []byte(`{"tools":[{"name":"ok","inputSchema":{"type":"object"}},{"name":"hidden","inputSchema":{"type":"object","properties":{"a":{"type":"object","x-mcp-header":"X"}}}}]}`)
	})
	nullTool := fakeServer(t, func(string) []byte { return []byte(`{"tools":[null]}`) })
	cases := []struct{ name, url, why string }{
		{"refused-by-client", refusedByClient, "lists the tool 'hidden', which the MCP client refuses: 'property \"a\": x-mcp-header can only be applied to primitive types"},
		{"null-tool", nullTool, "lists a tool that is not one (null)"},
		{"refusing", refusing, "refused the connection: nothing listens at '" + strings.TrimSuffix(strings.TrimPrefix(refusing, "http://"), "/mcp") + "'"},
		{"garbage", garbage, "did not answer as an MCP server does: "},
		{"failing", failing, "answered HTTP 500: "},
		{"oauth", oauth, "requires authorization (HTTP 401; WWW-Authenticate: 'Bearer resource_metadata="},
		{"forbidden", forbidden, "refused access (HTTP 403)"},
		{"every-tool", everyTool, "lists more than 4,096 tools, more than kokua-compile reads from one server"},
		{"flood", flood, "sent more than 4 MiB while its tools were read, more than kokua-compile reads from one server"},
		{"one-page", onePage, "sent more than 4 MiB while its tools were read"},
		{"looping", looping, "gave a cursor of tools/list it had given before, so its pages never end"},
		{"twice", twice, "lists the tool 'a' twice"},
		{"no-url", "file:///etc/passwd", "its url 'file:///etc/passwd' is not an http or https address"},
	}
	_, good := sdkServer(t, testTool("fine", "A tool."))
	args := []string{"good", good}
	for _, c := range cases {
		args = append(args, c.name, c.url)
	}
	cfg := testConfig("", args...)
	// Time enough for a loaded machine: none of these hangs.
	err := readErr(t, Options{Config: cfg, Timeout: time.Minute})
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	if len(errs) != len(cases) {
		t.Errorf("%d errors, want one per bad server (%d):\n%v", len(errs), len(cases), err)
	}
	for _, c := range cases {
		found := false
		for _, e := range errs {
			var se *ServerError
			if errors.As(e, &se) && se.Server == c.name {
				found = true
				if !strings.Contains(se.Why, c.why) {
					t.Errorf("%s: %q, want it to say %q", c.name, se.Why, c.why)
				}
				if raw := hostile.Raw([]byte(se.Error())); raw != "" || len(se.Error()) > 600 {
					t.Errorf("%s: the message is %d bytes, or carries %s: %q", c.name, len(se.Error()), raw, se.Error())
				}
			}
		}
		if !found {
			t.Errorf("no error names the server %q", c.name)
		}
	}

	// A server whose cursors never repeat is read until the bound on
	// pages (each page a round trip: a slow read, given time of its own).
	err = readErr(t, Options{Config: testConfig("", "endless", endless), Timeout: time.Minute})
	if want := "MCP server 'endless': answered 1024 pages of tools/list and still gave a cursor"; err.Error() != want {
		t.Errorf("endless: %q, want %q", err, want)
	}

	// With AllowMissing, each is recorded as not connected and said so;
	// the good server's tools are there.
	res := read(t, Options{Config: cfg, Timeout: time.Minute, AllowMissing: true})
	if len(res.Missing) != len(cases) {
		t.Errorf("%d servers not connected, want %d", len(res.Missing), len(cases))
	}
	if got, _ := serverTools(t, res.Manifest, "good"); !slices.Equal(got, []string{"fine"}) {
		t.Errorf("the good server's tools: %q", got)
	}
	for _, c := range cases {
		if got, ts := serverTools(t, res.Manifest, c.name); len(got) != 0 || ts.Connected {
			t.Errorf("%s: tools %q, connected %v; want none, not connected", c.name, got, ts.Connected)
		}
	}
}

// TestServersReadTogether: servers that hang are each an error saying so
// once the timeout passes, and they are read together: three of them
// cost about one timeout, not three, and a server that answers is read
// meanwhile.
func TestServersReadTogether(t *testing.T) {
	hang := make(chan struct{})
	hanging := serve(t, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(hang) })
	_, good := sdkServer(t, testTool("fine", "A tool."))
	cfg := testConfig("", "one", hanging, "good", good, "two", hanging, "three", hanging)
	const timeout = 2 * time.Second
	start := time.Now()
	res, err := Read(context.Background(), Options{Config: cfg, Timeout: timeout, AllowMissing: true})
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	// One after another, the hanging servers alone would take three
	// timeouts, 6s; read together about one. The bound is the sequential
	// cost, so that a loaded machine (or -race) does not fail a read that
	// was concurrent.
	if elapsed < timeout || elapsed >= 3*timeout {
		t.Errorf("the read took %s; read together, three hanging servers cost less than three timeouts (%s each)", elapsed, timeout)
	}
	var missing []string
	for _, m := range res.Missing {
		missing = append(missing, m.Server)
		if m.Why != "did not answer within 2s (--timeout)" {
			t.Errorf("%s: %q", m.Server, m.Why)
		}
	}
	if want := []string{"one", "two", "three"}; !slices.Equal(missing, want) {
		t.Errorf("not connected: %q, want %q", missing, want)
	}
	if got, _ := serverTools(t, res.Manifest, "good"); !slices.Equal(got, []string{"fine"}) {
		t.Errorf("the good server's tools: %q", got)
	}
}

// closedPort is the url of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr + "/mcp"
}

// TestHostileDescriptions: a tool's name and description are data: every
// control character, bidirectional override and forged workflow command
// reaches the manifest escaped, and reads back as the server sent it.
func TestHostileDescriptions(t *testing.T) {
	names := hostile.Valid()
	url := fakeServer(t, func(string) []byte {
		var tools []string
		for i, n := range names {
			tools = append(tools, `{"name":`+hostile.JSONString(n)+`,"description":`+hostile.JSONString(names[(i+1)%len(names)]+" <b>&amp;</b>")+`,"inputSchema":{"type":"object"}}`)
		}
		return []byte(`{"tools":[` + strings.Join(tools, ",") + `]}`)
	})
	res := read(t, Options{Config: testConfig("", "wiki", url)})
	if raw := hostile.Raw(res.Manifest); raw != "" || hostile.Forged(res.Manifest) {
		t.Errorf("the manifest carries %s (forged: %v)", raw, hostile.Forged(res.Manifest))
	}
	got, ts := serverTools(t, res.Manifest, "wiki")
	if !slices.Equal(got, names) {
		t.Errorf("tools %q, want %q", got, names)
	}
	for i, tool := range ts.Tools {
		var spec struct{ Description string }
		if err := json.Unmarshal(tool.Spec, &spec); err != nil {
			t.Fatal(err)
		}
		if want := names[(i+1)%len(names)] + " <b>&amp;</b>"; spec.Description != want {
			t.Errorf("%q: description %q, want %q", tool.Name, spec.Description, want)
		}
	}
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Errorf("cursor %q: %v", s, err)
	}
	return n
}
