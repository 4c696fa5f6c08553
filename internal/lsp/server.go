package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/version"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// DefaultDebounce is how long the server waits after an edit before it
// lints, so that a burst of keystrokes is linted once.
const DefaultDebounce = 100 * time.Millisecond

// Options configure a server.
type Options struct {
	// Manifest is the registry manifest to check against, already loaded;
	// nil takes initializationOptions.manifest (a path) or, without one, the
	// embedded default install.
	Manifest *lint.Manifest
	// ManifestPath is the file Manifest was read from, watched for changes;
	// empty for no file.
	ManifestPath string
	// Debounce is how long to wait after an edit before linting; zero lints
	// at once. The command uses DefaultDebounce.
	Debounce time.Duration
	// Log receives one line per event worth knowing (a manifest reloaded or
	// refused); nil discards them. Clients see the same lines as
	// window/logMessage notifications.
	Log io.Writer
}

// ErrNoShutdown is what Serve returns when the client ends the session
// with exit but without shutdown first; the protocol asks the server to
// exit with status 1 then.
var ErrNoShutdown = errors.New("the client sent exit without shutdown")

// Serve answers one client on a stream (stdin and stdout joined, or one
// end of a pipe) until the client sends exit, the stream ends or ctx is
// done. It returns nil after shutdown and exit. A malformed frame does
// not end the session: it is answered with an error or dropped, and
// logged (frames).
func Serve(ctx context.Context, stream io.ReadWriteCloser, opts Options) error {
	return serve(ctx, newFrames(stream, maxFrame), opts)
}

func serve(ctx context.Context, stream *frames, opts Options) error {
	conn := jsonrpc2.NewConn(stream)
	s := newServer(conn, opts)
	defer s.close()
	stream.log = func(msg string) { s.logf(protocol.MessageTypeWarning, "%s", msg) }
	conn.Go(ctx, s.handle)
	select {
	case <-conn.Done():
	case <-s.exit:
		// The stream's reader may still wait on a stream that Close does
		// not end (a process's stdin); the session is over all the same.
	case <-ctx.Done():
		_ = conn.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.exited && s.shutdown:
		return nil
	case s.exited:
		return ErrNoShutdown
	case ctx.Err() != nil:
		return ctx.Err()
	}
	if err := conn.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		return fmt.Errorf("the client's stream ended: %w", err)
	}
	return nil
}

// server is the state of one session.
type server struct {
	conn jsonrpc2.Conn
	opts Options

	// mu guards everything below, and is held while diagnostics are
	// published so that they reach the client in the order they were made.
	mu       sync.Mutex
	docs     map[protocol.DocumentURI]*document
	manifest *lint.Manifest
	// manifestPath is the manifest file, watched for changes; empty for
	// the embedded default.
	manifestPath string
	watch        *watcher
	enc          Encoding
	root         string
	// initialized is set once initialize is answered, shutdown once
	// shutdown is: outOfTurn refuses what comes before and after.
	initialized bool
	shutdown    bool
	exited      bool
	// exit is closed when the client sends exit.
	exit chan struct{}
}

func newServer(conn jsonrpc2.Conn, opts Options) *server {
	return &server{conn: conn, opts: opts, docs: map[protocol.DocumentURI]*document{}, enc: UTF16, exit: make(chan struct{})}
}

func (s *server) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		d.stop()
	}
	if s.watch != nil {
		s.watch.close()
	}
}

// logf writes a line to the server's log and to the client's.
func (s *server) logf(typ protocol.MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.opts.Log != nil {
		fmt.Fprintln(s.opts.Log, "kokua-lint lsp: "+msg)
	}
	_ = s.conn.Notify(context.Background(), protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: typ, Message: msg})
}

