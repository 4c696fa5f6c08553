package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kokua-policy/kokua-policy/internal/jsonpos"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Routes, as the metrics label them.
const (
	routeDecide    = "/v1/decide"
	routeBatch     = "/v1/decide/batch"
	routeAgents    = "/v1/agents"
	routeAgent     = "/v1/agents/{name}"
	routeHealth    = "/healthz"
	routeMetrics   = "/metrics"
	routeUnmatched = "unmatched"
	// routeMisdirected is every request refused for its Host
	// (RestrictHosts), whatever its path.
	routeMisdirected = "misdirected"
	// routePage is the page ServePage serves.
	routePage = "/"
)

// DigestHeader carries the digest of the policy that answered.
const DigestHeader = "Kokua-Policy-Digest"

// Shared header values; net/http only reads them.
var (
	jsonType = []string{"application/json"}
	noStore  = []string{"no-store"}
	noSniff  = []string{"nosniff"}
)

// handler answers one request from one policy state and returns the
// status it wrote.
type handler func(w http.ResponseWriter, r *http.Request, st *state) int

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	post, get := "POST", "GET, HEAD"
	for _, rt := range []struct {
		method, path string
		allow        string
		h            handler
	}{
		{"POST", routeDecide, post, s.decide},
		{"POST", routeBatch, post, s.batch},
		{"GET", routeAgents, get, s.agents},
		{"GET", routeAgent, get, s.agent},
		{"GET", routeHealth, get, s.health},
		{"GET", routeMetrics, get, s.metricsPage()},
	} {
		mux.Handle(rt.method+" "+rt.path, s.wrap(rt.path, rt.h))
		// Any other method on a known path: 405 with Allow, as JSON.
		mux.Handle(rt.path, s.wrap(rt.path, methodNotAllowed(rt.allow)))
	}
	// The page is served at / alone ("/{$}"), only when ServePage gave
	// one; every other path is the API's.
	mux.Handle("GET /{$}", s.wrap(routePage, s.page))
	mux.Handle("/{$}", s.wrap(routePage, s.pageMethod))
	mux.Handle("/", s.wrap(routeUnmatched, notFound))
	// ServeMux answers some requests itself, not as JSON: a path that is
	// not clean with a redirect to the clean one (an HTML body), a target
	// of "*" (OPTIONS *, the HTTP/2 preface PRI *) with an empty 400, a
	// CONNECT to a host with a plain-text 404. Those are answered here
	// first, so that every answer is an error object and no path is
	// reached by another spelling of it.
	unclean := s.wrap(routeUnmatched, notFound)
	preface := s.wrap(routeUnmatched, http2Preface)
	refused := s.wrap(routeMisdirected, misdirected)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == "PRI" && r.RequestURI == "*":
			preface.ServeHTTP(w, r)
		case !s.hostAllowed(r.Host):
			refused.ServeHTTP(w, r)
		case !cleanPath(r.URL.Path):
			unclean.ServeHTTP(w, r)
		default:
			mux.ServeHTTP(w, r)
		}
	})
}

// cleanPath reports whether p is a path as ServeMux matches it without a
// redirect: it starts with a slash and has no empty, "." or ".." segment
// (a slash at the end is kept). The target "*" and the host of a CONNECT
// request are not paths.
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	if p[len(p)-1] == '/' && c != "/" {
		c += "/"
	}
	return c == p
}

// http2Preface answers the start of an HTTP/2 connection without TLS
// ("PRI * HTTP/2.0"), which net/http hands to the handler: the server
// speaks HTTP/1.1 only there, and what follows the preface is not a
// request, so the connection is closed.
func http2Preface(w http.ResponseWriter, _ *http.Request, _ *state) int {
	w.Header().Set("Connection", "close")
	return writeError(w, &apiError{http.StatusHTTPVersionNotSupported, "http_version_not_supported",
		"HTTP/2 without TLS is not served: use HTTP/1.1"})
}

