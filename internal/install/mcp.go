package install

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/version"
)

// What one server may send, far beyond any real one (a server of a
// hundred tools sends a few hundred kilobytes), so that a server that
// lists without end, or answers with a flood, costs a bounded read.
const (
	// MaxServerTools is the most tools one server may list.
	MaxServerTools = 4096
	// MaxServerBytes is the most bytes one server may send while it is
	// read: every HTTP response body, added up.
	MaxServerBytes = 4 << 20
	// maxPages is the most pages of tools/list read from one server; a
	// server that answers empty pages with a cursor forever stops here.
	maxPages = 1024
	// maxQuoted is the most of a server's own text (an error it answered, a
	// WWW-Authenticate header) a message quotes.
	maxQuoted = 200
)

// DefaultTimeout is how long one server has to answer, from the first
// connection to the last page of tools/list.
const DefaultTimeout = 10 * time.Second

// Server is one [[mcp.server]] of the config: its name, its url and the
// name of the variable that holds its bearer token ("" for none). The
// token's value is read when the server is, sent to it alone, and never
// written anywhere.
type Server struct {
	Name     string
	URL      string
	TokenEnv string
}

// Tool is one tool a server lists, as the manifest records it: its name,
// its spec as sent to the model ({"description", "name", "parameters"},
// in canonical form: manifest.Canonical), the spec's size and its digest.
type Tool struct {
	Name      string
	Spec      json.RawMessage
	SpecBytes int
	Digest    string
}

// ServerError is a server that could not be read: which, and why.
type ServerError struct {
	Server string
	// Why says what went wrong, in words for the user.
	Why string
}

func (e *ServerError) Error() string {
	return fmt.Sprintf("MCP server %s: %s", printable.Quote(e.Server), e.Why)
}

// ReadServer lists every tool of one server over streamable HTTP, or over
// the older HTTP+SSE transport when the server answers the first POST
// with a 4xx other than 401 and 403 (the fallback the MCP specification
// describes), within timeout, and reading at most MaxServerBytes and
// MaxServerTools. Any failure is a *ServerError that says why.
func ReadServer(ctx context.Context, s Server, timeout time.Duration) ([]Tool, error) {
	fail := func(format string, args ...any) error {
		return &ServerError{Server: s.Name, Why: fmt.Sprintf(format, args...)}
	}
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fail("its url %s is not an http or https address", printable.Quote(shownURL(s.URL)))
	}
	token := ""
	if s.TokenEnv != "" {
		v, ok := os.LookupEnv(s.TokenEnv)
		if !ok || v == "" {
			return nil, fail("its token_env names the variable %s, which is not set: set it to the server's bearer token", printable.Quote(s.TokenEnv))
		}
		token = v
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rt := &recorder{base: http.DefaultTransport, token: token}
	hc := &http.Client{Transport: rt, Timeout: timeout}
	tools, err := list(ctx, &mcp.StreamableClientTransport{Endpoint: s.URL, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true})
	if err != nil && rt.fallback() && ctx.Err() == nil {
		rt.reset()
		tools, err = list(ctx, &mcp.SSEClientTransport{Endpoint: s.URL, HTTPClient: hc})
	}
	if err != nil {
		return nil, &ServerError{Server: s.Name, Why: rt.why(ctx, err, s, timeout)}
	}
	return tools, nil
}

// list connects over t and reads every page of tools/list.
func list(ctx context.Context, t mcp.Transport) ([]Tool, error) {
	dropped := &droppedTools{}
	client := mcp.NewClient(&mcp.Implementation{Name: "kokua-compile", Version: version.Version},
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}, Logger: slog.New(dropped)})
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, err
	}
	defer func() { _ = cs.Close() }()
	var tools []Tool
	seen := map[string]bool{}
	cursors := map[string]bool{}
	params := &mcp.ListToolsParams{}
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, &listError{fmt.Sprintf("answered %d pages of tools/list and still gave a cursor", maxPages)}
		}
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		if why := dropped.first(); why != "" {
			return nil, &listError{why}
		}
		for _, lt := range res.Tools {
			if len(tools) == MaxServerTools {
				return nil, &listError{fmt.Sprintf("lists more than %s tools, more than kokua-compile reads from one server", printable.Thousands(MaxServerTools))}
			}
			t, err := tool(lt)
			if err != nil {
				return nil, err
			}
			if seen[t.Name] {
				return nil, &listError{fmt.Sprintf("lists the tool %s twice", printable.Quote(t.Name))}
			}
			seen[t.Name] = true
			tools = append(tools, t)
		}
		if res.NextCursor == "" {
			return tools, nil
		}
		if cursors[res.NextCursor] {
			return nil, &listError{"gave a cursor of tools/list it had given before, so its pages never end"}
		}
		cursors[res.NextCursor] = true
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

