// Package server is kokua-run's JSON HTTP API over a compiled policy, for
// hosts in other languages. docs/api.md describes the API and
// docs/openapi.yaml specifies it. A Go host that serves the same API from
// its own process (beside its other handlers, behind its own listener)
// makes a Server with New or NewVerified and serves its Handler or its
// HTTPServer; a host that asks in process imports package policy instead.
//
// A Server holds the policy it answers from behind an atomic pointer. A
// reload reads and verifies the file whole before it swaps the pointer, so
// a request is answered by one policy from start to end, and a file that
// fails verification never replaces the last good one. Every error path
// answers an error object with a 4xx or 5xx status, never a decision.
package server

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/policy"
)

// DefaultAddr is where the server listens unless told otherwise: loopback.
const DefaultAddr = "127.0.0.1:8181"

// Limits of the API.
const (
	// MaxDecideBytes bounds the body of POST /v1/decide.
	MaxDecideBytes = 1 << 20
	// MaxBatchBytes bounds the body of POST /v1/decide/batch.
	MaxBatchBytes = 8 << 20
	// MaxBatch bounds the number of requests in one batch.
	MaxBatch = 10_000
)

// Timeouts of the HTTP server, and the default bound of the drain at
// shutdown.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 120 * time.Second
	MaxHeaderBytes    = 64 << 10
	DrainTimeout      = 10 * time.Second
	// Debounce is how long the file watcher waits for the policy file to
	// be quiet before it looks at the file again.
	Debounce = 100 * time.Millisecond
	// DebounceMax bounds that wait: a file that keeps changing is looked
	// at no later than this after the first change of a burst, so that a
	// new policy is answering within a second of its rename.
	DebounceMax = 250 * time.Millisecond
)

// Server answers the API from the last good policy it loaded.
type Server struct {
	path    string
	key     ed25519.PublicKey // the verify key, or nil
	log     *slog.Logger
	metrics *metrics
	handler http.Handler
	// debounce and debounceMax are Debounce and DebounceMax; tests
	// shorten them.
	debounce, debounceMax time.Duration
	// watched, if not nil, is told of each event of the watched
	// directory, with whether it concerns the policy (a test waits for
	// an event to have been looked at).
	watched func(name string, counted bool)

	cur  atomic.Pointer[state]
	last atomic.Pointer[reloadStatus]

	// reloadMu serialises reloads; stamp is the file as the last reload
	// (or the start) saw it, so that a watch event that did not touch the
	// file causes no reload.
	reloadMu sync.Mutex
	stamp    os.FileInfo

	// render writes the page GET / answers with, or is nil (ServePage).
	render atomic.Pointer[func(*policy.Policy) ([]byte, error)]

	// hosts are the names the server answers to beyond loopback, or nil
	// when it answers to any (RestrictHosts).
	hosts atomic.Pointer[hostSet]

	// dlog is the decision log, or nil (LogDecisions).
	dlog atomic.Pointer[DecisionLog]
}

// state is one loaded policy with the bodies precomputed from it.
type state struct {
	p            *policy.Policy
	file         string
	digest       string
	digestHeader []string
	loadedAt     time.Time
	agents       []byte            // GET /v1/agents
	agent        map[string][]byte // GET /v1/agents/{name}
	// page is GET / of this policy, written on its first request.
	pageOnce sync.Once
	page     []byte
	pageErr  error
}

// reloadStatus is the outcome of the last load or reload.
type reloadStatus struct {
	OK      bool      `json:"ok"`
	Error   *string   `json:"error"`
	At      time.Time `json:"at"`
	Trigger string    `json:"trigger"`
}

// Reload triggers.
const (
	triggerStart  = "start"
	triggerAPI    = "reload"
	triggerWatch  = "watch"
	triggerSIGHUP = "sighup"
)

// New loads and verifies the policy at path. With no valid policy there is
// no server: the error says why the policy was refused. A nil logger
// discards the log.
func New(path string, logger *slog.Logger) (*Server, error) { return NewVerified(path, nil, logger) }