// wrap counts and times a route's requests, and turns a panic into a 500
// error object: a failure never answers a decision.
func (s *Server) wrap(route string, h handler) http.Handler {
	rm := s.metrics.route(route)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		code := http.StatusInternalServerError
		defer func() {
			if p := recover(); p != nil {
				if err, ok := p.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(p)
				}
				s.log.Error("internal error", "route", route, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				code = writeError(w, &apiError{http.StatusInternalServerError, "internal", "internal error; see the server log"})
			}
			rm.observe(code, time.Since(start))
		}()
		code = h(w, r, s.cur.Load())
	})
}

// decideRequest is one question.
type decideRequest struct {
	Agent      string `json:"agent"`
	Tool       string `json:"tool"`
	Unattended bool   `json:"unattended"`
	// Loaded are the toolsets the conversation has loaded with
	// load_tools, in load order; the answer is then the one kokua-run
	// session gives after those loads.
	Loaded []string `json:"loaded"`
}

// answer answers one question from policy p: Decide for a conversation
// that has loaded nothing, or a session that loads q.Loaded first, as
// kokua-run session does. A load the policy refuses is the caller's
// error, said as the model would read it; i is the index of the request
// in a batch, or -1.
func (q *decideRequest) answer(p *policy.Policy, i int) (policy.Answer, *apiError) {
	turn := policy.Turn{Unattended: q.Unattended}
	if len(q.Loaded) == 0 {
		return p.Decide(q.Agent, q.Tool, turn), nil
	}
	s, err := p.NewSession(q.Agent)
	if err != nil {
		// An unknown agent is denied, loads or not, as Decide says.
		return p.Decide(q.Agent, q.Tool, turn), nil
	}
	for j, toolset := range q.Loaded {
		if r := s.Load(toolset); !r.OK {
			return policy.Answer{}, &apiError{http.StatusBadRequest, "load_refused",
				fmt.Sprintf("%sloaded[%d]: %s", where(i), j, r.Message)}
		}
	}
	return s.Decide(q.Tool, turn), nil
}

// check refuses a request without an agent or a tool; i is its index in a
// batch, or -1.
func (q *decideRequest) check(i int) *apiError {
	field := ""
	switch {
	case q.Agent == "":
		field = "agent"
	case q.Tool == "":
		field = "tool"
	default:
		for j, toolset := range q.Loaded {
			if toolset == "" {
				return badRequest("%sloaded[%d] is empty: want a toolset name", where(i), j)
			}
		}
		return nil
	}
	return badRequest("%smissing field %q: want a non-empty string", where(i), field)
}

// where prefixes a message about the i-th request of a batch.
func where(i int) string {
	if i < 0 {
		return ""
	}
	return "requests[" + strconv.Itoa(i) + "]: "
}

// decide answers POST /v1/decide with exactly the JSON object kokua-run
// decide --format json prints: decode, one Decide call, encode.
func (s *Server) decide(w http.ResponseWriter, r *http.Request, st *state) int {
	if e := jsonContent(r); e != nil {
		return unsupportedMedia(w, e)
	}
	dlog := s.dlog.Load()
	var start time.Time
	if dlog != nil {
		start = time.Now()
	}
	body, e := readBody(w, r, MaxDecideBytes)
	if e != nil {
		return writeError(w, e)
	}
	q, e := decodeRequest(body)
	if e != nil {
		return writeError(w, e)
	}
	if e := q.check(-1); e != nil {
		return writeError(w, e)
	}
	a, e := q.answer(st.p, -1)
	if e != nil {
		return writeError(w, e)
	}
	s.metrics.decided(a.Decision, 1)
	h := w.Header()
	if dlog != nil {
		id := dlog.requestID(r)
		h[RequestIDHeader] = []string{id}
		dlog.enqueue(logEntry{kind: entryDecision, at: start, id: id, source: routeDecide, digest: st.digest,
			latency: time.Since(start), q: q, a: a})
	}
	h["Content-Type"] = jsonType
	h[DigestHeader] = st.digestHeader
	// As kokua-run decide --format json writes it: HTML escaping on, one
	// line ending in a newline.
	hinted := Hint(st.p, a)
	_ = json.NewEncoder(w).Encode(&hinted)
	return http.StatusOK
}

