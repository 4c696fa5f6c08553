package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// lockedBuffer is a writer that tests read while a goroutine writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// logSchema compiles docs/decision-log.schema.json, asserting formats
// (date-time) too.
func logSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	abs, err := filepath.Abs("../docs/decision-log.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile(abs)
	if err != nil {
		t.Fatalf("the decision log's schema does not compile: %v", err)
	}
	return sch
}

// logRecord is a record as the tests read it back.
type logRecord struct {
	Type           string          `json:"type"`
	Time           string          `json:"time"`
	RequestID      string          `json:"request_id"`
	Index          *int            `json:"index"`
	Source         string          `json:"source"`
	PolicyDigest   string          `json:"policy_digest"`
	Agent          string          `json:"agent"`
	Tool           string          `json:"tool"`
	Loaded         []string        `json:"loaded"`
	Unattended     bool            `json:"unattended"`
	Decision       policy.Decision `json:"decision"`
	Toolset        string          `json:"toolset"`
	Reason         recordReason    `json:"reason"`
	LatencyNS      int64           `json:"latency_ns"`
	Trigger        string          `json:"trigger"`
	Result         string          `json:"result"`
	PreviousDigest string          `json:"previous_digest"`
	File           string          `json:"file"`
	Error          string          `json:"error"`
}

