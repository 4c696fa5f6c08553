package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gopkg.in/natefinch/lumberjack.v2"

	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Defaults of a decision log (DecisionLogOptions).
const (
	// DefaultDecisionLogBuffer is how many records wait to be written at
	// most; more are dropped.
	DefaultDecisionLogBuffer = 8192
	// DefaultDecisionLogReport is how often the drops are said, at most.
	DefaultDecisionLogReport = 10 * time.Second
	// DefaultDecisionLogMaxSize is the size in megabytes at which a log
	// file is rotated.
	DefaultDecisionLogMaxSize = 100
	// DefaultDecisionLogBackups is how many rotated files are kept.
	DefaultDecisionLogBackups = 5
)

// RequestIDHeader is the request header whose value names a request in
// the decision log; the answers of the decide endpoints carry the id of
// their records in it when a decision log is on.
const RequestIDHeader = "X-Request-Id"

// maxRequestID bounds a request id taken from RequestIDHeader.
const maxRequestID = 128

// flushAt is the size of the writer's buffer at which it writes even
// though more records are waiting.
const flushAt = 32 << 10

// flushDelay is how often the writer takes and writes the records
// waiting while they keep coming: one write then carries many records
// rather than one each, and a record waits about this long at most.
const flushDelay = 10 * time.Millisecond

// DecisionLogOptions tune a decision log; the zero value takes the
// defaults.
type DecisionLogOptions struct {
	// Buffer is how many records may wait to be written; 0 for
	// DefaultDecisionLogBuffer. A record that finds the buffer full is
	// dropped and counted, never waited for.
	Buffer int
	// Logger is told of dropped records, at most once per ReportEvery;
	// nil for none.
	Logger *slog.Logger
	// ReportEvery is how often drops are said, at most; 0 for
	// DefaultDecisionLogReport.
	ReportEvery time.Duration
	// MaxSizeMB is the size, in megabytes, at which OpenDecisionLog's file
	// is rotated; 0 for DefaultDecisionLogMaxSize.
	MaxSizeMB int
	// MaxBackups is how many rotated files OpenDecisionLog keeps; 0 for
	// DefaultDecisionLogBackups.
	MaxBackups int

	// tick replaces the report's ticker in tests.
	tick <-chan time.Time
}

// A DecisionLog writes one JSON object per line for every decision a
// Server answers (each request of a batch too), for every reload, and
// for what kokua-run decide answers (Log). docs/api.md describes the
// records and docs/decision-log.schema.json is their JSON Schema.
//
// Records are handed to a goroutine of the log's own through a bounded
// buffer, so a decision never waits for the log: a record that finds the
// buffer full, or whose write fails, is dropped and counted
// (kokua_decision_log_dropped_total in a server's /metrics), and the
// Logger of the options says so at most once per ReportEvery.
type DecisionLog struct {
	w io.Writer
	// reopen closes the log's file so that the next write opens the path
	// again; nil when the log writes to a stream.
	reopen func() error
	// closeFile closes the log's file at Close; nil for a stream.
	closeFile func() error

	logger *slog.Logger
	every  time.Duration
	tick   <-chan time.Time
	limit  int64

	queue   chan logEntry
	queued  atomic.Int64 // records in the queue
	wake    chan struct{}
	reopenQ atomic.Bool
	closing chan struct{}
	closed  atomic.Bool
	done    chan struct{} // the writer has returned
	stopRep chan struct{}
	repDone chan struct{}
	once    sync.Once
	stopped sync.Once

	written, droppedFull, droppedWrite atomic.Uint64
	lastErr                            atomic.Pointer[string]

	idPrefix string
	nextID   atomic.Uint64
}

// NewDecisionLog logs to w, which the log never closes (standard
// output, for one).
func NewDecisionLog(w io.Writer, o DecisionLogOptions) *DecisionLog {
	return newDecisionLog(w, o)
}