// decodeRequest reads a decide request and says what is wrong with it if
// anything is.
func decodeRequest(body []byte) (decideRequest, *apiError) {
	var q decideRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if e := decodeErr(dec.Decode(&q), -1); e != nil {
		return q, e
	}
	if e := endOfBody(dec); e != nil {
		return q, e
	}
	if mayRepeat(body) {
		if e := repeatedMember(body, nil); e != nil {
			return q, e
		}
	}
	return q, exactNames(body, false)
}

// mayRepeat reports whether a request body encoding/json has decoded may
// give a member twice. Such a body is one object whose members are the
// request's fields (DisallowUnknownFields refused any other), and one that
// mayFold passes writes each name as the API spells it, quotes and all: a
// body that writes each name at most once, as most do, repeats none.
func mayRepeat(body []byte) bool {
	if mayFold(body) {
		return true
	}
	for _, name := range quotedFields {
		if bytes.Count(body, name) > 1 {
			return true
		}
	}
	return false
}

// repeatedMember refuses a body that gives an object the same member
// twice, at any depth, as the policy loader refuses such a policy (with
// the same check, policy.Canonical): encoding/json takes the last value,
// and a proxy or a log that reads the first would see another request than
// the one answered. ends are where each request of a batch ends in the
// body, to say which one repeats a member; nil for a single request.
func repeatedMember(body []byte, ends []int64) *apiError {
	_, err := policy.Canonical(body)
	var rep *policy.RepeatedMemberError
	if !errors.As(err, &rep) {
		return nil
	}
	at := ""
	if i, _ := slices.BinarySearch(ends, int64(rep.Offset)+1); i < len(ends) {
		at = where(i)
	}
	return badRequest("%sfield %q is given twice (again at byte %d): a request gives each field once",
		at, rep.Name, rep.Offset)
}

// batchAnswer is the body of a batch's answer.
type batchAnswer struct {
	Answers []Answer `json:"answers"`
}

// batch answers POST /v1/decide/batch: {"requests": [...]} gets
// {"answers": [...]}, one answer per request in order, all from the same
// policy. One bad request fails the whole batch.
func (s *Server) batch(w http.ResponseWriter, r *http.Request, st *state) int {
	if e := jsonContent(r); e != nil {
		return unsupportedMedia(w, e)
	}
	dlog := s.dlog.Load()
	var start time.Time
	if dlog != nil {
		start = time.Now()
	}
	body, e := readBody(w, r, MaxBatchBytes)
	if e != nil {
		return writeError(w, e)
	}
	qs, e := decodeBatch(body)
	if e != nil {
		return writeError(w, e)
	}
	out := batchAnswer{Answers: make([]Answer, len(qs))}
	// The log keeps the policy's answers, without the hints.
	answers := make([]policy.Answer, len(qs))
	var counts [len(decisions)]int
	for i, q := range qs {
		a, e := q.answer(st.p, i)
		if e != nil {
			return writeError(w, e)
		}
		counts[decisionIndex(a.Decision)]++
		answers[i] = a
		out.Answers[i] = Hint(st.p, a)
	}
	for i, n := range counts {
		s.metrics.decided(decisions[i], n)
	}
	answer, err := marshalBody(&out)
	if err != nil {
		s.log.Error("internal error", "route", routeBatch, "err", err)
		return writeError(w, &apiError{http.StatusInternalServerError, "internal", "internal error; see the server log"})
	}
	if dlog != nil {
		id := dlog.requestID(r)
		w.Header()[RequestIDHeader] = []string{id}
		dlog.enqueue(logEntry{kind: entryBatch, at: start, id: id, source: routeBatch, digest: st.digest,
			latency: time.Since(start), qs: qs, as: answers})
	}
	return writeBody(w, st, answer)
}