// handle answers one request or notification. It runs on the stream's
// reading goroutine, one message at a time; linting after an edit runs
// later, on a timer, unless Debounce is zero.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	params := req.Params()
	if refused, err := s.outOfTurn(ctx, reply, req); refused {
		return err
	}
	switch req.Method() {
	case protocol.MethodInitialize:
		return answer(ctx, reply, params, s.initialize)
	case protocol.MethodInitialized:
		return reply(ctx, nil, nil)
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case protocol.MethodExit:
		s.mu.Lock()
		if !s.exited {
			s.exited = true
			close(s.exit)
		}
		s.mu.Unlock()
		return s.conn.Close()
	case protocol.MethodTextDocumentDidOpen:
		return notified(ctx, reply, params, s.didOpen)
	case protocol.MethodTextDocumentDidChange:
		return notified(ctx, reply, params, s.didChange)
	case protocol.MethodTextDocumentDidSave:
		return notified(ctx, reply, params, s.didSave)
	case protocol.MethodTextDocumentDidClose:
		return notified(ctx, reply, params, s.didClose)
	case protocol.MethodTextDocumentHover:
		return answer(ctx, reply, params, s.hover)
	case protocol.MethodTextDocumentCompletion:
		return answer(ctx, reply, params, s.completion)
	case protocol.MethodTextDocumentCodeAction:
		return answer(ctx, reply, params, s.codeActions)
	case protocol.MethodTextDocumentDefinition:
		return answer(ctx, reply, params, s.definition)
	}
	if _, isCall := req.(*jsonrpc2.Call); isCall {
		return reply(ctx, nil, fmt.Errorf("%s: %w", req.Method(), jsonrpc2.ErrMethodNotFound))
	}
	return nil // a notification the server has no use for ($/cancelRequest, ...)
}

// outOfTurn answers a message the session's state does not allow, as the
// protocol says: before initialize, a request gets the error
// ServerNotInitialized (-32002) and a notification is dropped; a second
// initialize, and a request after shutdown, get InvalidRequest. exit is
// always taken. refused says the message was answered here.
func (s *server) outOfTurn(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (refused bool, err error) {
	method := req.Method()
	if method == protocol.MethodExit {
		return false, nil
	}
	s.mu.Lock()
	ready, down := s.initialized, s.shutdown
	s.mu.Unlock()
	_, isCall := req.(*jsonrpc2.Call)
	var why *jsonrpc2.Error
	switch {
	case !ready && method != protocol.MethodInitialize:
		why = jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, method+": the server is not initialized: send initialize first")
	case ready && method == protocol.MethodInitialize:
		why = jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize: the server is already initialized")
	case down:
		why = jsonrpc2.NewError(jsonrpc2.InvalidRequest, method+": the server is shut down: only exit is taken")
	default:
		return false, nil
	}
	if !isCall {
		return true, nil
	}
	return true, reply(ctx, nil, why)
}

// answer decodes a request's parameters, calls fn and replies with what
// it returns.
func answer[P, R any](ctx context.Context, reply jsonrpc2.Replier, raw json.RawMessage, fn func(*P) (R, error)) error {
	var p P
	if err := decode(raw, &p); err != nil {
		return reply(ctx, nil, err)
	}
	r, err := fn(&p)
	if err != nil {
		return reply(ctx, nil, err)
	}
	return reply(ctx, r, nil)
}

// notified decodes a notification's parameters and calls fn.
func notified[P any](ctx context.Context, reply jsonrpc2.Replier, raw json.RawMessage, fn func(*P)) error {
	var p P
	if err := decode(raw, &p); err != nil {
		return reply(ctx, nil, err)
	}
	fn(&p)
	return reply(ctx, nil, nil)
}

func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%w: %w", jsonrpc2.ErrInvalidParams, err)
	}
	return nil
}

// initializeParams are the parts of initialize the server reads:
// protocol.InitializeParams predates positionEncodings (LSP 3.17).
type initializeParams struct {
	RootURI               protocol.DocumentURI `json:"rootUri"`
	InitializationOptions struct {
		// Manifest is the registry manifest's path, from the workspace
		// root when relative.
		Manifest string `json:"manifest"`
	} `json:"initializationOptions"`
	Capabilities struct {
		General struct {
			PositionEncodings []Encoding `json:"positionEncodings"`
		} `json:"general"`
	} `json:"capabilities"`
}