// readLog checks every line of a log against the schema and returns its
// records.
func readLog(t testing.TB, sch *jsonschema.Schema, text string) []logRecord {
	t.Helper()
	var out []logRecord
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
		if err != nil {
			t.Fatalf("line %d is not JSON: %v: %s", n, err, line)
		}
		if err := sch.Validate(inst); err != nil {
			t.Fatalf("line %d is not a record as docs/decision-log.schema.json has it: %v\n%s", n, err, line)
		}
		var r logRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// post sends a JSON POST with headers to h.
func post(h http.Handler, target, body string, header map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", target, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func closeLog(t testing.TB, l *DecisionLog) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := l.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// validID is a request id the log takes as it is.
var validID = regexp.MustCompile(`^[!-~]{1,128}$`)

// TestDecisionLogRecords (issue 41, Must 1 and 2): every decision, each of
// a batch too, and every reload is one line valid against the schema,
// holding the question, the answer, the policy that answered and the
// request's id, which the answer carries.
func TestDecisionLogRecords(t *testing.T) {
	a, b := policytest.Compile(t, policytest.ConfigA), policytest.Compile(t, policytest.ConfigB)
	s, path := newServer(t, a)
	var out lockedBuffer
	l := NewDecisionLog(&out, DecisionLogOptions{})
	s.LogDecisions(l)
	h := s.Handler()

	type asked struct {
		body, id string
		batch    int // requests in the batch; 0 for a single one
	}
	var sent []asked
	var answers []policy.Answer
	ask := func(target, body string, header map[string]string, batch int) {
		t.Helper()
		w := post(h, target, body, header)
		if w.Code != 200 {
			t.Fatalf("%s %s: %d %s", target, body, w.Code, w.Body)
		}
		id := w.Header().Get(RequestIDHeader)
		if want := header[RequestIDHeader]; validID.MatchString(want) && id != want {
			t.Errorf("the answer carries %s %q, want the request's %q", RequestIDHeader, id, want)
		}
		if id == "" {
			t.Fatalf("the answer carries no %s", RequestIDHeader)
		}
		sent = append(sent, asked{body, id, batch})
		if batch == 0 {
			var ans policy.Answer
			_ = json.Unmarshal(w.Body.Bytes(), &ans)
			answers = append(answers, ans)
		} else {
			var ans batchAnswer
			_ = json.Unmarshal(w.Body.Bytes(), &ans)
			for _, a := range ans.Answers {
				answers = append(answers, a.Answer)
			}
		}
	}
	ask(routeDecide, policytest.AskRunCommand, map[string]string{RequestIDHeader: "req-1"}, 0)
	ask(routeDecide, `{"agent":"coder","tool":"compute.run_command","unattended":true}`, nil, 0)
	ask(routeDecide, `{"agent":"nobody","tool":"x"}`, map[string]string{RequestIDHeader: strings.Repeat("x", 129)}, 0)
	ask(routeDecide, `{"agent":"assistant","tool":"fs.read_file","loaded":[]}`, map[string]string{RequestIDHeader: "a b"}, 0)
	ask(routeBatch, `{"requests":[`+policytest.AskRunCommand+`,{"agent":"assistant","tool":"time.get_time"},{"agent":"coder","tool":"fs.write_file","unattended":true}]}`,
		map[string]string{RequestIDHeader: "batch-7"}, 3)
	// A refused request is no decision.
	if w := post(h, routeDecide, `{"agent":"coder"}`, nil); w.Code != 400 || w.Header().Get(RequestIDHeader) != "" {
		t.Fatalf("a refused request: %d, %s %q", w.Code, RequestIDHeader, w.Header().Get(RequestIDHeader))
	}
	replace(t, path, b)
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	ask(routeDecide, policytest.AskRunCommand, nil, 0)
	replace(t, path, policytest.Tamper(t, a))
	if err := s.Reload(); err == nil {
		t.Fatal("a tampered policy was swapped in")
	}
	ask(routeDecide, policytest.AskRunCommand, nil, 0)
	replace(t, path, b)
	_ = s.Reload()
	closeLog(t, l)

	recs := readLog(t, logSchema(t), out.String())
	var kinds []string
	for _, r := range recs {
		k := r.Type
		if r.Type == "reload" {
			k += ":" + r.Trigger + ":" + r.Result
		}
		kinds = append(kinds, k)
	}
	want := []string{"reload:start:ok", "decision", "decision", "decision", "decision", "decision", "decision", "decision",
		"reload:reload:ok", "decision", "reload:reload:error", "decision", "reload:reload:unchanged"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("records %v, want %v", kinds, want)
	}
	digestA, digestB := digestOf(t, a), digestOf(t, b)
	if r := recs[0]; r.PolicyDigest != digestA || r.File != path || r.PreviousDigest != "" {
		t.Errorf("the start record %+v", r)
	}
	if r := recs[8]; r.PolicyDigest != digestB || r.PreviousDigest != digestA {
		t.Errorf("the reload to B: %+v", r)
	}
	if r := recs[10]; r.PolicyDigest != digestB || r.PreviousDigest != "" || !strings.Contains(r.Error, "digest does not match") {
		t.Errorf("the refused reload should name B, still answering, and say why: %+v", r)
	}
	// The decisions, in order, against what was asked and answered.
	var decisions []logRecord
	for _, r := range recs {
		if r.Type == "decision" {
			decisions = append(decisions, r)
		}
	}
	digests := []string{digestA, digestA, digestA, digestA, digestA, digestA, digestA, digestB, digestB}
	k := 0
	for _, s := range sent {
		n := max(s.batch, 1)
		var qs []decideRequest
		if s.batch == 0 {
			q, _ := decodeRequest([]byte(s.body))
			qs = []decideRequest{q}
		} else {
			qs, _ = decodeBatch([]byte(s.body))
		}
		for i := range n {
			r, ans, q := decisions[k], answers[k], qs[i]
			if r.RequestID != s.id || r.PolicyDigest != digests[k] {
				t.Errorf("record %d: id %q, digest %s; want %q, %s", k, r.RequestID, r.PolicyDigest, s.id, digests[k])
			}
			if (s.batch == 0) != (r.Index == nil) || s.batch > 0 && *r.Index != i {
				t.Errorf("record %d: index %v, want %d of a batch of %d", k, r.Index, i, s.batch)
			}
			wantSource := routeDecide
			if s.batch > 0 {
				wantSource = routeBatch
			}
			loaded := q.Loaded
			if loaded == nil {
				loaded = []string{}
			}
			if r.Source != wantSource || r.Agent != q.Agent || r.Tool != q.Tool || r.Unattended != q.Unattended || !slices.Equal(r.Loaded, loaded) {
				t.Errorf("record %d: %+v does not hold the question %+v from %s", k, r, q, wantSource)
			}
			var pos *policy.Position
			if ans.Reason.Position != (policy.Position{}) {
				pos = &ans.Reason.Position
			}
			if r.Decision != ans.Decision || r.Toolset != ans.Toolset || r.Reason.Summary != ans.Reason.Summary ||
				r.Reason.Key != ans.Reason.Key || r.Reason.Entry != ans.Reason.Entry || (pos == nil) != (r.Reason.Position == nil) ||
				pos != nil && *pos != *r.Reason.Position {
				t.Errorf("record %d: %+v does not hold the answer %+v", k, r, ans)
			}
			if r.LatencyNS <= 0 {
				t.Errorf("record %d: latency %d", k, r.LatencyNS)
			}
			k++
		}
	}
	// A request id that is too long, or holds a space, is replaced by a
	// made one, the same for all the records of a request.
	made := regexp.MustCompile(`^[0-9a-f]{12}-[0-9]+$`)
	for _, i := range []int{1, 2, 3, 7} {
		if !made.MatchString(decisions[i].RequestID) {
			t.Errorf("record %d: request id %q, want a made one", i, decisions[i].RequestID)
		}
	}
	if decisions[1].RequestID == decisions[2].RequestID {
		t.Error("two requests got the same made id")
	}
	if l.Written() != uint64(len(recs)) {
		t.Errorf("Written %d, %d lines", l.Written(), len(recs))
	}
}

// secretConfig has a reviewer with instructions and an MCP server whose
// token comes from the environment.
const secretConfig = `[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = ["compute.run_command"]

[agents.assistant.tools]
available = ["compute", "time", "tracker"]

[security]
never_auto_approve = ["compute.execute_python"]

[security.auto_approval]
enabled = true
reviewers = ["approval"]

[reviewers.approval]
model = "anthropic:claude-haiku-4-5"
system_message = "SECRET-INSTRUCTIONS-7f3a: approve only what serves the user."

[[mcp.server]]
name = "tracker"
url = "https://tracker.example.com/mcp"
token_env = "KOKUA_TEST_TRACKER_TOKEN"
`

// TestDecisionLogKeepsSecrets (issue 41, Must 3): whatever is asked, of
// a policy with reviewer instructions and an MCP server's token in the
// environment, by requests carrying credentials in their headers, the log
// holds neither the instructions, nor the token's value, nor any header
// but the request id.
func TestDecisionLogKeepsSecrets(t *testing.T) {
	const token = "TOKEN-VALUE-9c1e"
	t.Setenv("KOKUA_TEST_TRACKER_TOKEN", token)
	data := policytest.Compile(t, secretConfig)
	if !bytes.Contains(data, []byte("SECRET-INSTRUCTIONS-7f3a")) {
		t.Fatal("the policy should record the reviewer's instructions, which the log must not show")
	}
	s, path := newServer(t, data)
	var out, stderr lockedBuffer
	l := NewDecisionLog(&out, DecisionLogOptions{Logger: slog.New(slog.NewTextHandler(&stderr, nil))})
	s.LogDecisions(l)
	h := s.Handler()
	secrets := map[string]string{"Authorization": "Bearer " + token, "Cookie": "session=COOKIE-5d2b",
		"X-Api-Key": "APIKEY-31ee", "User-Agent": "AGENT-STRING-aa01"}
	var batch []string
	for _, q := range policytest.Questions(s.Policy()) {
		for _, un := range []bool{false, true} {
			body := decideBody(q[0], q[1], un)
			post(h, routeDecide, body, secrets)
			batch = append(batch, body)
		}
	}
	post(h, routeBatch, `{"requests":[`+strings.Join(batch, ",")+`]}`, secrets)
	// A refused reload says why, in the log too.
	replace(t, path, policytest.Tamper(t, data))
	_ = s.Reload()
	closeLog(t, l)
	text := out.String()
	if len(readLog(t, logSchema(t), text)) < 2*len(batch) {
		t.Fatalf("too few records: %s", text)
	}
	for _, secret := range []string{"SECRET-INSTRUCTIONS", token, "COOKIE-5d2b", "APIKEY-31ee", "AGENT-STRING", "Bearer", "KOKUA_TEST_TRACKER_TOKEN"} {
		if strings.Contains(text, secret) || strings.Contains(stderr.String(), secret) {
			t.Errorf("the log holds %q", secret)
		}
	}
}

// TestDecisionLogPrintableNames (issue 41, Must 3): names reach the log in
// their printable form: no control or bidirectional character raw in the
// file, and the decoded field is printable.String of the name.
func TestDecisionLogPrintableNames(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	var out lockedBuffer
	l := NewDecisionLog(&out, DecisionLogOptions{})
	s.LogDecisions(l)
	names := []string{"\u202etnatsissa", "co\x1b[31mder", "a\u2028b", "x\u200fy", "caf\u00e9", "tab\there"}
	for _, name := range names {
		body, _ := json.Marshal(map[string]any{"agent": name, "tool": name + ".tool", "loaded": []string{}})
		if w := post(s.Handler(), routeDecide, string(body), nil); w.Code != 200 {
			t.Fatalf("%q: %d %s", name, w.Code, w.Body)
		}
	}
	closeLog(t, l)
	text := out.String()
	for _, r := range text {
		if r != '\n' && printable.Unsafe(r) {
			t.Fatalf("the log holds %U raw: %q", r, text)
		}
	}
	recs := readLog(t, logSchema(t), text)[1:]
	for i, name := range names {
		if recs[i].Agent != printable.String(name) || recs[i].Tool != printable.String(name+".tool") {
			t.Errorf("%q is logged as %q, want %q", name, recs[i].Agent, printable.String(name))
		}
	}
}

// blockedWriter blocks every write until released.
type blockedWriter struct {
	release chan struct{}
	entered chan struct{}
	out     lockedBuffer
}

func (w *blockedWriter) Write(p []byte) (int, error) {
	select {
	case w.entered <- struct{}{}:
	default:
	}
	<-w.release
	return w.out.Write(p)
}

// TestDecisionLogNeverBlocks (issue 41, Must 4): with the writer stuck, the
// buffer fills, and every decision is still answered at once; the records
// that do not fit are dropped and counted in /metrics, and the drops are
// said on stderr once per interval in which there were some. Once the
// writer moves again, what was kept is written.
func TestDecisionLogNeverBlocks(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	bw := &blockedWriter{release: make(chan struct{}), entered: make(chan struct{}, 1)}
	var stderr lockedBuffer
	tick := make(chan time.Time)
	l := newDecisionLog(bw, DecisionLogOptions{Buffer: 4, Logger: slog.New(slog.NewTextHandler(&stderr, nil)),
		ReportEvery: time.Minute, tick: tick})
	s.LogDecisions(l)
	h := s.Handler()
	<-bw.entered // the writer is stuck on the start record

	const n = 500
	done := make(chan error, 1)
	go func() {
		for i := range n {
			if w := post(h, routeDecide, policytest.AskRunCommand, nil); w.Code != 200 {
				done <- fmt.Errorf("decision %d: %d %s", i, w.Code, w.Body)
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("decisions waited for the stuck decision log")
	}
	full, failed := l.Dropped()
	// The writer holds the start record; at most Buffer records wait.
	if full < n-4 || failed != 0 {
		t.Fatalf("dropped %d for a full buffer, %d failed; want at least %d and 0", full, failed, n-4)
	}
	metrics := do(t, h, "GET", "/metrics", "").Body.String()
	if !strings.Contains(metrics, fmt.Sprintf("kokua_decision_log_dropped_total{reason=\"buffer_full\"} %d\n", full)) {
		t.Errorf("/metrics does not count the %d drops:\n%s", full, grep(metrics, "kokua_decision_log"))
	}

	// Each tick says the drops since the last one, if any, on one line.
	tick <- time.Now()
	tick <- time.Now() // no drops since: nothing said
	tick <- time.Now() // the second tick is done
	if w := post(h, routeDecide, policytest.AskRunCommand, nil); w.Code != 200 {
		t.Fatal(w.Code)
	}
	tick <- time.Now()
	tick <- time.Now() // the fourth tick is done
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], fmt.Sprintf("buffer_full=%d ", full)) ||
		!strings.Contains(lines[1], "buffer_full=1 ") || !strings.Contains(lines[1], "records dropped") {
		t.Errorf("stderr should say the drops once per interval that had some:\n%s", stderr.String())
	}

	close(bw.release)
	closeLog(t, l)
	full2, _ := l.Dropped()
	if got := l.Written() + full2; got != n+2 {
		t.Errorf("written %d + dropped %d = %d, want every record counted once (%d)", l.Written(), full2, got, n+2)
	}
	if lines := strings.Count(bw.out.String(), "\n"); uint64(lines) != l.Written() {
		t.Errorf("%d lines written, Written says %d", lines, l.Written())
	}
}

func grep(text, word string) string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		if strings.Contains(line, word) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// failingWriter fails its first write after writing half of it, then
// writes.
type failingWriter struct {
	mu    sync.Mutex
	fails int
	out   bytes.Buffer
}

func (w *failingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fails > 0 {
		w.fails--
		n, _ := w.out.Write(p[:len(p)/2])
		return n, errors.New("no space left on device")
	}
	return w.out.Write(p)
}

// TestDecisionLogFailedWrite (issue 41, Must 4): a failed write drops its
// records, counted as write_failed and said with the error; the decision
// is answered all the same, and the next record starts a line of its own.
func TestDecisionLogFailedWrite(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	fw := &failingWriter{fails: 1}
	var stderr lockedBuffer
	l := NewDecisionLog(fw, DecisionLogOptions{Logger: slog.New(slog.NewTextHandler(&stderr, nil))})
	s.LogDecisions(l) // the start record's write fails
	policytest.WaitFor(t, "the failed write", func() bool { _, failed := l.Dropped(); return failed == 1 })
	if w := post(s.Handler(), routeDecide, policytest.AskRunCommand, nil); w.Code != 200 {
		t.Fatal(w.Code)
	}
	closeLog(t, l)
	if !strings.Contains(stderr.String(), "write_failed=1") || !strings.Contains(stderr.String(), "no space left on device") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if !strings.Contains(do(t, s.Handler(), "GET", "/metrics", "").Body.String(), `kokua_decision_log_dropped_total{reason="write_failed"} 1`) {
		t.Error("/metrics does not count the failed write")
	}
	lines := strings.Split(strings.TrimSuffix(fw.out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("want the torn line and the decision on a line of its own: %q", fw.out.String())
	}
	if recs := readLog(t, logSchema(t), lines[1]+"\n"); len(recs) != 1 || recs[0].Type != "decision" {
		t.Errorf("the record after the failure: %q", lines[1])
	}
}

// TestDecisionLogConcurrent: decisions from many goroutines, batches,
// reloads and reopenings at once, under -race: every record is a whole
// line valid against the schema, and written and dropped add up.
func TestDecisionLogConcurrent(t *testing.T) {
	a, b := policytest.Compile(t, policytest.ConfigA), policytest.Compile(t, policytest.ConfigB)
	s, path := newServer(t, a)
	logPath := filepath.Join(t.TempDir(), "decisions.log")
	l, err := OpenDecisionLog(logPath, DecisionLogOptions{Buffer: 64})
	if err != nil {
		t.Fatal(err)
	}
	s.LogDecisions(l)
	h := s.Handler()
	const workers, each, reloads = 6, 300, 20
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				body := policytest.AskRunCommand
				target := routeDecide
				if i%10 == 0 {
					target, body = routeBatch, `{"requests":[`+policytest.AskRunCommand+`,`+policytest.AskRunCommand+`]}`
				}
				if r := post(h, target, body, map[string]string{RequestIDHeader: fmt.Sprintf("w%d-%d", w, i)}); r.Code != 200 {
					t.Errorf("%d %s", r.Code, r.Body)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for i := range reloads {
			data := a
			if i%2 == 1 {
				data = b
			}
			replace(t, path, data)
			_ = s.Reload()
			l.Reopen()
		}
	})
	wg.Wait()
	closeLog(t, l)
	text, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	recs := readLog(t, logSchema(t), string(text))
	full, failed := l.Dropped()
	records := uint64(workers*each + workers*each/10 + reloads + 1)
	if uint64(len(recs)) != l.Written() || l.Written()+full+failed != records {
		t.Errorf("%d lines, written %d, dropped %d+%d: want %d records counted once", len(recs), l.Written(), full, failed, records)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		if r.Type == "decision" && r.Index == nil {
			if seen[r.RequestID] {
				t.Errorf("request %s logged twice", r.RequestID)
			}
			seen[r.RequestID] = true
		}
	}
}

// TestDecisionLogRotates (issue 41, Must 4): a file past its size is
// renamed aside and a new one started, every record whole in one of them.
func TestDecisionLogRotates(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "decisions.log")
	l, err := OpenDecisionLog(logPath, DecisionLogOptions{MaxSizeMB: 1, MaxBackups: 3})
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Parse("policy.json", policytest.Compile(t, policytest.ConfigA))
	if err != nil {
		t.Fatal(err)
	}
	ans := p.Decide("coder", "compute.run_command", policy.Turn{})
	const n = 6000 // about 2.3 MB
	for i := range n {
		l.Log(LoggedDecision{Time: time.Now(), Source: "kokua-run decide", Digest: p.Document().Digest,
			Agent: "coder", Tool: "compute.run_command", Answer: ans, Latency: time.Microsecond})
		if i%1000 == 999 {
			// Let the writer keep up: the test is about rotation.
			policytest.WaitFor(t, "the writer", func() bool { return l.queued.Load() == 0 })
		}
	}
	closeLog(t, l)
	files, _ := filepath.Glob(filepath.Join(dir, "decisions*.log"))
	if len(files) < 3 {
		t.Fatalf("files %v: want the log rotated at 1 MB", files)
	}
	sch, total := logSchema(t), 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 1<<20 {
			t.Errorf("%s holds %d bytes, over 1 MB", f, len(data))
		}
		total += len(readLog(t, sch, string(data)))
	}
	if total != n || l.Written() != n {
		t.Errorf("%d records in the files, written %d, want %d", total, l.Written(), n)
	}
}

