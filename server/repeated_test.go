package server

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
)

// TestRepeatedMembers: a request that gives a field twice, in a single
// request or in any request of a batch, is refused with a 400 naming the
// field, where it is repeated and, in a batch, which request (issue 18,
// Why 6: the last value won, so a proxy reading the first saw another
// request than the server answered). Names are compared decoded, as the
// policy loader compares them.
func TestRepeatedMembers(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	one := `{"agent":"coder","tool":"fs.read_file"}`
	for _, c := range []struct {
		name, path, body string
		field            string
		at               string // the body from where the message says the repeat is
		request          string // the request the message names, in a batch
	}{
		{"unattended true then false", "/v1/decide",
			`{"agent":"coder","tool":"compute.run_command","unattended":true,"unattended":false}`,
			"unattended", `"unattended":false}`, ""},
		{"agent", "/v1/decide", `{"agent":"coder","tool":"fs.read_file","agent":"assistant"}`,
			"agent", `"agent":"assistant"}`, ""},
		{"the same value twice", "/v1/decide", `{"agent":"coder","agent":"coder","tool":"fs.read_file"}`,
			"agent", `"agent":"coder","tool":"fs.read_file"}`, ""},
		{"an escaped spelling", "/v1/decide", `{"agent":"coder","tool":"fs.read_file","\u0061gent":"assistant"}`,
			"agent", `"\u0061gent":"assistant"}`, ""},
		{"loaded", "/v1/decide", `{"agent":"coder","tool":"fs.read_file","loaded":[],"loaded":["skills"]}`,
			"loaded", `"loaded":["skills"]}`, ""},
		{"batch: unattended true then false", "/v1/decide/batch",
			`{"requests":[` + one + `,{"agent":"coder","tool":"compute.run_command","unattended":true,"unattended":false}]}`,
			"unattended", `"unattended":false}]}`, "requests[1]: "},
		{"batch: the first request", "/v1/decide/batch",
			`{"requests":[{"tool":"x","agent":"coder","tool":"fs.read_file"},` + one + `]}`,
			"tool", `"tool":"fs.read_file"},` + one + `]}`, "requests[0]: "},
		{"batch: the last of three", "/v1/decide/batch",
			`{"requests":[` + one + `,` + one + `, {"agent":"coder","tool":"fs.read_file", "tool" : "x"}]}`,
			"tool", `"tool" : "x"}]}`, "requests[2]: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := do(t, h, "POST", c.path, c.body)
			msg := errorOf(t, w, 400, "invalid_request")
			at := strings.Index(c.body, c.at)
			if at < 0 {
				t.Fatalf("the case is wrong: %q is not in the body", c.at)
			}
			want := c.request + `field "` + c.field + `" is given twice (again at byte ` + strconv.Itoa(at) + `)`
			if !strings.HasPrefix(msg, want) {
				t.Errorf("message %q, want it to start %q", msg, want)
			}
		})
	}
	// The example of docs/api.md.
	w := do(t, h, "POST", "/v1/decide", `{"agent": "coder", "tool": "compute.run_command", "unattended": true, "unattended": false}`)
	if want := `{"error":{"status":400,"code":"invalid_request","message":"field \"unattended\" is given twice (again at byte 70): a request gives each field once"}}` + "\n"; w.Body.String() != want {
		t.Errorf("the example of docs/api.md answers\n%s\nnot\n%s", w.Body, want)
	}
	// The same fields once each are answered.
	for path, body := range map[string]string{
		"/v1/decide":       `{"agent":"coder","tool":"fs.read_file","unattended":false,"loaded":[]}`,
		"/v1/decide/batch": `{"requests":[` + one + `,` + one + `]}`,
	} {
		if w := do(t, h, "POST", path, body); w.Code != 200 {
			t.Errorf("%s %s: %d %s", path, body, w.Code, w.Body)
		}
	}
}

// TestFieldNamesExact: a field named in another case is refused, in a
// single request or a batch: encoding/json reads "Agent" as agent, so
// {"agent":"coder","Agent":"assistant"} was answered for assistant, the
// repeated field of TestRepeatedMembers in another spelling. Values are
// not names: an agent called "Agent" is asked about as usual.
func TestFieldNamesExact(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	one := `{"agent":"coder","tool":"fs.read_file"}`
	for _, c := range []struct{ name, path, body, msg string }{
		{"a second agent", "/v1/decide", `{"agent":"coder","tool":"fs.read_file","Agent":"assistant"}`,
			`field "Agent" is not spelled as the API spells it, "agent"`},
		{"an escaped capital", "/v1/decide", `{"agent":"coder","tool":"fs.read_file","\u0041gent":"assistant"}`,
			`field "Agent" is not spelled as the API spells it, "agent"`},
		{"only in capitals", "/v1/decide", `{"AGENT":"coder","tool":"fs.read_file"}`,
			`field "AGENT" is not spelled as the API spells it, "agent"`},
		{"unattended", "/v1/decide", `{"agent":"coder","tool":"compute.run_command","unattended":true,"Unattended":false}`,
			`field "Unattended" is not spelled as the API spells it, "unattended"`},
		{"batch", "/v1/decide/batch", `{"requests":[` + one + `,{"agent":"coder","Tool":"compute.run_command","tool":"fs.read_file"}]}`,
			`requests[1]: field "Tool" is not spelled as the API spells it, "tool"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if msg := errorOf(t, do(t, h, "POST", c.path, c.body), 400, "invalid_request"); !strings.HasPrefix(msg, c.msg) {
				t.Errorf("message %q, want it to start %q", msg, c.msg)
			}
		})
	}
	for path, body := range map[string]string{
		"/v1/decide":       `{"agent":"Agent","tool":"Tool","loaded":[]}`,
		"/v1/decide/batch": `{"requests":[{"agent":"Agent","tool":"Tool"},{"agent":"coder","tool":"fs.read_file","unattended":false}]}`,
	} {
		if w := do(t, h, "POST", path, body); w.Code != 200 {
			t.Errorf("%s %s: %d %s", path, body, w.Code, w.Body)
		}
	}
}

// FuzzMayRepeat holds mayRepeat, the quick look that lets most requests
// skip the repeated-member check, to that check: a single request that
// encoding/json decodes and mayRepeat passes repeats no member.
func FuzzMayRepeat(f *testing.F) {
	for _, seed := range []string{
		`{"agent":"coder","tool":"fs.read_file"}`,
		`{"agent":"coder","tool":"x","agent":"y"}`,
		`{"agent":"agent","tool":"tool"}`,
		`{"agent":"coder","tool":"x","\u0061gent":"y"}`,
		`{"agent":"coder","tool":"x","Agent":"y"}`,
		`{"agent":"a","tool":"t","loaded":["x"],"unattended":true}`,
		`{"loaded":[],"agent":"a","tool":"t","loaded":["b"]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var q decideRequest
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if dec.Decode(&q) != nil || endOfBody(dec) != nil || mayRepeat(body) {
			return
		}
		if e := repeatedMember(body, nil); e != nil {
			t.Errorf("mayRepeat passed %q, which repeats a member: %s", body, e.message)
		}
	})
}
