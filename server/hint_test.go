package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// TestDecideNamesTheClosest (issue 38): /v1/decide's answer for an
// agent or a tool the policy does not know carries the closest known
// names in did_you_mean, and the decision is the policy's, unchanged
// (denied for an unknown agent, unavailable for an unknown tool); a
// known name, a name close to nothing and a composed worker's label get
// no did_you_mean. The batch answers the same.
func TestDecideNamesTheClosest(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	for _, c := range []struct {
		agent, tool string
		decision    policy.Decision
		near        []string
	}{
		{"codr", "compute.run_command", policy.Denied, []string{"coder"}},
		{"nobody-at-all", "compute.run_command", policy.Denied, nil},
		{"coder", "compute.run_comand", policy.Unavailable, []string{"run_command"}},
		{"coder", "comptue.run_command", policy.Unavailable, []string{"compute.run_command"}},
		{"coder", "run_comand", policy.Unavailable, []string{"run_command"}},
		{"coder", "zzzzzz", policy.Unavailable, nil},
		{"coder", "compute.run_command", policy.Review, nil},
		{"composed:worker", "compute.run_command", policy.Denied, nil},
		{"codr", strings.Repeat("x", 300), policy.Denied, []string{"coder"}},
		{"coder", "compute.run_comand" + strings.Repeat("x", 300), policy.Unavailable, nil},
	} {
		w := do(t, h, "POST", "/v1/decide", decideBody(c.agent, c.tool, false))
		var got Answer
		if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &got) != nil {
			t.Fatalf("%s %s: %d %s", c.agent, c.tool, w.Code, w.Body)
		}
		if want := s.Policy().Decide(c.agent, c.tool, policy.Turn{}); !reflect.DeepEqual(got.Answer, want) || got.Decision != c.decision {
			t.Errorf("%s %s: answered %+v, the policy decides %+v (want %s)", c.agent, c.tool, got.Answer, want, c.decision)
		}
		if !slices.Equal(got.DidYouMean, c.near) {
			t.Errorf("%s %s: did_you_mean %q, want %q", c.agent, c.tool, got.DidYouMean, c.near)
		}
		if c.near == nil && strings.Contains(w.Body.String(), "did_you_mean") {
			t.Errorf("%s %s: did_you_mean written with no name: %s", c.agent, c.tool, w.Body)
		}
	}
	w := do(t, h, "POST", "/v1/decide/batch", `{"requests": [{"agent": "codr", "tool": "time.get_time"}, {"agent": "coder", "tool": "compute.run_command"}]}`)
	var batch struct {
		Answers []Answer `json:"answers"`
	}
	if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &batch) != nil || len(batch.Answers) != 2 {
		t.Fatalf("batch: %d %s", w.Code, w.Body)
	}
	if !slices.Equal(batch.Answers[0].DidYouMean, []string{"coder"}) || batch.Answers[0].Decision != policy.Denied || batch.Answers[1].DidYouMean != nil {
		t.Errorf("batch: %s", w.Body)
	}
}

// TestHintChangesNoDecision: over every question worth asking of the
// test policies (policytest.Questions: every agent, a composed worker
// and an unknown agent, about tools of every toolset, core tools and
// tools that do not exist), Hint's answer is the policy's, and names
// come only for an agent that is not declared or a tool no toolset and
// no core tool has.
func TestHintChangesNoDecision(t *testing.T) {
	for _, cfg := range []string{policytest.ConfigA, policytest.ConfigB} {
		s, _ := newServer(t, policytest.Compile(t, cfg))
		p := s.Policy()
		for _, q := range policytest.Questions(p) {
			for _, unattended := range []bool{false, true} {
				a := p.Decide(q[0], q[1], policy.Turn{Unattended: unattended})
				h := Hint(p, a)
				if !reflect.DeepEqual(h.Answer, a) {
					t.Fatalf("%q: Hint changed the answer: %+v, %+v", q, h.Answer, a)
				}
				_, declared := p.Document().Agents[q[0]]
				if declared && a.Toolset != "" && h.DidYouMean != nil {
					t.Errorf("%q: names %q for a known agent and tool", q, h.DidYouMean)
				}
			}
		}
	}
}
