// Package tomllib asks Python's tomllib, the reader Kokua loads
// config.toml with, what it reads from TOML documents: the oracle the
// TOML editor's differential tests and the fix harness hold every edit
// to. One python3 process answers every document of a test process.
// Without python3 3.11 or later a test that asks fails under CI=true
// and is skipped elsewhere (internal/testing/needs). Only tests import it.
package tomllib

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

// script reads one document a line (base64) and answers one JSON line
// each: {"value": what tomllib reads} or {"error": why it refuses}.
// Dates and times are written as their ISO text, which no tool-access key
// takes.
const script = `
import base64, json, sys
try:
    import tomllib
except ImportError:
    sys.exit(3)
out = sys.stdout
out.write("ready\n")
out.flush()
for line in sys.stdin:
    data = base64.b64decode(line.strip())
    try:
        answer = {"value": tomllib.loads(data.decode("utf-8"))}
    except Exception as e:
        answer = {"error": "%s: %s" % (type(e).__name__, " ".join(str(e).split()))}
    out.write(json.dumps(answer, default=str, ensure_ascii=True) + "\n")
    out.flush()
`

// Reading is what tomllib made of one document: Value when it reads it
// (tables as map[string]any, arrays as []any, numbers as float64 through
// JSON), Err when it refuses it.
type Reading struct {
	Value map[string]any `json:"value"`
	Err   string         `json:"error"`
}

type oracle struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

var (
	once     sync.Once
	shared   *oracle
	whyNot   string
	notSince = "python3 3.11 or later, which has tomllib (.ci/run installs it under CI=true)"
)

func start() (*oracle, string) {
	python, err := exec.LookPath("python3")
	if err != nil {
		return nil, "python3 is not on PATH"
	}
	cmd := exec.Command(python, "-I", "-S", "-c", script)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err.Error()
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err.Error()
	}
	if err := cmd.Start(); err != nil {
		return nil, err.Error()
	}
	o := &oracle{cmd: cmd, in: in, out: bufio.NewReaderSize(outPipe, 1<<16)}
	if line, err := o.out.ReadString('\n'); err != nil || line != "ready\n" {
		_ = in.Close()
		_ = cmd.Wait()
		return nil, "this python3 has no tomllib " + strings.TrimSpace(stderr.String())
	}
	return o, ""
}

// Read asks tomllib to read each document, and returns its readings in
// the same order. The test ends as needs.Missing says when tomllib
// cannot be asked.
func Read(tb testing.TB, docs [][]byte) []Reading {
	tb.Helper()
	once.Do(func() { shared, whyNot = start() })
	if shared == nil {
		needs.Missing(tb, "Python's tomllib cannot be asked: "+whyNot, notSince)
	}
	o := shared
	o.mu.Lock()
	defer o.mu.Unlock()
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(o.in, 1<<16)
		for _, d := range docs {
			if _, err := fmt.Fprintln(w, base64.StdEncoding.EncodeToString(d)); err != nil {
				werr <- err
				return
			}
		}
		werr <- w.Flush()
	}()
	out := make([]Reading, len(docs))
	for i := range docs {
		line, err := o.out.ReadString('\n')
		if err != nil {
			tb.Fatalf("tomllib stopped answering at document %d: %v", i, err)
		}
		if err := json.Unmarshal([]byte(line), &out[i]); err != nil {
			tb.Fatalf("tomllib's answer %q: %v", line, err)
		}
	}
	if err := <-werr; err != nil {
		tb.Fatalf("writing to tomllib: %v", err)
	}
	return out
}

// ReadOne is Read of one document.
func ReadOne(tb testing.TB, doc []byte) Reading {
	tb.Helper()
	return Read(tb, [][]byte{doc})[0]
}