// droppedTools is the log of the SDK's client, which leaves a tool it
// finds invalid out of tools/list and logs it: it records the first, so
// that the read fails rather than write a manifest without a tool the
// server lists (and Kokua's own client may call). Every other record is
// dropped.
type droppedTools struct {
	mu  sync.Mutex
	why string
}

func (d *droppedTools) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }
func (d *droppedTools) WithAttrs([]slog.Attr) slog.Handler           { return d }
func (d *droppedTools) WithGroup(string) slog.Handler                { return d }

func (d *droppedTools) Handle(_ context.Context, r slog.Record) error {
	if !strings.HasPrefix(r.Message, "excluding") {
		return nil
	}
	tool, cause := "", ""
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "tool":
			tool = a.Value.String()
		case "error":
			cause = a.Value.String()
		}
		return true
	})
	why := "lists a tool that is not one (null)"
	if tool != "" || cause != "" {
		why = fmt.Sprintf("lists the tool %s, which the MCP client refuses: %s", quoted(tool), quoted(cause))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.why == "" {
		d.why = why
	}
	return nil
}

// first is the first tool left out, in words; "" for none.
func (d *droppedTools) first() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.why
}

// listError is a server's answer that is MCP but not a list kokua-compile
// records; its text is the reason as it stands.
type listError struct{ why string }

func (e *listError) Error() string { return e.why }

// tool is one listed tool as the manifest records it: its spec is what
// AIMU sends the model for an MCP tool, the name, the description and the
// input schema as the parameters (docs/readings.md).
func tool(lt *mcp.Tool) (Tool, error) {
	switch {
	case lt.Name == "":
		return Tool{}, &listError{"lists a tool with no name"}
	case len(lt.Name) > manifest.MaxNameBytes:
		return Tool{}, &listError{fmt.Sprintf("lists a tool whose name is %s bytes long; kokua-lint reads names of at most %s bytes",
			printable.Thousands(len(lt.Name)), printable.Thousands(manifest.MaxNameBytes))}
	}
	raw, err := json.Marshal(map[string]any{"name": lt.Name, "description": lt.Description, "parameters": lt.InputSchema})
	if err != nil {
		return Tool{}, &listError{fmt.Sprintf("lists the tool %s with an input schema that is not JSON: %v", printable.Quote(lt.Name), err)}
	}
	spec, err := manifest.Canonical(raw)
	if err != nil {
		return Tool{}, &listError{fmt.Sprintf("lists the tool %s with a spec that is not JSON: %v", printable.Quote(lt.Name), err)}
	}
	digest, err := manifest.SpecDigest(spec)
	if err != nil {
		return Tool{}, &listError{fmt.Sprintf("lists the tool %s with a spec that is not JSON: %v", printable.Quote(lt.Name), err)}
	}
	return Tool{Name: lt.Name, Spec: spec, SpecBytes: len(spec), Digest: digest}, nil
}

// recorder is the HTTP transport of one server's read: it sends the
// bearer token, records the first status and the last refusal the server
// answered (which say why a read failed), and counts every byte of every
// response against MaxServerBytes.
type recorder struct {
	base  http.RoundTripper
	token string

	mu sync.Mutex
	// first is the status of the first response; refused the last
	// response of status 400 or more, with its WWW-Authenticate header.
	first        int
	refused      int
	authenticate string
	// read counts the bytes of the response bodies; over is set once they
	// pass MaxServerBytes.
	read atomic.Int64
	over atomic.Bool
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if r.token != "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if r.first == 0 {
		r.first = resp.StatusCode
	}
	if resp.StatusCode >= 400 {
		r.refused, r.authenticate = resp.StatusCode, resp.Header.Get("WWW-Authenticate")
	}
	r.mu.Unlock()
	resp.Body = &countedBody{ReadCloser: resp.Body, r: r}
	return resp, nil
}

