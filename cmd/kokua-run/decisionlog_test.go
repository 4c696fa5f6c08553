package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// record is a line of the decision log as these tests read it.
type record struct {
	Type         string          `json:"type"`
	RequestID    string          `json:"request_id"`
	Source       string          `json:"source"`
	PolicyDigest string          `json:"policy_digest"`
	Agent        string          `json:"agent"`
	Tool         string          `json:"tool"`
	Unattended   bool            `json:"unattended"`
	Decision     policy.Decision `json:"decision"`
	Reason       struct {
		Summary  string          `json:"summary"`
		Position policy.Position `json:"position"`
	} `json:"reason"`
	Trigger string `json:"trigger"`
	Result  string `json:"result"`
}

// records checks each line of a decision log against
// docs/decision-log.schema.json and returns the records.
func records(t *testing.T, text string) []record {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	abs, _ := filepath.Abs(filepath.Join("..", "..", "docs", "decision-log.schema.json"))
	sch, err := c.Compile(abs)
	if err != nil {
		t.Fatal(err)
	}
	var out []record
	for line := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
		if line == "" {
			continue
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
		if err != nil {
			t.Fatalf("not JSON: %v: %s", err, line)
		}
		if err := sch.Validate(inst); err != nil {
			t.Fatalf("not a record as the schema has it: %v: %s", err, line)
		}
		var r record
		_ = json.Unmarshal([]byte(line), &r)
		out = append(out, r)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// askID posts the coder's run_command question with a request id.
func askID(t *testing.T, sv *served, id string) {
	t.Helper()
	req, _ := http.NewRequest("POST", sv.url+"/v1/decide", strings.NewReader(policytest.AskRunCommand))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Request-Id", id)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-Request-Id") != id {
		t.Fatalf("%d, X-Request-Id %q", resp.StatusCode, resp.Header.Get("X-Request-Id"))
	}
}

// TestServeDecisionLog (issue 41): kokua-run serve --decision-log FILE
// logs the policy it starts with and each decision; after the file is
// moved away, SIGHUP opens a new one at the path, whose first record is
// the SIGHUP's reload, and the records before it stay in the moved file.
func TestServeDecisionLog(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	logPath := filepath.Join(t.TempDir(), "decisions.log")
	sv := startServeWith(t, serveOptions{policy: path, decisionLog: logPath})
	askID(t, sv, "before-hup")
	policytest.WaitFor(t, "the first decision in the log", func() bool {
		data, _ := os.ReadFile(logPath)
		return bytes.Contains(data, []byte("before-hup"))
	})
	if err := os.Rename(logPath, logPath+".1"); err != nil {
		t.Fatal(err)
	}
	sv.hup <- os.Interrupt
	policytest.WaitFor(t, "the SIGHUP reload", func() bool { return strings.Contains(sv.log.String(), "trigger=sighup") })
	askID(t, sv, "after-hup")
	if code := sv.stop(t); code != cli.ExitOK {
		t.Fatalf("exit %d", code)
	}
	digest := mustDigest(t, path)
	old := records(t, readFile(t, logPath+".1"))
	if len(old) != 2 || old[0].Type != "reload" || old[0].Trigger != "start" || old[0].PolicyDigest != digest ||
		old[1].RequestID != "before-hup" || old[1].Decision != policy.Review || old[1].Source != "/v1/decide" {
		t.Errorf("the moved file: %+v", old)
	}
	cur := records(t, readFile(t, logPath))
	if len(cur) != 2 || cur[0].Trigger != "sighup" || cur[0].Result != "unchanged" || cur[1].RequestID != "after-hup" ||
		cur[1].PolicyDigest != digest || cur[1].Agent != "coder" || cur[1].Tool != "compute.run_command" {
		t.Errorf("the new file: %+v", cur)
	}
}

func mustDigest(t *testing.T, path string) string {
	t.Helper()
	p, err := policy.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return p.Document().Digest
}

// TestServeDecisionLogStdout: with -, the records go to standard output,
// which kokua-run serve writes nothing else to.
func TestServeDecisionLogStdout(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	var stdout logBuffer
	sv := startServeWith(t, serveOptions{policy: path, decisionLog: "-", stdout: &stdout})
	askID(t, sv, "r1")
	if code := sv.stop(t); code != cli.ExitOK {
		t.Fatalf("exit %d", code)
	}
	recs := records(t, stdout.String())
	if len(recs) != 2 || recs[1].RequestID != "r1" {
		t.Errorf("stdout: %s", stdout.String())
	}
}

// TestDecideDecisionLog (issue 41, Must 4): kokua-run decide
// --decision-log writes the record serve writes, after the answer; the
// exit code is the decision's.
func TestDecideDecisionLog(t *testing.T) {
	pol := shippedPolicy(t)
	digest := mustDigest(t, pol)
	logPath := filepath.Join(t.TempDir(), "decisions.log")
	for range 2 { // the second appends
		r := clitest.Run(Main, "kokua-run", "", "decide", "--unattended", "--decision-log", logPath, pol, "coder", "compute.run_command")
		if r.Code != cli.ExitDenied || !strings.HasPrefix(r.Stdout, "denied: ") || r.Stderr != "" {
			t.Fatalf("exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
		}
	}
	recs := records(t, readFile(t, logPath))
	if len(recs) != 2 {
		t.Fatalf("records %+v", recs)
	}
	for _, rec := range recs {
		if rec.Type != "decision" || rec.Source != "kokua-run decide" || rec.PolicyDigest != digest || rec.Agent != "coder" ||
			rec.Tool != "compute.run_command" || !rec.Unattended || rec.Decision != policy.Denied ||
			!strings.Contains(rec.Reason.Summary, "unattended") || rec.Reason.Position.Line == 0 {
			t.Errorf("record %+v", rec)
		}
	}
	if recs[0].RequestID == recs[1].RequestID {
		t.Error("two runs made the same request id")
	}

	// With -, the record is the line after the answer.
	r := clitest.Run(Main, "kokua-run", "", "decide", "--format", "json", "--decision-log", "-", pol, "coder", "compute.run_command")
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if r.Code != cli.ExitReview || len(lines) != 2 {
		t.Fatalf("exit %d, stdout %q", r.Code, r.Stdout)
	}
	var a policy.Answer
	if err := json.Unmarshal([]byte(lines[0]), &a); err != nil || a.Decision != policy.Review {
		t.Errorf("the answer: %q", lines[0])
	}
	if recs := records(t, lines[1]); len(recs) != 1 || recs[0].Decision != policy.Review {
		t.Errorf("the record: %q", lines[1])
	}

	// A log that cannot be written is a usage error before any answer.
	for _, bad := range []string{filepath.Join(t.TempDir(), "missing", "d.log"), t.TempDir(), "/dev/null"} {
		r := clitest.Run(Main, "kokua-run", "", "decide", "--decision-log", bad, pol, "coder", "compute.run_command")
		if r.Code != cli.ExitUsage || r.Stdout != "" || !strings.Contains(r.Stderr, "--decision-log") {
			t.Errorf("--decision-log %s: exit %d, stdout %q, stderr %q", bad, r.Code, r.Stdout, r.Stderr)
		}
	}

	// An answer that cannot be written is no decision: nothing is logged.
	before := readFile(t, logPath)
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer func() { _ = full.Close() }()
	r = clitest.RunTo(Main, "kokua-run", strings.NewReader(""), full, "decide", "--decision-log", logPath, pol, "coder", "calculate")
	if r.Code != cli.ExitInternal || readFile(t, logPath) != before {
		t.Errorf("an answer not written: exit %d, the log %q", r.Code, readFile(t, logPath))
	}
}

// TestDecisionLogFlags: the rotation flags take a positive number; the
// log's path is refused before the policy is read.
func TestDecisionLogFlags(t *testing.T) {
	pol := shippedPolicy(t)
	for _, args := range [][]string{
		{"serve", "--decision-log", "d.log", "--decision-log-max-size", "0", pol},
		{"serve", "--decision-log", "d.log", "--decision-log-backups", "-1", pol},
		{"serve", "--addr", "127.0.0.1:0", "--decision-log", t.TempDir(), pol},
	} {
		r := clitest.Run(Main, "kokua-run", "", args...)
		if r.Code != cli.ExitUsage || r.Stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, r.Code, r.Stdout, r.Stderr)
		}
	}
	for _, sub := range []string{"serve", "decide"} {
		if r := clitest.Run(Main, "kokua-run", "", sub, "-h"); !strings.Contains(r.Stdout, "--decision-log FILE") {
			t.Errorf("%s -h: %s", sub, r.Stdout)
		}
	}
}