// NewVerified is New for a server that answers only from policies signed
// with key (policy.LoadVerified): an unsigned or wrongly signed policy is
// refused at the start and on every reload, like a tampered one. A nil
// key verifies nothing, as New.
func NewVerified(path string, key ed25519.PublicKey, logger *slog.Logger) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{path: path, key: key, log: logger, metrics: newMetrics(), debounce: Debounce, debounceMax: DebounceMax}
	stamp, _ := os.Stat(path)
	st, err := load(path, key)
	if err != nil {
		return nil, err
	}
	s.stamp = stamp
	s.cur.Store(st)
	s.last.Store(&reloadStatus{OK: true, At: st.loadedAt, Trigger: triggerStart})
	s.metrics.swapped(nil, st)
	s.metrics.reloadOutcome(true)
	s.metrics.reg.MustRegister(decisionLogMetrics(func() *DecisionLog { return s.dlog.Load() })...)
	s.handler = s.routes()
	return s, nil
}

// LogDecisions makes the server write every decision it answers, and
// every reload, to l, starting with a record of the policy answering now
// (trigger "start"); nil stops it. The server does not close l: close it
// after the server has stopped answering.
func (s *Server) LogDecisions(l *DecisionLog) {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	s.dlog.Store(l)
	if l != nil {
		st := s.cur.Load()
		s.logReload(triggerStart, "ok", st, nil, "")
	}
}

// logReload writes a reload's record, when a decision log is on: the
// policy answering after it (the last good one when it failed), the one
// before it when it changed, and why a refused policy was refused.
func (s *Server) logReload(trigger, result string, st, previous *state, reason string) {
	l := s.dlog.Load()
	if l == nil {
		return
	}
	rec := &reloadRecord{Type: "reload", Time: stamp(time.Now()), Trigger: trigger, Result: result,
		PolicyDigest: st.digest, File: printable.String(s.path), Error: printable.String(reason)}
	if previous != nil {
		rec.PreviousDigest = previous.digest
	}
	l.enqueue(logEntry{kind: entryReload, reload: rec})
}

// Handler is the API.
func (s *Server) Handler() http.Handler { return s.handler }

// HTTPServer is an http.Server for the API with the timeouts and limits of
// kokua-run serve. A host that serves Handler with an http.Server of its
// own should set DisableGeneralOptionsHandler as this one does, or
// net/http answers OPTIONS * itself, and serve through Listener.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler: s.handler,
		// OPTIONS * goes to the handler, which answers it with an error
		// object, instead of net/http's empty 200.
		DisableGeneralOptionsHandler: true,
		ReadHeaderTimeout:            ReadHeaderTimeout,
		ReadTimeout:                  ReadTimeout,
		WriteTimeout:                 WriteTimeout,
		IdleTimeout:                  IdleTimeout,
		MaxHeaderBytes:               MaxHeaderBytes,
		ErrorLog:                     slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// ServePage makes GET / answer with the HTML page render writes of the
// policy the server answers from (kokua-run serve's policy explorer). The
// page of a policy is written once, at its first request; after a reload,
// the next request gets the new policy's. Without ServePage, or with a nil
// render, / is not found, as any path the API does not have.
func (s *Server) ServePage(render func(*policy.Policy) ([]byte, error)) {
	if render == nil {
		s.render.Store(nil)
		return
	}
	s.render.Store(&render)
}

// Policy is the policy the server answers from now.
func (s *Server) Policy() *policy.Policy { return s.cur.Load().p }

// Reload reads and verifies the policy file and swaps it in. On failure
// the last good policy stays, the error is returned, logged, and shown by
// /healthz until a later reload succeeds.
func (s *Server) Reload() error { return s.reload(triggerAPI, true) }

// ReloadOnSignal is Reload as a signal asks for it: kokua-run serve calls
// it on SIGHUP, and the log and /healthz name the trigger "sighup".
func (s *Server) ReloadOnSignal() error { return s.reload(triggerSIGHUP, true) }