// fallback reports whether the first POST was answered as a server of the
// older HTTP+SSE transport answers it: a 4xx other than 401 and 403.
func (r *recorder) fallback() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.first >= 400 && r.first < 500 && r.first != http.StatusUnauthorized && r.first != http.StatusForbidden
}

// reset forgets what the first transport's try recorded, but the bytes
// it read: they count against the same bound.
func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.first, r.refused, r.authenticate = 0, 0, ""
}

// countedBody counts what is read of a response body against
// MaxServerBytes, and fails the read that passes it.
type countedBody struct {
	io.ReadCloser
	r *recorder
}

// errTooMuch is the error of a read past MaxServerBytes.
var errTooMuch = errors.New("the server sent more than kokua-compile reads")

func (b *countedBody) Read(p []byte) (int, error) {
	if b.r.over.Load() {
		return 0, errTooMuch
	}
	n, err := b.ReadCloser.Read(p)
	if b.r.read.Add(int64(n)) > MaxServerBytes {
		b.r.over.Store(true)
		return 0, errTooMuch
	}
	return n, err
}

// why says why a read failed, from what the transport recorded first and
// the error second: the server's own words are quoted, shortened, and
// never trusted to say more than they do.
func (r *recorder) why(ctx context.Context, err error, s Server, timeout time.Duration) string {
	r.mu.Lock()
	refused, authenticate := r.refused, r.authenticate
	r.mu.Unlock()
	var le *listError
	var dns *net.DNSError
	var ue *url.Error
	switch {
	case r.over.Load():
		return fmt.Sprintf("sent more than %d MiB while its tools were read, more than kokua-compile reads from one server", MaxServerBytes>>20)
	case errors.As(err, &le):
		return le.why
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.As(err, &ue) && ue.Timeout():
		return fmt.Sprintf("did not answer within %s (--timeout)", timeout)
	case refused == http.StatusUnauthorized && s.TokenEnv != "":
		return fmt.Sprintf("refused the bearer token in %s (HTTP 401)", printable.Quote(s.TokenEnv))
	case refused == http.StatusUnauthorized:
		asks := ""
		if authenticate != "" {
			asks = "; WWW-Authenticate: " + quoted(authenticate)
		}
		return fmt.Sprintf("requires authorization (HTTP 401%s): kokua-compile sends only a bearer token, from the variable token_env names, and cannot sign in with OAuth; "+
			"give the server a token_env, or read the others with --allow-missing and add its tools by hand", asks)
	case refused == http.StatusForbidden:
		return "refused access (HTTP 403)"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused the connection: nothing listens at " + quoted(hostOf(s.URL))
	case errors.As(err, &dns):
		return "cannot be reached: no address for the host " + quoted(dns.Name)
	case refused != 0:
		return fmt.Sprintf("answered HTTP %d: %s", refused, quoted(rootCause(err)))
	case isNet(err):
		return "cannot be reached: " + quoted(rootCause(err))
	}
	return "did not answer as an MCP server does: " + quoted(rootCause(err))
}

// isNet reports whether err comes from the network rather than from what
// the server said.
func isNet(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe)
}

// rootCause is the text of the innermost error, which says the cause
// without the layers of the SDK around it.
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// quoted is text from a server or the network for a message: one line,
// shortened to maxQuoted bytes (at a rune's boundary), between quotes.
func quoted(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) > maxQuoted {
		cut := maxQuoted
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return printable.Quote(s)
}

// utf8RuneStart reports whether b starts a rune.
func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// hostOf is the host and port of a url, for a message.
func hostOf(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Host
	}
	return s
}

// shownURL is a url as a message shows it: with its password hidden.
func shownURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		return u.Redacted()
	}
	return s
}

// ReadServers reads every server at once, each within timeout, and
// returns their tools and errors in the servers' order: the whole read
// costs about what the slowest server does.
func ReadServers(ctx context.Context, servers []Server, timeout time.Duration) ([][]Tool, []error) {
	tools, errs := make([][]Tool, len(servers)), make([]error, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() { tools[i], errs[i] = ReadServer(ctx, s, timeout) })
	}
	wg.Wait()
	if slices.ContainsFunc(errs, func(err error) bool { return err != nil }) {
		return tools, errs
	}
	return tools, nil
}
