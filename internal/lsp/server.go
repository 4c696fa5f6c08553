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
	// fixAllMade, when set, is called each time "fix all" is made: the
	// tests count them.
	fixAllMade func()
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
	conn := newConn(stream)
	s := newServer(conn, opts)
	defer s.close()
	stream.log = func(msg string) { s.logf(MessageWarning, "%s", msg) }
	conn.goServe(ctx, s.handle)
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
	conn *conn
	opts Options

	// mu guards everything below, and is held while diagnostics are
	// published so that they reach the client in the order they were made.
	mu       sync.Mutex
	docs     map[DocumentURI]*document
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

func newServer(conn *conn, opts Options) *server {
	return &server{conn: conn, opts: opts, docs: map[DocumentURI]*document{}, enc: UTF16, exit: make(chan struct{})}
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
func (s *server) logf(typ MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.opts.Log != nil {
		fmt.Fprintln(s.opts.Log, "kokua-lint lsp: "+msg)
	}
	_ = s.conn.notify(methodLogMessage, &LogMessageParams{Type: typ, Message: msg})
}

// handle answers one request or notification. It runs on the stream's
// reading goroutine, one message at a time; linting after an edit runs
// later, on a timer, unless Debounce is zero.
func (s *server) handle(ctx context.Context, reply replier, req *message) error {
	params := req.Params
	if refused, err := s.outOfTurn(ctx, reply, req); refused {
		return err
	}
	switch req.Method {
	case methodInitialize:
		return answer(ctx, reply, params, s.initialize)
	case methodInitialized:
		return reply(ctx, nil, nil)
	case methodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case methodExit:
		s.mu.Lock()
		if !s.exited {
			s.exited = true
			close(s.exit)
		}
		s.mu.Unlock()
		return s.conn.Close()
	case methodDidOpen:
		return notified(ctx, reply, params, s.didOpen)
	case methodDidChange:
		return notified(ctx, reply, params, s.didChange)
	case methodDidSave:
		return notified(ctx, reply, params, s.didSave)
	case methodDidClose:
		return notified(ctx, reply, params, s.didClose)
	case methodHover:
		return answer(ctx, reply, params, s.hover)
	case methodCompletion:
		return answer(ctx, reply, params, s.completion)
	case methodCodeAction:
		return answer(ctx, reply, params, s.codeActions)
	case methodDefinition:
		return answer(ctx, reply, params, s.definition)
	}
	if req.isCall() {
		return reply(ctx, nil, errMethodNotFound)
	}
	return nil // a notification the server has no use for ($/cancelRequest, ...)
}

// outOfTurn answers a message the session's state does not allow, as the
// protocol says: before initialize, a request gets the error
// ServerNotInitialized (-32002) and a notification is dropped; a second
// initialize, and a request after shutdown, get InvalidRequest. exit is
// always taken. refused says the message was answered here.
func (s *server) outOfTurn(ctx context.Context, reply replier, req *message) (refused bool, err error) {
	method := req.Method
	if method == methodExit {
		return false, nil
	}
	s.mu.Lock()
	ready, down := s.initialized, s.shutdown
	s.mu.Unlock()
	var why *rpcError
	switch {
	case !ready && method != methodInitialize:
		why = newError(codeServerNotInitialized, method+": the server is not initialized: send initialize first")
	case ready && method == methodInitialize:
		why = newError(codeInvalidRequest, "initialize: the server is already initialized")
	case down:
		why = newError(codeInvalidRequest, method+": the server is shut down: only exit is taken")
	default:
		return false, nil
	}
	if !req.isCall() {
		return true, nil
	}
	return true, reply(ctx, nil, why)
}

// answer decodes a request's parameters, calls fn and replies with what
// it returns.
func answer[P, R any](ctx context.Context, reply replier, raw json.RawMessage, fn func(*P) R) error {
	var p P
	if err := decode(raw, &p); err != nil {
		return reply(ctx, nil, err)
	}
	return reply(ctx, fn(&p), nil)
}

// notified decodes a notification's parameters and calls fn.
func notified[P any](ctx context.Context, reply replier, raw json.RawMessage, fn func(*P)) error {
	var p P
	if err := decode(raw, &p); err != nil {
		return reply(ctx, nil, err)
	}
	fn(&p)
	return reply(ctx, nil, nil)
}

// decode reads a message's parameters; a request whose parameters are
// not what the method takes is answered with InvalidParams.
func decode(raw json.RawMessage, v any) *rpcError {
	if len(raw) == 0 {
		return nil
	}
	if json.Unmarshal(raw, v) != nil {
		return errInvalidParams
	}
	return nil
}

// initializeParams are the parts of initialize the server reads.
type initializeParams struct {
	RootURI               DocumentURI `json:"rootUri"`
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

// initializeResult is the server's capabilities and name.
type initializeResult struct {
	Capabilities capabilities `json:"capabilities"`
	ServerInfo   *serverInfo  `json:"serverInfo,omitempty"`
}

type capabilities struct {
	TextDocumentSync   *textDocumentSync  `json:"textDocumentSync,omitempty"`
	CompletionProvider *completionOptions `json:"completionProvider,omitempty"`
	HoverProvider      bool               `json:"hoverProvider,omitempty"`
	DefinitionProvider bool               `json:"definitionProvider,omitempty"`
	CodeActionProvider *codeActionOptions `json:"codeActionProvider,omitempty"`
	PositionEncoding   Encoding           `json:"positionEncoding,omitempty"`
}

// textDocumentSync says the server takes didOpen and didClose, each
// change as ranges (incremental, 2) and didSave without the text.
type textDocumentSync struct {
	OpenClose bool      `json:"openClose,omitempty"`
	Change    int       `json:"change,omitempty"`
	Save      *struct{} `json:"save,omitempty"`
}

// syncIncremental is the textDocumentSync change kind of edits as ranges.
const syncIncremental = 2

type completionOptions struct {
	TriggerCharacters []string `json:"triggerCharacters,omitempty"`
}

type codeActionOptions struct {
	CodeActionKinds []CodeActionKind `json:"codeActionKinds,omitempty"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
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

func (s *server) initialize(p *initializeParams) *initializeResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.RootURI != "" {
		s.root = rootPath(p.RootURI)
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
			s.logf(MessageWarning, "cannot watch %s for changes: %v", s.manifestPath, err)
		}
		s.watch = w
	}
	res := &initializeResult{
		Capabilities: capabilities{
			TextDocumentSync:   &textDocumentSync{OpenClose: true, Change: syncIncremental, Save: &struct{}{}},
			HoverProvider:      true,
			CompletionProvider: &completionOptions{TriggerCharacters: []string{`"`, `'`, "."}},
			CodeActionProvider: &codeActionOptions{CodeActionKinds: []CodeActionKind{quickFix, sourceFixAll}},
			DefinitionProvider: true,
		},
		ServerInfo: &serverInfo{Name: "kokua-lint", Version: version.Version},
	}
	if len(p.Capabilities.General.PositionEncodings) > 0 {
		res.Capabilities.PositionEncoding = s.enc
	}
	return res
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
		s.logf(MessageError, "%v; checking against %s", err, what)
		_ = s.conn.notify(methodShowMessage,
			&LogMessageParams{Type: MessageError, Message: fmt.Sprintf("kokua-lint: %v; checking against %s", err, what)})
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
	s.logf(MessageInfo, "reloaded the manifest %s", s.manifestPath)
	for _, d := range s.docs {
		s.lintAndPublish(d)
	}
}