// initializeResult adds positionEncoding (LSP 3.17) to the capabilities.
type initializeResult struct {
	Capabilities capabilities         `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

type capabilities struct {
	protocol.ServerCapabilities
	PositionEncoding Encoding `json:"positionEncoding,omitempty"`
}

// chooseEncoding picks UTF-8 or UTF-32 when the client offers one, the
// texts being held in UTF-8 bytes; UTF-16 otherwise, the protocol's
// default, which every client supports.
func chooseEncoding(offered []Encoding) Encoding {
	for _, e := range []Encoding{UTF8, UTF32} {
		if slices.Contains(offered, e) {
			return e
		}
	}
	return UTF16
}

func (s *server) initialize(p *initializeParams) (*initializeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.RootURI != "" {
		s.root = p.RootURI.Filename()
	}
	s.enc = chooseEncoding(p.Capabilities.General.PositionEncodings)
	s.manifest, s.manifestPath = s.opts.Manifest, s.opts.ManifestPath
	if s.manifest == nil && p.InitializationOptions.Manifest != "" {
		path := p.InitializationOptions.Manifest
		if !filepath.IsAbs(path) && s.root != "" {
			path = filepath.Join(s.root, path)
		}
		s.manifestPath = path
		s.loadManifest()
	}
	if s.manifest == nil {
		s.manifest = lint.DefaultManifest()
	}
	s.initialized = true
	if s.manifestPath != "" {
		w, err := watchFile(s.manifestPath, s.reloadManifest)
		if err != nil {
			s.logf(protocol.MessageTypeWarning, "cannot watch %s for changes: %v", s.manifestPath, err)
		}
		s.watch = w
	}
	res := &initializeResult{
		Capabilities: capabilities{
			ServerCapabilities: protocol.ServerCapabilities{
				TextDocumentSync: &protocol.TextDocumentSyncOptions{
					OpenClose: true, Change: protocol.TextDocumentSyncKindIncremental, Save: &protocol.SaveOptions{},
				},
				HoverProvider:      true,
				CompletionProvider: &protocol.CompletionOptions{TriggerCharacters: []string{`"`, `'`, "."}},
				CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, sourceFixAll}},
				DefinitionProvider: true,
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "kokua-lint", Version: version.Version},
	}
	if len(p.Capabilities.General.PositionEncodings) > 0 {
		res.Capabilities.PositionEncoding = s.enc
	}
	return res, nil
}

// loadManifest reads the manifest file. A file that cannot be read keeps
// the manifest the server has, or the embedded default when it has none;
// a file that can be read but is not a manifest is reported on every
// config, as kokua-lint reports it. It reports whether it read the file.
func (s *server) loadManifest() bool {
	src, err := lint.ReadFile(s.manifestPath)
	if err != nil {
		what := "the embedded default install"
		if s.manifest != nil && !s.manifest.Embedded {
			what = "the manifest read before"
		}
		s.logf(protocol.MessageTypeError, "%v; checking against %s", err, what)
		_ = s.conn.Notify(context.Background(), protocol.MethodWindowShowMessage,
			&protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: fmt.Sprintf("kokua-lint: %v; checking against %s", err, what)})
		return false
	}
	s.manifest = lint.LoadManifest(src)
	return true
}

// reloadManifest reads the manifest again after the file changed and
// lints every open config against it.
func (s *server) reloadManifest() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loadManifest() {
		return
	}
	s.logf(protocol.MessageTypeInfo, "reloaded the manifest %s", s.manifestPath)
	for _, d := range s.docs {
		s.lintAndPublish(d)
	}
}

// document is one open config.
type document struct {
	uri     protocol.DocumentURI
	name    string
	version int32
	text    text
	// timer lints the document once the edits pause.
	timer *time.Timer
	// linted is the lint of the current text; nil until it has run.
	linted *engine.Linted
	// good is the last lint that built a model: completion uses it while
	// the text being typed is not valid TOML.
	good *engine.Linted
	// kokua is false for a TOML file with no Kokua table.
	kokua bool
	// policy is, for a policy test file, the last good policy of the
	// config beside it (tests.go).
	policy *policy.Policy
}

func (d *document) stop() {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
}

// nameOf is the file name diagnostics are about: the document's path.
func nameOf(u protocol.DocumentURI) string {
	if u, err := uri.Parse(string(u)); err == nil && u.Filename() != "" {
		return u.Filename()
	}
	return string(u)
}

func (s *server) didOpen(p *protocol.DidOpenTextDocumentParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.docs[p.TextDocument.URI]; old != nil {
		old.stop()
	}
	d := &document{uri: p.TextDocument.URI, name: nameOf(p.TextDocument.URI), version: p.TextDocument.Version, text: newText(p.TextDocument.Text)}
	s.docs[d.uri] = d
	s.lintAndPublish(d)
}

// didChangeParams reads each change's range as optional: a change
// without one replaces the whole text.
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []struct {
		Range *protocol.Range `json:"range"`
		Text  string          `json:"text"`
	} `json:"contentChanges"`
}

func (s *server) didChange(p *didChangeParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return
	}
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			d.text = newText(c.Text)
		} else {
			d.text = d.text.edit(*c.Range, c.Text, s.enc)
		}
	}
	d.version = p.TextDocument.Version
	d.linted = nil
	s.schedule(d)
}