// TestDecisionLogReopen (issue 41, Must 4): after the file is moved away,
// as logrotate does, Reopen makes the log start a new file at its path:
// the records before it are in the moved file, those after in the new.
func TestDecisionLogReopen(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "decisions.log")
	l, err := OpenDecisionLog(logPath, DecisionLogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	log := func(agent string) {
		l.Log(LoggedDecision{Time: time.Now(), Source: "kokua-run decide", Digest: "sha256:" + strings.Repeat("0", 64),
			Agent: agent, Tool: "t", Answer: policy.Answer{Decision: policy.Denied, Reason: &policy.Reason{Summary: "s"}}})
	}
	log("before-1")
	log("before-2")
	if err := os.Rename(logPath, logPath+".1"); err != nil {
		t.Fatal(err)
	}
	l.Reopen()
	log("after-1")
	closeLog(t, l)
	sch := logSchema(t)
	for file, want := range map[string][]string{logPath + ".1": {"before-1", "before-2"}, logPath: {"after-1"}} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range readLog(t, sch, string(data)) {
			got = append(got, r.Agent)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want %v", file, got, want)
		}
	}
	if info, err := os.Stat(logPath); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the new file: %v, %v; want mode 0600", info.Mode(), err)
	}
}

// TestOpenDecisionLogRefuses: a folder that is not there, a path that is
// a folder or a device, are refused at the start, not at the first
// decision.
func TestOpenDecisionLogRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "missing", "decisions.log"), dir, "/dev/null"} {
		if l, err := OpenDecisionLog(path, DecisionLogOptions{}); err == nil {
			closeLog(t, l)
			t.Errorf("%s: opened", path)
		}
	}
}