// document is one open config.
type document struct {
	uri     DocumentURI
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
	// actions is what the code actions of the current lint share
	// (actions.go).
	actions *actionIndex
}

func (d *document) stop() {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
}

func (s *server) didOpen(p *DidOpenTextDocumentParams) {
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
	TextDocument   VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []struct {
		Range *Range `json:"range"`
		Text  string `json:"text"`
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

func (s *server) didSave(p *DidSaveTextDocumentParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[p.TextDocument.URI]; d != nil && d.linted == nil {
		d.stop()
		s.lintAndPublish(d)
	}
}

func (s *server) didClose(p *DidCloseTextDocumentParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[p.TextDocument.URI]; d != nil {
		d.stop()
		delete(s.docs, p.TextDocument.URI)
		s.publish(d.uri, d.version, []Diagnostic{})
	}
}

// current returns the open document, linted; nil when it is not open.
// The caller holds mu.
func (s *server) current(u DocumentURI) *document {
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

func (s *server) publish(u DocumentURI, version int32, ds []Diagnostic) {
	_ = s.conn.notify(methodPublishDiagnostics, &PublishDiagnosticsParams{URI: u, Version: uint32(max(version, 0)), Diagnostics: ds})
}

// diagnose lints the document and returns its findings as the protocol
// writes them; nothing for a file that is not Kokua's. A document over
// lint.MaxInputBytes is not linted: its one diagnostic is the error
// kokua-lint gives for a file that large, at its start.
func (s *server) diagnose(d *document) []Diagnostic {
	if len(d.text.s) > lint.MaxInputBytes {
		d.linted, d.good, d.kokua = &engine.Linted{}, nil, false
		return []Diagnostic{{
			Severity: SeverityError,
			Source:   "kokua-lint",
			Message:  engine.TooLarge(d.name, lint.MaxInputBytes).Error(),
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
		return []Diagnostic{}
	}
	if d.linted.World != nil {
		d.good = d.linted
	}
	out := make([]Diagnostic, 0, len(d.linted.Diagnostics))
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
func (s *server) toProtocol(d *document, f diag.Diagnostic) Diagnostic {
	out := Diagnostic{
		Severity:        severity(f.Severity),
		Code:            f.Rule,
		CodeDescription: &CodeDescription{Href: lint.SARIFRuleHelpURI(f.Rule)},
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

// severity is the protocol's severity of a finding's (none for an unknown
// one).
func severity(s diag.Severity) DiagnosticSeverity {
	switch s {
	case diag.Error:
		return SeverityError
	case diag.Warning:
		return SeverityWarning
	case diag.Info:
		return SeverityInformation
	}
	return 0
}