// OpenDecisionLog logs to the file at path, appending to it, and rotates
// it by size (gopkg.in/natefinch/lumberjack.v2): once a write would take
// it past MaxSizeMB, the file is renamed with the time in its name
// (decisions-2026-12-07T10-00-00.000.log) and a new one is started;
// MaxBackups of the old ones are kept. A new file is made with mode 0600.
// The folder must exist, and a path that exists must be a regular file:
// a device or a named pipe is refused (use NewDecisionLog with the stream
// instead), for rotating renames the file.
func OpenDecisionLog(path string, o DecisionLogOptions) (*DecisionLog, error) {
	if info, err := os.Stat(filepath.Dir(path)); err != nil {
		return nil, err
	} else if !info.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("its folder is not a folder")}
	}
	if err := regular.Stat(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	size, backups := o.MaxSizeMB, o.MaxBackups
	if size <= 0 {
		size = DefaultDecisionLogMaxSize
	}
	if backups <= 0 {
		backups = DefaultDecisionLogBackups
	}
	f := &lumberjack.Logger{Filename: path, MaxSize: size, MaxBackups: backups}
	// A write of nothing opens (or makes) the file: a path that cannot be
	// written is said now, not at the first decision.
	if _, err := f.Write(nil); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	l := newDecisionLog(f, o)
	l.reopen, l.closeFile = f.Close, f.Close
	return l, nil
}

