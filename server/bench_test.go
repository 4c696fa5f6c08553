package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

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
	s, _ := newServer(b, compilePolicy(b, configA))
	benchHandler(b, s.Handler(), "/v1/decide", askRunCommand)
}

// BenchmarkDecideFloor is what the load client's floor does for the same
// question: decode with encoding/json, look the answer up in a map, write.
func BenchmarkDecideFloor(b *testing.B) {
	p, err := policy.Parse("a", compilePolicy(b, configA))
	if err != nil {
		b.Fatal(err)
	}
	type request struct {
		Agent      string `json:"agent"`
		Tool       string `json:"tool"`
		Unattended bool   `json:"unattended"`
	}
	var ans bytes.Buffer
	_ = json.NewEncoder(&ans).Encode(p.Decide("coder", "compute.run_command", policy.Turn{}))
	answers := map[request][]byte{{Agent: "coder", Tool: "compute.run_command"}: ans.Bytes()}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /decide", func(w http.ResponseWriter, r *http.Request) {
		var q request
		body, err := io.ReadAll(r.Body)
		if err == nil {
			err = json.Unmarshal(body, &q)
		}
		a, ok := answers[q]
		if err != nil || !ok {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(a)
	})
	benchHandler(b, mux, "/decide", askRunCommand)
}

func BenchmarkBatch100(b *testing.B) {
	s, _ := newServer(b, compilePolicy(b, configA))
	body := `{"requests":[` + strings.TrimSuffix(strings.Repeat(askRunCommand+",", 100), ",") + `]}`
	benchHandler(b, s.Handler(), "/v1/decide/batch", body)
}
