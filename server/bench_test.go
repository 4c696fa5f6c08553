package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"

	"github.com/kokua-policy/kokua-policy/internal/testing/floor"
	"github.com/kokua-policy/kokua-policy/policy"
)

// nopWriter is a ResponseWriter that keeps nothing, so that the
// benchmarks measure the handler and not a recorder.
type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nopWriter) WriteHeader(int)             {}

func benchHandler(b *testing.B, h http.Handler, target, body string) {
	b.Helper()
	r, _ := http.NewRequest("POST", target, nil)
	r.Header.Set("Content-Type", "application/json")
	rd := strings.NewReader(body)
	w := &nopWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		rd.Reset(body)
		r.Body = io.NopCloser(rd)
		r.ContentLength = int64(len(body))
		clear(w.h)
		h.ServeHTTP(w, r)
	}
}

// BenchmarkDecide is the handler of POST /v1/decide, routing included.
func BenchmarkDecide(b *testing.B) {
	s, _ := newServer(b, policytest.Compile(b, policytest.ConfigA))
	benchHandler(b, s.Handler(), "/v1/decide", policytest.AskRunCommand)
}

// BenchmarkDecideFloor is what the load client's floor does for the same
// question: decode with encoding/json, look the answer up in a map, write.
func BenchmarkDecideFloor(b *testing.B) {
	p, err := policy.Parse("a", policytest.Compile(b, policytest.ConfigA))
	if err != nil {
		b.Fatal(err)
	}
	var ans bytes.Buffer
	_ = json.NewEncoder(&ans).Encode(p.Decide("coder", "compute.run_command", policy.Turn{}))
	answers := map[floor.Request][]byte{{Agent: "coder", Tool: "compute.run_command"}: ans.Bytes()}
	benchHandler(b, floor.Handler(answers), "/decide", policytest.AskRunCommand)
}

func BenchmarkBatch100(b *testing.B) {
	s, _ := newServer(b, policytest.Compile(b, policytest.ConfigA))
	body := `{"requests":[` + strings.TrimSuffix(strings.Repeat(policytest.AskRunCommand+",", 100), ",") + `]}`
	benchHandler(b, s.Handler(), "/v1/decide/batch", body)
}