func newDecisionLog(w io.Writer, o DecisionLogOptions) *DecisionLog {
	if o.Buffer <= 0 {
		o.Buffer = DefaultDecisionLogBuffer
	}
	if o.ReportEvery <= 0 {
		o.ReportEvery = DefaultDecisionLogReport
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	var prefix [6]byte
	_, _ = rand.Read(prefix[:])
	l := &DecisionLog{w: w, logger: o.Logger, every: o.ReportEvery, tick: o.tick, limit: int64(o.Buffer),
		queue: make(chan logEntry, o.Buffer+reopenRoom), wake: make(chan struct{}, 1), closing: make(chan struct{}),
		done: make(chan struct{}), stopRep: make(chan struct{}), repDone: make(chan struct{}),
		idPrefix: hex.EncodeToString(prefix[:]) + "-"}
	go l.run()
	go l.report()
	return l
}

// Written is how many records were written.
func (l *DecisionLog) Written() uint64 { return l.written.Load() }

// Dropped is how many records were dropped: for a full buffer, and for a
// failed write.
func (l *DecisionLog) Dropped() (full, failed uint64) {
	return l.droppedFull.Load(), l.droppedWrite.Load()
}

// Reopen makes the log open its file again before the next record, so
// that a file moved away (by logrotate) is made anew at its path:
// kokua-run serve calls it on SIGHUP. The records before the call go to
// the old file, those after it to the new one. It does not wait for the
// writer, and does nothing for a stream.
func (l *DecisionLog) Reopen() {
	if l.reopen == nil {
		return
	}
	// In the queue, the reopening comes after the records handed over
	// before it. A queue full of markers (never expected) falls back to
	// a flag the writer reads before its next record.
	select {
	case l.queue <- logEntry{kind: entryReopen}:
	default:
		l.reopenQ.Store(true)
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
}

// Close writes the records waiting, closes the file, and stops the log;
// records logged after it are dropped. It waits for the writer until ctx
// is done: a writer that does not return (a stalled disk) is left
// behind, and Close returns ctx's error. Drops not yet said are said.
func (l *DecisionLog) Close(ctx context.Context) error {
	l.once.Do(func() {
		l.closed.Store(true)
		close(l.closing)
	})
	var err error
	select {
	case <-l.done:
		if l.closeFile != nil {
			err = l.closeFile()
		}
		// What was handed over as the writer returned is dropped.
		for drained := false; !drained; {
			select {
			case e := <-l.queue:
				l.droppedFull.Add(uint64(e.records()))
				l.queued.Add(-int64(e.records()))
			default:
				drained = true
			}
		}
	case <-ctx.Done():
		err = fmt.Errorf("the decision log's writer did not finish: %w", ctx.Err())
	}
	l.stopped.Do(func() { close(l.stopRep) })
	<-l.repDone
	return err
}

// logEntry is what a decision hands the writer: the request and the
// answer as the handler has them, encoded by the writer. A batch's
// requests and answers are shared, not copied; they are not changed
// after the answer.
type logEntry struct {
	kind    entryKind
	at      time.Time
	id      string
	source  string
	digest  string
	latency time.Duration
	q       decideRequest
	a       policy.Answer
	qs      []decideRequest
	as      []policy.Answer
	reload  *reloadRecord
}

type entryKind uint8

const (
	entryDecision entryKind = iota
	entryBatch
	entryReload
	// entryReopen is Reopen's marker: no record.
	entryReopen
)

// records is how many lines an entry writes.
func (e *logEntry) records() int {
	switch e.kind {
	case entryBatch:
		return len(e.as)
	case entryReopen:
		return 0
	}
	return 1
}

// reopenRoom is how many more entries than records the queue holds: room
// for Reopen's markers.
const reopenRoom = 16

// enqueue hands an entry to the writer without waiting: what does not fit
// in the buffer is dropped and counted; of a batch, the requests that fit
// are kept.
func (l *DecisionLog) enqueue(e logEntry) {
	n := int64(e.records())
	if n == 0 {
		return
	}
	if l.closed.Load() {
		l.droppedFull.Add(uint64(n))
		return
	}
	room := l.limit - (l.queued.Add(n) - n)
	if room <= 0 {
		l.queued.Add(-n)
		l.droppedFull.Add(uint64(n))
		return
	}
	if room < n {
		l.queued.Add(room - n)
		l.droppedFull.Add(uint64(n - room))
		e.qs, e.as = e.qs[:room], e.as[:room]
		n = room
	}
	select {
	case l.queue <- e:
	default:
		// Never expected: the queue holds more entries than records.
		l.queued.Add(-n)
		l.droppedFull.Add(uint64(n))
	}
}

// requestID is the id of a request's records: its X-Request-Id when that
// is 1 to 128 visible ASCII characters, else one made of the log's
// random prefix and a counter.
func (l *DecisionLog) requestID(r *http.Request) string {
	if v := r.Header[RequestIDHeader]; len(v) == 1 && len(v[0]) > 0 && len(v[0]) <= maxRequestID {
		ok := true
		for i := 0; i < len(v[0]) && ok; i++ {
			ok = v[0][i] > ' ' && v[0][i] < 0x7f
		}
		if ok {
			return v[0]
		}
	}
	return l.madeID()
}

func (l *DecisionLog) madeID() string {
	return l.idPrefix + strconv.FormatUint(l.nextID.Add(1), 10)
}

// LoggedDecision is one decision to log that no Server answered, as
// kokua-run decide answers it.
type LoggedDecision struct {
	// Time is when it was asked; RequestID names it ("" for a made one);
	// Source says who answered ("kokua-run decide").
	Time      time.Time
	RequestID string
	Source    string
	// Digest is the digest of the policy that answered.
	Digest string
	// Agent, Tool, Loaded and Unattended are the question.
	Agent, Tool string
	Loaded      []string
	Unattended  bool
	Answer      policy.Answer
	// Latency is how long the answer took.
	Latency time.Duration
}

// Log logs a decision as a Server logs its own; it never waits for the
// writer.
func (l *DecisionLog) Log(d LoggedDecision) {
	id := d.RequestID
	if id == "" {
		id = l.madeID()
	}
	l.enqueue(logEntry{kind: entryDecision, at: d.Time, id: id, source: d.Source, digest: d.Digest, latency: d.Latency,
		q: decideRequest{Agent: d.Agent, Tool: d.Tool, Unattended: d.Unattended, Loaded: d.Loaded}, a: d.Answer})
}

// decisionRecord is one line of the log for one decision
// (docs/decision-log.schema.json): its head, what was asked, then its
// answer and the latency. The writer encodes the head, and the answer
// once per answer of the policy (writer.answer).
type decisionRecord struct {
	recordHead
	recordAnswer
	LatencyNS int64 `json:"latency_ns"`
}

// recordHead is the part of a decision record that each request makes.
type recordHead struct {
	Type         string   `json:"type"`
	Time         string   `json:"time"`
	RequestID    string   `json:"request_id"`
	Index        *int     `json:"index,omitempty"`
	Source       string   `json:"source"`
	PolicyDigest string   `json:"policy_digest"`
	Agent        string   `json:"agent"`
	Tool         string   `json:"tool"`
	Loaded       []string `json:"loaded"`
	Unattended   bool     `json:"unattended"`
}

// recordAnswer is the part of a decision record that the answer makes.
type recordAnswer struct {
	Decision policy.Decision `json:"decision"`
	Toolset  string          `json:"toolset"`
	Reason   recordReason    `json:"reason"`
}

type recordReason struct {
	Summary  string           `json:"summary"`
	Key      string           `json:"key,omitempty"`
	Entry    string           `json:"entry,omitempty"`
	Position *policy.Position `json:"position,omitempty"`
}

// reloadRecord is one line of the log for a load or a reload.
type reloadRecord struct {
	Type           string `json:"type"`
	Time           string `json:"time"`
	Trigger        string `json:"trigger"`
	Result         string `json:"result"`
	PolicyDigest   string `json:"policy_digest"`
	PreviousDigest string `json:"previous_digest,omitempty"`
	File           string `json:"file"`
	Error          string `json:"error,omitempty"`
}

// timeFormat is RFC 3339 in UTC with nanoseconds, always nine digits.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

// stamp is a time as the log writes it.
func stamp(t time.Time) string { return t.UTC().Format(timeFormat) }

// writer is the state of the log's goroutine.
type writer struct {
	l       *DecisionLog
	buf     bytes.Buffer
	enc     *json.Encoder
	pending uint64 // records in buf
	torn    bool   // the last write stopped inside a line
	head    recordHead
	// answers are the encoded answer parts of the records, by answer:
	// most answers are one of the few the policy holds, and encoding
	// them is most of a record's cost.
	answers map[answerKey]encodedAnswer
}

// answerKey names an answer of a policy: its reason, which the policy
// holds once per deciding entry, with the decision and the toolset.
type answerKey struct {
	reason   *policy.Reason
	decision policy.Decision
	toolset  string
}

// encodedAnswer is an answer part as encoded, with the reason it was
// encoded from: a reason at the same address is used only when it is
// still the same (a policy reloaded may reuse the memory of the last).
type encodedAnswer struct {
	reason policy.Reason
	json   []byte
}

// maxAnswers bounds the writer's cache of encoded answers.
const maxAnswers = 4096

// run is the writer. Idle, it waits for a record; then, as long as
// records keep coming, it wakes every flushDelay, takes every record
// waiting and writes them, so that a decision hands its record over
// without waking it (a goroutine woken for each record costs more than
// the record). A queue found half full is taken again at once.
func (l *DecisionLog) run() {
	defer close(l.done)
	w := &writer{l: l}
	w.buf.Grow(2 * flushAt)
	w.enc = json.NewEncoder(&w.buf)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case e := <-l.queue:
			w.entry(&e)
		case <-l.wake:
			w.reopenIfAsked()
			continue
		case <-l.closing:
			w.drain(-1)
			w.flush()
			return
		}
		for taken := -1; taken != 0; {
			if taken < cap(l.queue)/2 {
				timer.Reset(flushDelay)
				select {
				case <-timer.C:
				case <-l.wake:
					timer.Stop()
					w.reopenIfAsked()
				case <-l.closing:
					timer.Stop()
					w.drain(-1)
					w.flush()
					return
				}
			}
			taken = w.drain(cap(l.queue))
			w.flush()
		}
	}
}