// reload loads the file again. Unless forced, it does nothing when the
// file looks as it did at the last attempt (same file, size and time).
func (s *Server) reload(trigger string, force bool) error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	stamp, _ := os.Stat(s.path)
	if !force && sameStamp(s.stamp, stamp) {
		return nil
	}
	s.stamp = stamp
	old := s.cur.Load()
	st, err := load(s.path, s.key)
	if err != nil {
		msg := err.Error()
		s.last.Store(&reloadStatus{OK: false, Error: &msg, At: time.Now().UTC(), Trigger: trigger})
		s.metrics.reloaded("error")
		s.metrics.reloadOutcome(false)
		s.log.Error("policy reload failed; keeping the last good policy",
			"trigger", trigger, "err", msg, "digest", old.digest)
		s.logReload(trigger, "error", old, nil, msg)
		return err
	}
	s.last.Store(&reloadStatus{OK: true, At: st.loadedAt, Trigger: trigger})
	s.metrics.reloadOutcome(true)
	if st.digest == old.digest {
		s.metrics.reloaded("unchanged")
		s.log.Info("policy reloaded: unchanged", "trigger", trigger, "digest", old.digest)
		s.logReload(trigger, "unchanged", old, nil, "")
		return nil
	}
	s.cur.Store(st)
	s.metrics.swapped(old, st)
	s.metrics.reloaded("ok")
	s.log.Info("policy reloaded", "trigger", trigger, "digest", st.digest, "previous", old.digest)
	s.logReload(trigger, "ok", st, old, "")
	return nil
}

func sameStamp(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// load reads and verifies a policy and precomputes the bodies of the
// agents endpoints. A panic while doing so, which would be a bug in the
// loader, refuses the file like any other fault: a reload runs in the
// watcher's goroutine, where a panic would end the server.
func load(path string, key ed25519.PublicKey) (st *state, err error) {
	defer func() {
		if r := recover(); r != nil {
			st, err = nil, &policy.LoadError{Source: path, Reason: fmt.Sprintf("internal error while loading it: %v", r), Err: policy.ErrShape}
		}
	}()
	var p *policy.Policy
	if key != nil {
		p, err = policy.LoadVerified(path, key)
	} else {
		p, err = policy.Load(path)
	}
	if err != nil {
		return nil, err
	}
	doc := p.Document()
	st = &state{p: p, file: path, digest: doc.Digest, digestHeader: []string{doc.Digest},
		loadedAt: time.Now().UTC(), agent: make(map[string][]byte, len(doc.Agents))}
	list := agentList{Digest: doc.Digest, EntryAgent: doc.EntryAgent, Agents: make([]agentSummary, 0, len(doc.Agents))}
	for name, a := range doc.Agents {
		body, err := marshalBody(a)
		if err != nil {
			return nil, fmt.Errorf("policy %s: agent %q: %w", path, name, err)
		}
		st.agent[name] = body
		deferred := a.Deferred
		if deferred == nil {
			deferred = []string{}
		}
		list.Agents = append(list.Agents, agentSummary{Name: name, GateLabel: a.GateLabel, Entry: a.Entry,
			Reachable: a.Reachable, AvailableCount: a.Available.Count, Deferred: deferred})
	}
	slices.SortFunc(list.Agents, func(a, b agentSummary) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	if st.agents, err = marshalBody(list); err != nil {
		return nil, fmt.Errorf("policy %s: agents: %w", path, err)
	}
	return st, nil
}

// agentList is the body of GET /v1/agents.
type agentList struct {
	Digest     string         `json:"digest"`
	EntryAgent string         `json:"entry_agent"`
	Agents     []agentSummary `json:"agents"`
}

type agentSummary struct {
	Name           string   `json:"name"`
	GateLabel      string   `json:"gate_label"`
	Entry          bool     `json:"entry"`
	Reachable      bool     `json:"reachable"`
	AvailableCount int      `json:"available_count"`
	Deferred       []string `json:"deferred"`
}

// marshalBody encodes a response body as the decide endpoint does: one
// line of JSON ending in a newline.
func marshalBody(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
