package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
	"github.com/kokua-policy/kokua-policy/policy"
	"github.com/kokua-policy/kokua-policy/server"
)

// TestServeIsDecide checks that POST /v1/decide of kokua-run serve answers
// exactly what kokua-run decide --format json prints, for every compiled
// policy of the compiler's golden cases. kokua-run decide loads the policy
// each time, so it is asked about a sample: every decision once, and
// every tenth question.
func TestServeIsDecide(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(golden.Root(t), "testdata", "compile", "*", "want.json"))
	if len(paths) == 0 {
		t.Fatal("no compiled policies in testdata/compile")
	}
	seen := map[policy.Decision]bool{}
	for _, path := range paths {
		s, err := server.New(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := s.Handler()
		checked := map[policy.Decision]bool{}
		for i, q := range policytest.Questions(s.Policy()) {
			for _, unattended := range []bool{false, true} {
				body, _ := json.Marshal(map[string]any{"agent": q[0], "tool": q[1], "unattended": unattended})
				w := httptest.NewRecorder()
				r := httptest.NewRequest("POST", "/v1/decide", strings.NewReader(string(body)))
				r.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(w, r)
				var a policy.Answer
				if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil || w.Code != http.StatusOK {
					t.Fatalf("%s: %s %s: %d %s", path, q[0], q[1], w.Code, w.Body)
				}
				if checked[a.Decision] && i%10 != 0 {
					continue
				}
				checked[a.Decision], seen[a.Decision] = true, true
				args := []string{"decide", "--format", "json"}
				if unattended {
					args = append(args, "--unattended")
				}
				code, want, stderr := clitest.Run(Main, "kokua-run", "", append(args, path, q[0], q[1])...).Split()
				if w.Body.String() != want {
					t.Fatalf("%s: %s %s unattended=%v:\n got %s\nwant %s (exit %d, %s)", path, q[0], q[1], unattended, w.Body, want, code, stderr)
				}
				if code != exitCode(a.Decision) {
					t.Fatalf("%s: %s %s: exit %d for %s", path, q[0], q[1], code, a.Decision)
				}
			}
		}
	}
	for _, d := range []policy.Decision{policy.Run, policy.Confirm, policy.Review, policy.NotLoaded, policy.Unavailable, policy.Denied} {
		if !seen[d] {
			t.Errorf("no question answered %s: the comparison does not cover it", d)
		}
	}
}