// decodeBatch reads a batch request by request and says what is wrong
// with it if anything is.
func decodeBatch(body []byte) ([]decideRequest, *apiError) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	shape := badRequest(`the body must be a JSON object {"requests": [{"agent": ..., "tool": ...}, ...]}`)
	if e := delim(dec, '{', shape); e != nil {
		return nil, e
	}
	var qs []decideRequest
	var ends []int64 // where each request ends in the body
	seen := false
	for dec.More() {
		tok, err := dec.Token()
		if e := decodeErr(err, -1); e != nil {
			return nil, e
		}
		switch key, _ := tok.(string); {
		case key != "requests":
			return nil, badRequest("unknown field %q", key)
		case seen:
			return nil, badRequest("duplicate field \"requests\"")
		}
		seen = true
		if e := delim(dec, '[', badRequest(`field "requests" must be an array of request objects`)); e != nil {
			return nil, e
		}
		for dec.More() {
			if len(qs) == MaxBatch {
				return nil, &apiError{http.StatusRequestEntityTooLarge, "batch_too_large",
					fmt.Sprintf("a batch holds at most %d requests", MaxBatch)}
			}
			qs = append(qs, decideRequest{})
			i := len(qs) - 1
			if e := decodeErr(dec.Decode(&qs[i]), i); e != nil {
				return nil, e
			}
			ends = append(ends, dec.InputOffset())
			if e := qs[i].check(i); e != nil {
				return nil, e
			}
		}
		if e := delim(dec, ']', shape); e != nil {
			return nil, e
		}
	}
	if e := delim(dec, '}', shape); e != nil {
		return nil, e
	}
	if !seen {
		return nil, badRequest("missing field \"requests\": want an array of request objects")
	}
	if e := endOfBody(dec); e != nil {
		return nil, e
	}
	if e := repeatedMember(body, ends); e != nil {
		return nil, e
	}
	return qs, exactNames(body, true)
}

// mayFold reports whether a body may name a field in another spelling
// than the API's. The fields are named in lower-case ASCII, and what
// encoding/json reads as one of them otherwise holds an upper-case letter,
// an escape, or one of the two non-ASCII letters that fold to k and s (the
// Kelvin sign, the long s). A body with none of these, as most are, needs
// no closer look.
func mayFold(body []byte) bool {
	for _, b := range body {
		if b-'A' < 26 || b == '\\' || b >= 0x80 {
			return true
		}
	}
	return false
}

// requestFields are the names of a request's fields, as written.
var requestFields = []string{"agent", "tool", "unattended", "loaded"}

// quotedFields are requestFields as a body writes them, in quotes.
var quotedFields = func() [][]byte {
	q := make([][]byte, len(requestFields))
	for i, f := range requestFields {
		q[i] = []byte(strconv.Quote(f))
	}
	return q
}()

// exactNames refuses a request whose field is named in another case than
// the API's: encoding/json reads "Agent" as agent, so {"agent": "coder",
// "Agent": "assistant"} would be answered for assistant while a proxy
// reading "agent" saw coder. It looks at the member names of the request
// objects of a body encoding/json has decoded already, read as a
// positioned tree (a few allocations, whatever the body's size).
func exactNames(body []byte, batch bool) *apiError {
	if !mayFold(body) {
		return nil
	}
	root, err := jsonpos.Parse(body)
	if err != nil {
		// Valid JSON past the reader's limits: a million values.
		return badRequest("the body has too many values to check: %v", err)
	}
	requests := []*jsonpos.Value{root}
	if batch {
		requests = root.Get("requests").Items
	}
	for i, q := range requests {
		at := ""
		if batch {
			at = where(i)
		}
		for _, m := range q.Members {
			if slices.Contains(requestFields, m.Name) {
				continue
			}
			if k := slices.IndexFunc(requestFields, func(f string) bool { return strings.EqualFold(f, m.Name) }); k >= 0 {
				return badRequest("%sfield %q is not spelled as the API spells it, %q: field names are matched exactly",
					at, m.Name, requestFields[k])
			}
			return badRequest("%sunknown field %q", at, m.Name)
		}
	}
	return nil
}

