// Package floor is the baseline kokua-run's HTTP server is measured
// against: a bare net/http handler that reads a decision request with
// encoding/json and answers it from a map of precomputed answers. The load
// client and the server's benchmarks both use it, so both compare with the
// same floor.
package floor

import (
	"encoding/json"
	"io"
	"net/http"
)

// Request is a decision request, as POST /v1/decide takes it.
type Request struct {
	Agent      string `json:"agent"`
	Tool       string `json:"tool"`
	Unattended bool   `json:"unattended"`
}

// Handler serves POST /decide and POST /batch: decode the request with
// encoding/json, look the answer up, write it. An unknown request is 400.
func Handler(answers map[Request][]byte) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /decide", func(w http.ResponseWriter, r *http.Request) {
		var q Request
		body, err := io.ReadAll(r.Body)
		if err == nil {
			err = json.Unmarshal(body, &q)
		}
		ans, ok := answers[q]
		if err != nil || !ok {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(ans)
	})
	mux.HandleFunc("POST /batch", func(w http.ResponseWriter, r *http.Request) {
		var b struct {
			Requests []Request `json:"requests"`
		}
		body, err := io.ReadAll(r.Body)
		if err == nil {
			err = json.Unmarshal(body, &b)
		}
		if err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		out := make([]byte, 0, 512*len(b.Requests))
		out = append(out, `{"answers":[`...)
		for i, q := range b.Requests {
			ans, ok := answers[q]
			if !ok {
				http.Error(w, "bad request", http.StatusBadRequest)
				return
			}
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, ans[:len(ans)-1]...)
		}
		out = append(out, "]}\n"...)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	})
	return mux
}