// drain takes the records waiting, at most limit entries (-1 for all),
// and returns how many entries it took.
func (w *writer) drain(limit int) int {
	n := 0
	for ; n != limit; n++ {
		select {
		case e := <-w.l.queue:
			w.entry(&e)
		default:
			return n
		}
	}
	return n
}

// reopenIfAsked writes what it holds to the old file and closes it, when
// Reopen asked; the next write opens the path again.
func (w *writer) reopenIfAsked() {
	if !w.l.reopenQ.Swap(false) {
		return
	}
	w.flush()
	if err := w.l.reopen(); err != nil {
		msg := err.Error()
		w.l.lastErr.Store(&msg)
	}
}

// entry writes an entry's records into the buffer, writing the buffer out
// whenever it is full.
func (w *writer) entry(e *logEntry) {
	w.reopenIfAsked()
	n := e.records()
	defer w.l.queued.Add(-int64(n))
	switch e.kind {
	case entryReopen:
		w.l.reopenQ.Store(true)
		w.reopenIfAsked()
	case entryReload:
		w.encode(e.reload)
	case entryDecision:
		w.decision(e, &e.q, &e.a, -1)
	case entryBatch:
		for i := range e.as {
			w.decision(e, &e.qs[i], &e.as[i], i)
		}
	}
}

