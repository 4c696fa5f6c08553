package server

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// TestServePage: GET / answers the page of the policy the server answers
// from, with headers that keep it from being framed, sniffed or cached;
// HEAD gets the headers alone, another method 405; after a reload the
// page is the new policy's; a failing render is a 500 error object; and
// without ServePage, / is a 404 like any unknown path.
func TestServePage(t *testing.T) {
	a, b := policytest.Compile(t, policytest.ConfigA), policytest.Compile(t, policytest.ConfigB)
	s, path := newServer(t, a)
	h := s.Handler()
	if w := do(t, h, "GET", "/", ""); w.Code != http.StatusNotFound {
		t.Errorf("GET / without a page: %d, want 404", w.Code)
	}
	renders := 0
	s.ServePage(func(p *policy.Policy) ([]byte, error) {
		renders++
		return []byte("<!DOCTYPE html><p>" + p.Document().Digest), nil
	})
	for range 2 {
		w := do(t, h, "GET", "/", "")
		if w.Code != http.StatusOK || w.Body.String() != "<!DOCTYPE html><p>"+digestOf(t, a) {
			t.Fatalf("GET /: %d %q", w.Code, w.Body.String())
		}
		for k, v := range map[string]string{"Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff",
			"Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY", "Cache-Control": "no-store",
			"Referrer-Policy": "no-referrer", DigestHeader: digestOf(t, a)} {
			if got := w.Header().Get(k); got != v {
				t.Errorf("GET /: %s is %q, want %q", k, got, v)
			}
		}
	}
	if renders != 1 {
		t.Errorf("the page of one policy was written %d times, want once", renders)
	}
	if w := do(t, h, "HEAD", "/", ""); w.Code != http.StatusOK || w.Body.Len() != 0 {
		t.Errorf("HEAD /: %d with %d bytes", w.Code, w.Body.Len())
	}
	if w := do(t, h, "POST", "/", ""); w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /: %d, Allow %q", w.Code, w.Header().Get("Allow"))
	}
	if w := do(t, h, "GET", "/index.html", ""); w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "not_found") {
		t.Errorf("GET /index.html: %d", w.Code)
	}
	replace(t, path, b)
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if w := do(t, h, "GET", "/", ""); !strings.HasSuffix(w.Body.String(), digestOf(t, b)) {
		t.Errorf("after a reload GET / is %q, want the new policy's page", w.Body.String())
	}
	s.ServePage(func(*policy.Policy) ([]byte, error) { return nil, errors.New("no page") })
	replace(t, path, a)
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if w := do(t, h, "GET", "/", ""); w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), `"internal"`) {
		t.Errorf("a failing page: %d %q", w.Code, w.Body.String())
	}
	s.ServePage(nil)
	if w := do(t, h, "GET", "/", ""); w.Code != http.StatusNotFound {
		t.Errorf("GET / after ServePage(nil): %d, want 404", w.Code)
	}
}