// TestDecisionLogDocumented: the records' fields, the schema's properties
// and docs/api.md's tables of the decision log are the same names, and
// the page's example lines are valid against the schema.
func TestDecisionLogDocumented(t *testing.T) {
	raw, err := os.ReadFile("../docs/decision-log.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, found := bytes.Cut(page, []byte("\n## The decision log"))
	if !found {
		t.Fatal("docs/api.md has no section on the decision log")
	}
	section := string(after)
	tables := strings.Split(section, "| field | meaning |")
	if len(tables) != 3 {
		t.Fatalf("docs/api.md's decision log should have two tables of fields, has %d", len(tables)-1)
	}
	backticked := regexp.MustCompile("`([a-z_.]+)`")
	for i, c := range []struct {
		def string
		rec any
	}{{"Decision", decisionRecord{}}, {"Reload", reloadRecord{}}} {
		var inSchema, inCode, inDocs []string
		for name := range schema.Defs[c.def].Properties {
			inSchema = append(inSchema, name)
		}
		data, _ := json.Marshal(c.rec)
		var fields map[string]any
		_ = json.Unmarshal(data, &fields)
		for name := range fields {
			inCode = append(inCode, name)
		}
		switch c.def {
		case "Decision":
			inCode = append(inCode, "index") // left out when empty
		case "Reload":
			inCode = append(inCode, "previous_digest", "error")
		}
		table, _, _ := strings.Cut(tables[i+1], "\n\n")
		for line := range strings.SplitSeq(table, "\n") {
			if cell, _, ok := strings.Cut(strings.TrimPrefix(line, "| "), " |"); ok && !strings.HasPrefix(cell, "---") {
				for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
					if name, _, _ := strings.Cut(m[1], "."); !slices.Contains(inDocs, name) {
						inDocs = append(inDocs, name)
					}
				}
			}
		}
		slices.Sort(inSchema)
		slices.Sort(inCode)
		slices.Sort(inDocs)
		if !slices.Equal(inSchema, inCode) || !slices.Equal(inSchema, inDocs) {
			t.Errorf("%s: the schema has %v, the code %v, docs/api.md %v", c.def, inSchema, inCode, inDocs)
		}
	}
	_, example, _ := strings.Cut(section, "```json\n")
	example, _, _ = strings.Cut(example, "```")
	if recs := readLog(t, logSchema(t), example); len(recs) != 2 {
		t.Errorf("docs/api.md's example has %d records", len(recs))
	}
}

// TestDecisionLogAnswerCache: the writer encodes an answer once, but a
// reason at the same address that has changed (the memory of a policy
// reloaded, reused) is encoded anew, never written as the old one.
func TestDecisionLogAnswerCache(t *testing.T) {
	w := &writer{l: &DecisionLog{}}
	r := &policy.Reason{Summary: "first", Key: "[a].review", Entry: "x", Position: policy.Position{Line: 3, Column: 1, EndLine: 3, EndColumn: 4}}
	a := policy.Answer{Decision: policy.Review, Toolset: "compute", Reason: r}
	first, err := w.answer(&a)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := w.answer(&a)
	if &first[0] != &again[0] {
		t.Error("the same answer was encoded twice")
	}
	*r = policy.Reason{Summary: "second"}
	changed, _ := w.answer(&a)
	if string(changed) == string(first) || !strings.Contains(string(changed), `"summary":"second"`) || strings.Contains(string(changed), "position") {
		t.Errorf("a changed reason at the same address: %s", changed)
	}
	a.Decision = policy.Denied
	if d, _ := w.answer(&a); !strings.Contains(string(d), `"decision":"denied"`) {
		t.Errorf("another decision with the same reason: %s", d)
	}
}