func (w *writer) decision(e *logEntry, q *decideRequest, a *policy.Answer, i int) {
	h := &w.head
	*h = recordHead{Type: "decision", Time: stamp(e.at), RequestID: e.id, Source: e.source, PolicyDigest: e.digest,
		Agent: printable.String(q.Agent), Tool: printable.String(q.Tool), Loaded: printables(q.Loaded), Unattended: q.Unattended}
	if i >= 0 {
		h.Index = &i
	}
	answer, err := w.answer(a)
	if err == nil {
		err = w.enc.Encode(h)
	}
	if err != nil {
		// Never expected: the records hold strings, numbers and bools.
		w.l.droppedWrite.Add(1)
		msg := err.Error()
		w.l.lastErr.Store(&msg)
		return
	}
	// The head's object, opened again: "}\n" becomes the answer's members
	// and the latency.
	w.buf.Truncate(w.buf.Len() - 2)
	w.buf.WriteByte(',')
	w.buf.Write(answer)
	w.buf.WriteString(`,"latency_ns":`)
	w.buf.Write(strconv.AppendInt(w.buf.AvailableBuffer(), int64(e.latency), 10))
	w.buf.WriteString("}\n")
	w.pending++
	if w.buf.Len() >= flushAt {
		w.flush()
	}
}

// answer is the encoded members of an answer's part of a record, without
// the braces of its object.
func (w *writer) answer(a *policy.Answer) ([]byte, error) {
	key := answerKey{a.Reason, a.Decision, a.Toolset}
	if c, ok := w.answers[key]; ok && a.Reason != nil && c.reason == *a.Reason {
		return c.json, nil
	}
	part := recordAnswer{Decision: a.Decision, Toolset: printable.String(a.Toolset)}
	if a.Reason != nil {
		part.Reason = recordReason{Summary: printable.String(a.Reason.Summary), Key: printable.String(a.Reason.Key),
			Entry: printable.String(a.Reason.Entry)}
		if a.Reason.Position != (policy.Position{}) {
			pos := a.Reason.Position
			part.Reason.Position = &pos
		}
	}
	data, err := json.Marshal(&part)
	if err != nil {
		return nil, err
	}
	data = data[1 : len(data)-1]
	if a.Reason != nil {
		if w.answers == nil || len(w.answers) >= maxAnswers {
			w.answers = make(map[answerKey]encodedAnswer)
		}
		w.answers[key] = encodedAnswer{*a.Reason, data}
	}
	return data, nil
}

// printables is names in their printable form, never nil.
func printables(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = printable.String(n)
	}
	return out
}

// encode writes a record other than a decision.
func (w *writer) encode(v any) {
	if err := w.enc.Encode(v); err != nil {
		// Never expected: the records hold strings, numbers and bools.
		w.l.droppedWrite.Add(1)
		msg := err.Error()
		w.l.lastErr.Store(&msg)
		return
	}
	w.pending++
	if w.buf.Len() >= flushAt {
		w.flush()
	}
}

// flush writes the buffer out. A failed write drops the records in it;
// a write that stopped inside a line gets a line feed before the next
// one, so that the next record starts a line.
func (w *writer) flush() {
	if w.buf.Len() == 0 {
		return
	}
	if w.torn {
		if _, err := w.l.w.Write([]byte{'\n'}); err == nil {
			w.torn = false
		}
	}
	n, err := w.l.w.Write(w.buf.Bytes())
	if err != nil {
		w.torn = n > 0
		w.l.droppedWrite.Add(w.pending)
		msg := err.Error()
		w.l.lastErr.Store(&msg)
	} else {
		w.l.written.Add(w.pending)
	}
	w.pending = 0
	w.buf.Reset()
}

// report says, at most once per interval, how many records were dropped
// since it last said so.
func (l *DecisionLog) report() {
	defer close(l.repDone)
	tick := l.tick
	if tick == nil {
		t := time.NewTicker(l.every)
		defer t.Stop()
		tick = t.C
	}
	var saidFull, saidWrite uint64
	say := func() {
		full, failed := l.Dropped()
		if full == saidFull && failed == saidWrite {
			return
		}
		args := []any{"buffer_full", full - saidFull, "write_failed", failed - saidWrite,
			"dropped_in_all", full + failed, "interval", l.every.String()}
		if failed != saidWrite {
			if e := l.lastErr.Load(); e != nil {
				args = append(args, "err", *e)
			}
		}
		l.logger.Warn("decision log: records dropped", args...)
		saidFull, saidWrite = full, failed
	}
	for {
		select {
		case <-tick:
			say()
		case <-l.stopRep:
			say()
			return
		}
	}
}
