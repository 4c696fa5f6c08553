package tomlpos

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Kokua reads config.toml with Python's tomllib, so tomllib is the oracle
// Parse is held to: the tests here ask a python3 helper
// (testdata/tomllib_verdict.py) whether tomllib reads each document, and
// what it reads, and require Parse to accept exactly the documents tomllib
// accepts and read from each the same keys and values.

var (
	tomllibDocs = flag.Int("tomllib.docs", 50000, "documents the generated differential test compares with tomllib")
	tomllibSeed = flag.Uint64("tomllib.seed", 1, "seed of the generated differential test")
)

// tomllib is one python3 process running the helper.
type tomllib struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// One helper serves every test of a test process (and each fuzz worker
// is a process of its own); it ends when its stdin closes, with the process.
var (
	oracleOnce sync.Once
	oracleMu   sync.Mutex // one conversation at a time
	oracle     *tomllib
	oracleErr  string
)

// startTomllib returns the helper, started on first use. Without python3 or
// tomllib the test fails in CI (CI=true) and is skipped elsewhere, saying why.
func startTomllib(tb testing.TB) *tomllib {
	tb.Helper()
	oracleOnce.Do(func() { oracle, oracleErr = launchTomllib() })
	if oracle == nil {
		msg := "the differential test against Python's tomllib cannot run: " + oracleErr
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%s; CI must have python3 3.11 or later (which has tomllib) on PATH", msg)
		}
		tb.Skipf("%s; skipped outside CI (install python3 3.11 or later to run it)", msg)
	}
	return oracle
}

func launchTomllib() (*tomllib, string) {
	python, err := exec.LookPath("python3")
	if err != nil {
		return nil, "python3 is not on PATH"
	}
	script, err := filepath.Abs(filepath.Join("testdata", "tomllib_verdict.py"))
	if err != nil {
		return nil, err.Error()
	}
	cmd := exec.Command(python, script)
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
		return nil, fmt.Sprintf("cannot start %s: %v", python, err)
	}
	t := &tomllib{cmd: cmd, in: in, out: bufio.NewReaderSize(outPipe, 1<<16)}
	if line, err := t.out.ReadString('\n'); err != nil || line != "ready\n" {
		_ = in.Close()
		_ = cmd.Wait()
		return nil, fmt.Sprintf("%s could not import tomllib: %s", python, strings.TrimSpace(stderr.String()))
	}
	return t, ""
}

// verdicts asks about many documents at once: one line each way per
// document, written while the answers are read.
func (t *tomllib) verdicts(tb testing.TB, docs [][]byte) []string {
	tb.Helper()
	oracleMu.Lock()
	defer oracleMu.Unlock()
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(t.in, 1<<16)
		for _, d := range docs {
			if _, err := fmt.Fprintln(w, base64.StdEncoding.EncodeToString(d)); err != nil {
				werr <- err
				return
			}
		}
		werr <- w.Flush()
	}()
	answers := make([]string, len(docs))
	for i := range docs {
		line, err := t.out.ReadString('\n')
		if err != nil {
			tb.Fatalf("the tomllib helper stopped answering at document %d: %v", i, err)
		}
		answers[i] = strings.TrimSuffix(line, "\n")
	}
	if err := <-werr; err != nil {
		tb.Fatalf("writing to the tomllib helper: %v", err)
	}
	return answers
}

// disagreement compares Parse with tomllib's answer for one document and
// describes the difference, or returns "".
func disagreement(doc []byte, answer string) string {
	root, err := Parse("doc.toml", doc)
	read, tomllibAccepts := strings.CutPrefix(answer, "accept ")
	switch {
	case err == nil && tomllibAccepts:
		if got := typed(root); !sameJSON(got, read) {
			return fmt.Sprintf("Parse reads %s, tomllib %s", got, read)
		}
		return ""
	case (err == nil) == tomllibAccepts:
		return ""
	case err == nil:
		return fmt.Sprintf("Parse accepts, tomllib refuses (%s)", answer)
	case passesLimit(err):
		// Parse refuses valid TOML past its own limits (nesting tomllib
		// could still read from a shallow stack, a key too long to repeat
		// in every finding, too many nodes); tomllib has none of them.
		return ""
	default:
		return fmt.Sprintf("Parse refuses (%v), tomllib accepts", err)
	}
}

// typed writes what a tree holds as the helper writes what tomllib reads:
// each scalar with its type, floats by their bits.
func typed(n *Node) string {
	var b strings.Builder
	writeTyped(&b, n)
	return b.String()
}

func writeTyped(b *strings.Builder, n *Node) {
	quote := func(s string) string {
		q, _ := json.Marshal(s)
		return string(q)
	}
	switch n.Kind {
	case KindTable:
		b.WriteByte('{')
		for i, f := range n.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quote(f.Name) + ":")
			writeTyped(b, f.Value)
		}
		b.WriteByte('}')
	case KindArray:
		b.WriteByte('[')
		for i, item := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeTyped(b, item)
		}
		b.WriteByte(']')
	case KindString:
		b.WriteString(`{"string":` + quote(n.Str) + "}")
	case KindInteger:
		if n.OutOfRange {
			b.WriteString(`{"integer":"out of range"}`)
		} else {
			b.WriteString(`{"integer":"` + strconv.FormatInt(n.Int, 10) + `"}`)
		}
	case KindFloat:
		bits := "nan"
		if !math.IsNaN(n.Float) {
			bits = fmt.Sprintf("%016x", math.Float64bits(n.Float))
		}
		b.WriteString(`{"float":"` + bits + `"}`)
	case KindBool:
		b.WriteString(`{"bool":` + strconv.FormatBool(n.Bool) + "}")
	case KindDatetime:
		b.WriteString(`{"datetime":null}`)
	}
}