// delim reads the next token, which must be d; wrong says what the body
// should look like when it is something else.
func delim(dec *json.Decoder, d json.Delim, wrong *apiError) *apiError {
	tok, err := dec.Token()
	if err != nil {
		e := decodeErr(err, -1)
		if e.code == "empty_body" && d != '{' {
			e = &apiError{http.StatusBadRequest, "invalid_json", "the JSON ends too early"}
		}
		return e
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return wrong
	}
	return nil
}

// readBody reads the body, up to limit bytes.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *apiError) {
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	if r.ContentLength >= 0 {
		// The length is given and within the limit, and net/http reads no
		// further than it: one buffer of that size holds the body.
		body := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, badRequest("reading the body: %v", err)
		}
		return body, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, tooLarge(limit)
		}
		return nil, badRequest("reading the body: %v", err)
	}
	return body, nil
}

// endOfBody makes sure nothing follows the JSON object.
func endOfBody(dec *json.Decoder) *apiError {
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("unexpected data after the JSON object")
	}
	return nil
}

// decodeErr turns a decoding error into an error object; i is the index
// of the request in a batch, or -1.
func decodeErr(err error, i int) *apiError {
	if err == nil {
		return nil
	}
	at := where(i)
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF) && i < 0:
		return &apiError{http.StatusBadRequest, "empty_body", "empty body: want a JSON object"}
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return &apiError{http.StatusBadRequest, "invalid_json", at + "the JSON ends too early"}
	case errors.As(err, &syntax):
		return &apiError{http.StatusBadRequest, "invalid_json", fmt.Sprintf("%sinvalid JSON at byte %d: %s", at, syntax.Offset,
			strings.TrimPrefix(syntax.Error(), "json: "))}
	case errors.As(err, &typ) && typ.Field == "":
		return badRequest("%sa request must be a JSON object, not %s", at, typ.Value)
	case errors.As(err, &typ):
		return badRequest("%sfield %q must be a %s, not %s", at, typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value)
	}
	// encoding/json reports an unknown field only as text.
	return badRequest("%s%s", at, strings.TrimPrefix(err.Error(), "json: "))
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "bool":
		return "boolean (true or false)"
	case "slice":
		return "list of strings"
	}
	return goKind
}

func (s *Server) agents(w http.ResponseWriter, _ *http.Request, st *state) int {
	return writeBody(w, st, st.agents)
}

func (s *Server) agent(w http.ResponseWriter, r *http.Request, st *state) int {
	name := r.PathValue("name")
	body, ok := st.agent[name]
	if !ok {
		return writeError(w, &apiError{http.StatusNotFound, "unknown_agent",
			fmt.Sprintf("the policy declares no agent %q", name)})
	}
	return writeBody(w, st, body)
}

func writeBody(w http.ResponseWriter, st *state, body []byte) int {
	h := w.Header()
	h["Content-Type"] = jsonType
	h[DigestHeader] = st.digestHeader
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	_, _ = w.Write(body)
	return http.StatusOK
}

// health is the body of GET /healthz.
type health struct {
	Status     string        `json:"status"`
	Policy     healthPolicy  `json:"policy"`
	LastReload *reloadStatus `json:"last_reload"`
}

type healthPolicy struct {
	File     string    `json:"file"`
	Digest   string    `json:"digest"`
	LoadedAt time.Time `json:"loaded_at"`
}