// schedule lints the document once no edit has come for the debounce
// time; every edit restarts the wait.
func (s *server) schedule(d *document) {
	d.stop()
	if s.opts.Debounce <= 0 {
		s.lintAndPublish(d)
		return
	}
	version := d.version
	d.timer = time.AfterFunc(s.opts.Debounce, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.docs[d.uri] == d && d.version == version && d.linted == nil {
			s.lintAndPublish(d)
		}
	})
}

func (s *server) didSave(p *protocol.DidSaveTextDocumentParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[p.TextDocument.URI]; d != nil && d.linted == nil {
		d.stop()
		s.lintAndPublish(d)
	}
}

func (s *server) didClose(p *protocol.DidCloseTextDocumentParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[p.TextDocument.URI]; d != nil {
		d.stop()
		delete(s.docs, p.TextDocument.URI)
		s.publish(d.uri, d.version, []protocol.Diagnostic{})
	}
}

// current returns the open document, linted; nil when it is not open.
// The caller holds mu.
func (s *server) current(u protocol.DocumentURI) *document {
	d := s.docs[u]
	if d != nil && d.linted == nil {
		d.stop()
		s.lintAndPublish(d)
	}
	return d
}

// lintAndPublish lints the document's text and publishes its diagnostics.
// The caller holds mu.
func (s *server) lintAndPublish(d *document) {
	s.publish(d.uri, d.version, s.diagnose(d))
	s.retest(d)
}

func (s *server) publish(u protocol.DocumentURI, version int32, ds []protocol.Diagnostic) {
	_ = s.conn.Notify(context.Background(), protocol.MethodTextDocumentPublishDiagnostics,
		&protocol.PublishDiagnosticsParams{URI: u, Version: uint32(max(version, 0)), Diagnostics: ds})
}

// diagnose lints the document and returns its findings as the protocol
// writes them; nothing for a file that is not Kokua's. A document over
// lint.MaxInputBytes is not linted: its one diagnostic is the error
// kokua-lint gives for a file that large, at its start.
func (s *server) diagnose(d *document) []protocol.Diagnostic {
	if len(d.text.s) > lint.MaxInputBytes {
		d.linted, d.good, d.kokua = &engine.Linted{}, nil, false
		return []protocol.Diagnostic{{
			Severity: protocol.DiagnosticSeverityError,
			Source:   "kokua-lint",
			Message:  lint.TooLarge(d.name).Error(),
		}}
	}
	if s.manifest == nil { // a document opened before initialize
		s.manifest = s.opts.Manifest
		if s.manifest == nil {
			s.manifest = lint.DefaultManifest()
		}
	}
	if isTestFile(d.name) {
		return s.diagnoseTests(d)
	}
	src := lint.Source{Name: d.name, Data: d.text.lines.Data}
	d.linted = engine.Run(src, s.manifest)
	d.kokua = d.linted.Kokua
	if !d.kokua {
		d.linted = &engine.Linted{}
		return []protocol.Diagnostic{}
	}
	if d.linted.World != nil {
		d.good = d.linted
	}
	out := make([]protocol.Diagnostic, 0, len(d.linted.Diagnostics))
	for _, f := range d.linted.Diagnostics {
		out = append(out, s.toProtocol(d, f))
	}
	return out
}

// toProtocol writes one finding as a protocol diagnostic: the same
// message with its notes (the full text, as the JSON output has it),
// severity and rule as kokua-lint prints, the rule's page as the
// code's description. A finding in another file (the manifest) is shown
// at the top of the config, its own place named in the message. Each
// range costs a lookup in the document's line index (O(log n) and at most
// a checkpoint's bytes decoded), so many findings on one long line cost
// time in proportion to their number (issue 18).
func (s *server) toProtocol(d *document, f diag.Diagnostic) protocol.Diagnostic {
	out := protocol.Diagnostic{
		Severity:        severities[f.Severity],
		Code:            f.Rule,
		CodeDescription: &protocol.CodeDescription{Href: protocol.URI(lint.SARIFRuleHelpURI(f.Rule))},
		Source:          "kokua-lint",
		Message:         f.Text(),
	}
	if f.Span.File == d.name {
		out.Range = d.text.protocolRange(f.Span, s.enc)
	} else {
		out.Message = f.Span.String() + ": " + f.Text()
	}
	return out
}

var severities = map[diag.Severity]protocol.DiagnosticSeverity{
	diag.Error:   protocol.DiagnosticSeverityError,
	diag.Warning: protocol.DiagnosticSeverityWarning,
	diag.Info:    protocol.DiagnosticSeverityInformation,
}