// sameJSON says whether the tree's typed form equals tomllib's, as JSON
// values (member order aside). An integer the tree marks out of range
// matches any integer of more than 64 bits.
func sameJSON(tree, tomllib string) bool {
	var a, b any
	if json.Unmarshal([]byte(tree), &a) != nil || json.Unmarshal([]byte(tomllib), &b) != nil {
		return false
	}
	return sameValue(a, b)
}

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		if n, ok := x["integer"].(string); ok && n == "out of range" && len(x) == 1 {
			digits, ok := y["integer"].(string)
			_, err := strconv.ParseInt(digits, 10, 64)
			return ok && err != nil
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

func passesLimit(err error) bool {
	var se *SyntaxError
	return errors.As(err, &se) && se.Limit
}

// corpus reads the committed TOML documents: valid/ holds what TOML 1.0
// (and tomllib) accepts, invalid/ what it refuses.
func corpus(tb testing.TB) (names []string, docs [][]byte, valid []bool) {
	tb.Helper()
	for _, dir := range []string{"valid", "invalid"} {
		paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "toml", dir, "*.toml"))
		if err != nil {
			tb.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			names = append(names, dir+"/"+filepath.Base(p))
			docs = append(docs, data)
			valid = append(valid, dir == "valid")
		}
	}
	if len(docs) == 0 {
		tb.Fatal("no documents in testdata/toml")
	}
	return names, docs, valid
}

// TestCorpus holds Parse to the verdict each corpus file's directory
// states, with or without python3.
func TestCorpus(t *testing.T) {
	names, docs, valid := corpus(t)
	for i, doc := range docs {
		_, err := Parse(names[i], doc)
		switch {
		case valid[i] && err != nil:
			t.Errorf("%s: TOML 1.0 accepts it, Parse refuses: %v", names[i], err)
		case !valid[i] && err == nil:
			t.Errorf("%s: TOML 1.0 refuses it, Parse accepts it", names[i])
		case err != nil && !strings.HasPrefix(err.Error(), names[i]+":"):
			t.Errorf("%s: the error %q does not name the file and position", names[i], err)
		}
	}
}

// TestCorpusAgreesWithTomllib checks that tomllib gives every corpus file
// the verdict its directory states, so the corpus says what Kokua does.
func TestCorpusAgreesWithTomllib(t *testing.T) {
	py := startTomllib(t)
	names, docs, valid := corpus(t)
	for i, answer := range py.verdicts(t, docs) {
		if strings.HasPrefix(answer, "accept ") != valid[i] {
			t.Errorf("%s is filed under %s, but tomllib says %s", names[i], strings.Split(names[i], "/")[0], answer)
		}
		if d := disagreement(docs[i], answer); d != "" {
			t.Errorf("%s: %s", names[i], d)
		}
	}
}

// TestGeneratedAgreesWithTomllib compares Parse with tomllib on documents
// generated and mutated from a seed (-tomllib.seed, -tomllib.docs).
func TestGeneratedAgreesWithTomllib(t *testing.T) {
	py := startTomllib(t)
	n := *tomllibDocs
	if testing.Short() {
		n = min(n, 2000)
	}
	g := newGenerator(*tomllibSeed)
	docs := make([][]byte, n)
	for i := range docs {
		docs[i] = g.document()
	}
	accepted, failures := 0, 0
	for i, answer := range py.verdicts(t, docs) {
		if strings.HasPrefix(answer, "accept ") {
			accepted++
		}
		if d := disagreement(docs[i], answer); d != "" {
			failures++
			if failures <= 20 {
				t.Errorf("document %d (seed %d): %s, for:\n%q", i, *tomllibSeed, d, docs[i])
			}
		}
	}
	if failures > 20 {
		t.Errorf("%d disagreements in all", failures)
	}
	t.Logf("compared %d documents with tomllib (seed %d): it accepts %d, refuses %d", n, *tomllibSeed, accepted, n-accepted)
	if accepted < n/10 || accepted > n*9/10 {
		t.Errorf("the generator should make both kinds: %d of %d accepted", accepted, n)
	}
}

// FuzzParseAgreesWithTomllib keeps Parse in step with tomllib: whatever
// the input, Parse accepts it exactly when tomllib does, and reads the same.
func FuzzParseAgreesWithTomllib(f *testing.F) {
	_, docs, _ := corpus(f)
	for _, d := range docs {
		f.Add(d)
	}
	g := newGenerator(7)
	for range 200 {
		f.Add(g.document())
	}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*", "*", "config.toml"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	py := startTomllib(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		answer := py.verdicts(t, [][]byte{data})[0]
		if d := disagreement(data, answer); d != "" {
			t.Fatalf("%s, for:\n%q", d, data)
		}
	})
}