// health answers 200 while the server has a policy to answer from, which
// is always: "degraded" says the last reload failed and an older policy
// is still answering.
func (s *Server) health(w http.ResponseWriter, _ *http.Request, st *state) int {
	last := s.last.Load()
	body := health{Status: "ok", Policy: healthPolicy{File: st.file, Digest: st.digest, LoadedAt: st.loadedAt}, LastReload: last}
	if !last.OK {
		body.Status = "degraded"
	}
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Cache-Control"] = noStore
	h[DigestHeader] = st.digestHeader
	_ = json.NewEncoder(w).Encode(body)
	return http.StatusOK
}

func (s *Server) metricsPage() handler {
	page := promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{ErrorLog: slogPrinter{s}, Registry: s.metrics.reg})
	return func(w http.ResponseWriter, r *http.Request, _ *state) int {
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		page.ServeHTTP(sw, r)
		return sw.code
	}
}

type slogPrinter struct{ s *Server }

func (p slogPrinter) Println(v ...any) { p.s.log.Error("metrics", "err", fmt.Sprint(v...)) }

// statusWriter records the status of a handler that is not ours.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func methodNotAllowed(allow string) handler {
	msg := "method not allowed: use " + allow
	return func(w http.ResponseWriter, _ *http.Request, _ *state) int {
		w.Header().Set("Allow", allow)
		return writeError(w, &apiError{http.StatusMethodNotAllowed, "method_not_allowed", msg})
	}
}

// page answers GET / with the page of the policy st, and its headers: no
// framing, no sniffing, no cache, no referrer, and the policy's digest.
func (s *Server) page(w http.ResponseWriter, r *http.Request, st *state) int {
	render := s.render.Load()
	if render == nil {
		return notFound(w, r, st)
	}
	st.pageOnce.Do(func() { st.page, st.pageErr = (*render)(st.p) })
	if st.pageErr != nil {
		s.log.Error("kokua-run serve: cannot write the page", "err", st.pageErr)
		return writeError(w, &apiError{http.StatusInternalServerError, "internal", "the page could not be written"})
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h["Cache-Control"] = noStore
	h["X-Content-Type-Options"] = noSniff
	h[DigestHeader] = st.digestHeader
	h.Set("Content-Length", strconv.Itoa(len(st.page)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(st.page)
	} else {
		w.WriteHeader(http.StatusOK)
	}
	return http.StatusOK
}

// pageMethod answers another method than GET on /: 405 when the page is
// served, 404 otherwise.
func (s *Server) pageMethod(w http.ResponseWriter, r *http.Request, st *state) int {
	if s.render.Load() == nil {
		return notFound(w, r, st)
	}
	return methodNotAllowed("GET, HEAD")(w, r, st)
}

func notFound(w http.ResponseWriter, _ *http.Request, _ *state) int {
	return writeError(w, &apiError{http.StatusNotFound, "not_found", "no such endpoint: see docs/api.md"})
}

// apiError is an error answer: {"error": {"status", "code", "message"}}.
type apiError struct {
	status  int
	code    string
	message string
}

func badRequest(format string, args ...any) *apiError {
	return &apiError{http.StatusBadRequest, "invalid_request", fmt.Sprintf(format, args...)}
}

func tooLarge(limit int64) *apiError {
	return &apiError{http.StatusRequestEntityTooLarge, "body_too_large",
		fmt.Sprintf("the body is larger than the limit of %d bytes", limit)}
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// unsupportedMedia answers a body of another type than JSON, saying in
// Accept which type would have been taken (RFC 9110, 15.5.16).
func unsupportedMedia(w http.ResponseWriter, e *apiError) int {
	w.Header()["Accept"] = jsonType
	return writeError(w, e)
}

func writeError(w http.ResponseWriter, e *apiError) int {
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Cache-Control"] = noStore
	h["X-Content-Type-Options"] = noSniff
	delete(h, DigestHeader)
	delete(h, "Content-Length")
	w.WriteHeader(e.status)
	_ = json.NewEncoder(w).Encode(errorBody{errorDetail{e.status, e.code, e.message}})
	return e.status
}
