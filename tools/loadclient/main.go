// Command loadclient measures kokua-run serve's decide endpoints against
// a floor: a bare net/http handler that answers the same JSON from a Go
// map of precomputed answers, so that the difference is what the server
// adds to HTTP itself (strict reading, the decision, metrics).
//
// It starts both in this process on loopback listeners and drives them
// with -concurrency keep-alive clients: after a warm-up of each, the
// -duration of each is cut into -rounds slices, run in turn and in
// alternating order, so that load from elsewhere on the machine falls on
// both alike. It reports decisions per second with the p50 and p99
// latency of a request, the ratio of the totals and the median of the
// rounds' ratios (which the target is checked against). Every answer is
// compared byte for byte with what kokua-run decide --format json would
// print; a wrong or failed answer makes the exit code 1. With -batch N it
// does the same for POST /v1/decide/batch with N requests a batch,
// counting each decision in a batch.
//
// With -decision-log FILE it measures the decision log's cost instead:
// the server against a second one, alike but writing every decision to
// FILE (rotated at 50 MB, one old file kept), in the same interleaved
// rounds, with the target -log-target (0.85) of the server's own
// decisions per second. It says how many records were written and
// dropped: dropped records cost nothing, so a run that drops says so.
//
//	go run ./tools/loadclient -policy policy.json [-duration 5s] [-concurrency 32] [-batch 100] [-decision-log FILE]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/testing/floor"
	"github.com/kokua-policy/kokua-policy/policy"
	"github.com/kokua-policy/kokua-policy/server"
)

func main() {
	os.Exit(run())
}

type options struct {
	policy      string
	duration    time.Duration
	warmup      time.Duration
	concurrency int
	batch       int
	target      float64
	cpuprofile  string
	rounds      int
	verbose     bool
	decisionLog string
	logTarget   float64
}

func run() int {
	var o options
	flag.StringVar(&o.policy, "policy", "", "compiled policy to serve (kokua-compile -o FILE config.toml)")
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "how long to drive each target")
	flag.DurationVar(&o.warmup, "warmup", -1, "warm-up before each measurement, not counted (default: a fifth of -duration, at most 1s)")
	flag.IntVar(&o.concurrency, "concurrency", 32, "concurrent clients")
	flag.IntVar(&o.batch, "batch", 100, "requests per batch for the batch endpoint; 0 skips it")
	flag.Float64Var(&o.target, "target", 0.90, "the server's decisions per second must be at least this share of the floor's")
	flag.IntVar(&o.rounds, "rounds", 10, "interleaved rounds the duration is cut into, to even out load from elsewhere")
	flag.BoolVar(&o.verbose, "v", false, "print each round on stderr")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the whole run (servers and clients) to this file")
	flag.StringVar(&o.decisionLog, "decision-log", "", "measure the server with a decision log to this `FILE` against the server without one, instead of against the floor")
	flag.Float64Var(&o.logTarget, "log-target", 0.85, "with -decision-log, the decisions per second with the log on must be at least this share of those without it")
	flag.Parse()
	switch {
	case o.policy == "":
		fmt.Fprintln(os.Stderr, "loadclient: -policy FILE is required (compile one with kokua-compile -o FILE config.toml)")
		return 2
	case o.duration <= 0 || o.duration > 10*time.Minute:
		fmt.Fprintln(os.Stderr, "loadclient: -duration must be between 0 and 10m")
		return 2
	case o.concurrency < 1 || o.concurrency > 4096:
		fmt.Fprintln(os.Stderr, "loadclient: -concurrency must be between 1 and 4096")
		return 2
	case o.rounds < 1 || o.rounds > 100:
		fmt.Fprintln(os.Stderr, "loadclient: -rounds must be between 1 and 100")
		return 2
	case o.batch < 0 || o.batch > server.MaxBatch:
		fmt.Fprintf(os.Stderr, "loadclient: -batch must be between 0 and %d\n", server.MaxBatch)
		return 2
	}
	if o.warmup < 0 {
		o.warmup = min(o.duration/5, time.Second)
	}
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "loadclient: %v\n", err)
			return 2
		}
		defer func() { _ = f.Close() }()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "loadclient: %v\n", err)
			return 2
		}
		defer pprof.StopCPUProfile()
	}
	run := measure
	if o.decisionLog != "" {
		run = measureLog
	}
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "loadclient: %v\n", err)
		return 1
	}
	return 0
}

// question is one decide request with the bytes of its expected answer.
type question struct {
	body   []byte
	answer []byte
	q      request
}

type request = floor.Request

func measure(o options) error {
	srv, err := server.New(o.policy, nil)
	if err != nil {
		return err
	}
	p := srv.Policy()
	qs := questions(p)
	answers := make(map[request][]byte, len(qs))
	for _, q := range qs {
		answers[q.q] = q.answer
	}

	ours, oursURL, err := listen(srv.HTTPServer())
	if err != nil {
		return err
	}
	defer shutdown(ours)
	floorSrv, floorURL, err := listen(&http.Server{Handler: floor.Handler(answers), ReadHeaderTimeout: 5 * time.Second})
	if err != nil {
		return err
	}
	defer shutdown(floorSrv)

	fmt.Printf("policy %s (%s): %d questions over %d agents\n", o.policy, p.Document().Digest, len(qs), len(p.Document().Agents))
	fmt.Printf("concurrency %d, %s a target after a %s warm-up, GOMAXPROCS %d, %d CPUs, %s\n\n",
		o.concurrency, o.duration, o.warmup, runtime.GOMAXPROCS(0), runtime.NumCPU(), runtime.Version())

	single := make([]payload, len(qs))
	for i, q := range qs {
		single[i] = payload{body: q.body, answer: q.answer, decisions: 1}
	}
	var failed error
	note := func(r result) result {
		if r.err != nil && failed == nil {
			failed = fmt.Errorf("%s: %w", r.name, r.err)
		}
		return r
	}
	fmt.Println(header())
	fl, sv, ratio := pair(o, note,
		target{"floor /decide (bare map)", floorURL + "/decide", single},
		target{"server /v1/decide", oursURL + "/v1/decide", single})
	verdict := "met"
	if ratio < o.target {
		verdict = "MISSED"
	}
	var batchLines []string
	if o.batch > 0 {
		batches := batchPayloads(qs, o.batch)
		fb, sb, bratio := pair(o, note,
			target{fmt.Sprintf("floor /batch (N=%d)", o.batch), floorURL + "/batch", batches},
			target{fmt.Sprintf("server /v1/decide/batch (N=%d)", o.batch), oursURL + "/v1/decide/batch", batches})
		batchLines = append(batchLines,
			fmt.Sprintf("server batch / floor single:      %.1fx the floor's decisions per second", sb.rate()/fl.rate()),
			fmt.Sprintf("server batch / floor batch:       %.2f (median of rounds %.2f)", sb.rate()/fb.rate(), bratio))
	}
	fmt.Println()
	fmt.Printf("server / floor, single decisions: %.2f, median of rounds %.2f (target >= %.2f): %s\n",
		sv.rate()/fl.rate(), ratio, o.target, verdict)
	for _, l := range batchLines {
		fmt.Println(l)
	}
	return failed
}

// measureLog measures the server with a decision log against the server
// without one.
func measureLog(o options) error {
	plain, err := server.New(o.policy, nil)
	if err != nil {
		return err
	}
	logged, err := server.New(o.policy, nil)
	if err != nil {
		return err
	}
	dlog, err := server.OpenDecisionLog(o.decisionLog, server.DecisionLogOptions{MaxSizeMB: 50, MaxBackups: 1})
	if err != nil {
		return err
	}
	logged.LogDecisions(dlog)
	p := plain.Policy()
	qs := questions(p)
	plainSrv, plainURL, err := listen(plain.HTTPServer())
	if err != nil {
		return err
	}
	defer shutdown(plainSrv)
	loggedSrv, loggedURL, err := listen(logged.HTTPServer())
	if err != nil {
		return err
	}
	defer shutdown(loggedSrv)

	fmt.Printf("policy %s (%s): %d questions over %d agents; decision log %s\n", o.policy, p.Document().Digest, len(qs),
		len(p.Document().Agents), o.decisionLog)
	fmt.Printf("concurrency %d, %s a target after a %s warm-up, GOMAXPROCS %d, %d CPUs, %s\n\n",
		o.concurrency, o.duration, o.warmup, runtime.GOMAXPROCS(0), runtime.NumCPU(), runtime.Version())
	single := make([]payload, len(qs))
	for i, q := range qs {
		single[i] = payload{body: q.body, answer: q.answer, decisions: 1}
	}
	var failed error
	note := func(r result) result {
		if r.err != nil && failed == nil {
			failed = fmt.Errorf("%s: %w", r.name, r.err)
		}
		return r
	}
	fmt.Println(header())
	sv, lg, ratio := pair(o, note,
		target{"server /v1/decide", plainURL + "/v1/decide", single},
		target{"server /v1/decide, log on", loggedURL + "/v1/decide", single})
	written := dlog.Written()
	full, failedWrites := dlog.Dropped()
	singleLine := fmt.Sprintf("log on / log off, single decisions: %.2f, median of rounds %.2f (target >= %.2f): %s; %d records written, %d dropped (buffer full), %d dropped (write failed)",
		lg.rate()/sv.rate(), ratio, o.logTarget, verdict(ratio, o.logTarget), written, full, failedWrites)
	var batchLine string
	if o.batch > 0 {
		batches := batchPayloads(qs, o.batch)
		bs, bl, bratio := pair(o, note,
			target{fmt.Sprintf("server /v1/decide/batch (N=%d)", o.batch), plainURL + "/v1/decide/batch", batches},
			target{fmt.Sprintf("server batch (N=%d), log on", o.batch), loggedURL + "/v1/decide/batch", batches})
		full2, failed2 := dlog.Dropped()
		batchLine = fmt.Sprintf("log on / log off, batches of %d:  %.2f, median of rounds %.2f; %d records written, %d dropped (buffer full), %d dropped (write failed)",
			o.batch, bl.rate()/bs.rate(), bratio, dlog.Written()-written, full2-full, failed2-failedWrites)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := dlog.Close(ctx); err != nil && failed == nil {
		failed = err
	}
	fmt.Println()
	fmt.Println(singleLine)
	if batchLine != "" {
		fmt.Println(batchLine)
	}
	return failed
}

func verdict(ratio, target float64) string {
	if ratio < target {
		return "MISSED"
	}
	return "met"
}

// questions asks every agent, a composed worker and an unknown agent about
// every tool of the registry, qualified and bare, attended and not.
func questions(p *policy.Policy) []question {
	doc := p.Document()
	agents := make([]string, 0, len(doc.Agents)+2)
	for name := range doc.Agents {
		agents = append(agents, name)
	}
	slices.Sort(agents)
	agents = append(agents, doc.Composed.LabelPrefix+"worker", "nobody")
	var tools []string
	for _, ts := range doc.TrustOrder {
		if t := doc.Toolsets[ts]; t != nil {
			for _, tool := range t.Tools {
				tools = append(tools, ts+"."+tool.Name, tool.Name)
			}
		}
	}
	for _, c := range doc.CoreTools {
		tools = append(tools, c, "core."+c)
	}
	var qs []question
	for _, a := range agents {
		for _, t := range tools {
			for _, un := range []bool{false, true} {
				q := request{Agent: a, Tool: t, Unattended: un}
				body, _ := json.Marshal(q)
				var ans bytes.Buffer
				_ = json.NewEncoder(&ans).Encode(p.Decide(a, t, policy.Turn{Unattended: un}))
				qs = append(qs, question{body: body, answer: ans.Bytes(), q: q})
			}
		}
	}
	// Interleave agents and tools so that consecutive requests differ.
	for i := range qs {
		j := (i * 7919) % len(qs)
		qs[i], qs[j] = qs[j], qs[i]
	}
	return qs
}

// batchPayloads cuts the questions into batches of n, each with the
// answer the batch endpoint gives.
func batchPayloads(qs []question, n int) []payload {
	var out []payload
	for start := 0; start < len(qs); start += n {
		var body, ans bytes.Buffer
		body.WriteString(`{"requests":[`)
		ans.WriteString(`{"answers":[`)
		for k := 0; k < n; k++ {
			q := qs[(start+k)%len(qs)]
			if k > 0 {
				body.WriteByte(',')
				ans.WriteByte(',')
			}
			body.Write(q.body)
			ans.Write(bytes.TrimSuffix(q.answer, []byte("\n")))
		}
		body.WriteString("]}")
		ans.WriteString("]}\n")
		out = append(out, payload{body: body.Bytes(), answer: ans.Bytes(), decisions: n})
	}
	return out
}

func listen(s *http.Server) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	s.ErrorLog = slog.NewLogLogger(slog.NewTextHandler(os.Stderr, nil), slog.LevelWarn)
	go func() { _ = s.Serve(ln) }()
	return s, "http://" + ln.Addr().String(), nil
}

func shutdown(s *http.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.Shutdown(ctx)
}

type target struct {
	name     string
	url      string
	payloads []payload
}

// pair drives two targets in interleaved rounds, the order alternating,
// so that a burst of load from elsewhere on the machine falls on both
// alike. It prints and returns the totals of each, and the median of the
// rounds' ratios b/a.
func pair(o options, note func(result) result, a, b target) (result, result, float64) {
	ca, cb := newClient(o.concurrency), newClient(o.concurrency)
	defer ca.CloseIdleConnections()
	defer cb.CloseIdleConnections()
	if o.warmup > 0 {
		_ = phase(ca, o.concurrency, o.warmup, a.url, a.payloads)
		_ = phase(cb, o.concurrency, o.warmup, b.url, b.payloads)
	}
	slice := o.duration / time.Duration(o.rounds)
	ra, rb := result{name: a.name}, result{name: b.name}
	var ratios []float64
	for i := 0; i < o.rounds; i++ {
		var x, y result
		if i%2 == 0 {
			x = phase(ca, o.concurrency, slice, a.url, a.payloads)
			y = phase(cb, o.concurrency, slice, b.url, b.payloads)
		} else {
			y = phase(cb, o.concurrency, slice, b.url, b.payloads)
			x = phase(ca, o.concurrency, slice, a.url, a.payloads)
		}
		ratios = append(ratios, y.rate()/x.rate())
		if o.verbose {
			fmt.Fprintf(os.Stderr, "round %d: %s %.0f/s in %s, %s %.0f/s in %s\n", i+1,
				a.name, x.rate(), x.elapsed.Round(time.Millisecond), b.name, y.rate(), y.elapsed.Round(time.Millisecond))
		}
		ra.add(x)
		rb.add(y)
	}
	for _, r := range []*result{&ra, &rb} {
		slices.Sort(r.latencies)
		note(*r)
		fmt.Println(r)
	}
	slices.Sort(ratios)
	median := ratios[len(ratios)/2]
	if len(ratios)%2 == 0 {
		median = (ratios[len(ratios)/2-1] + median) / 2
	}
	return ra, rb, median
}

func (r *result) add(x result) {
	r.requests += x.requests
	r.decisions += x.decisions
	r.elapsed += x.elapsed
	r.wrong += x.wrong
	r.latencies = append(r.latencies, x.latencies...)
	if r.err == nil {
		r.err = x.err
	}
}

// payload is one request body with its expected answer and the number of
// decisions it asks for.
type payload struct {
	body, answer []byte
	decisions    int
}

type result struct {
	name      string
	requests  int
	decisions int
	elapsed   time.Duration
	latencies []time.Duration
	wrong     int
	err       error
}

func (r result) rate() float64 { return float64(r.decisions) / r.elapsed.Seconds() }

func (r result) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
}

func header() string {
	return fmt.Sprintf("%-34s %14s %10s %10s %10s %7s", "target", "decisions/s", "p50", "p99", "requests", "wrong")
}

func (r result) String() string {
	return fmt.Sprintf("%-34s %14.0f %10s %10s %10d %7d", r.name, r.rate(), round(r.percentile(0.50)), round(r.percentile(0.99)), r.requests, r.wrong)
}

func round(d time.Duration) string {
	switch {
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.1fµs", float64(d)/float64(time.Microsecond))
	}
}

func newClient(concurrency int) *http.Client {
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        2 * concurrency,
			MaxIdleConnsPerHost: 2 * concurrency,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
	}
}

// phase sends the payloads round robin from concurrency workers for d.
func phase(client *http.Client, concurrency int, d time.Duration, url string, payloads []payload) result {
	var stop atomic.Bool
	var next atomic.Uint64
	type worker struct {
		lat       []time.Duration
		decisions int
		wrong     int
		err       error
	}
	workers := make([]worker, concurrency)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			w.lat = make([]time.Duration, 0, 1<<14)
			var buf bytes.Buffer
			for !stop.Load() {
				p := &payloads[next.Add(1)%uint64(len(payloads))]
				t0 := time.Now()
				resp, err := client.Post(url, "application/json", bytes.NewReader(p.body))
				if err == nil {
					buf.Reset()
					_, err = buf.ReadFrom(resp.Body)
					_ = resp.Body.Close()
					if err == nil && (resp.StatusCode != http.StatusOK || !bytes.Equal(buf.Bytes(), p.answer)) {
						err = fmt.Errorf("status %d, answer %q, want %q", resp.StatusCode, clip(buf.String()), clip(string(p.answer)))
					}
				}
				w.lat = append(w.lat, time.Since(t0))
				if err != nil {
					w.wrong++
					if w.err == nil {
						w.err = err
					}
					if errors.Is(err, context.DeadlineExceeded) {
						return
					}
					continue
				}
				w.decisions += p.decisions
			}
		}(&workers[w])
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	r := result{elapsed: time.Since(start)}
	for _, w := range workers {
		r.latencies = append(r.latencies, w.lat...)
		r.decisions += w.decisions
		r.wrong += w.wrong
		if r.err == nil {
			r.err = w.err
		}
	}
	r.requests = len(r.latencies)
	return r
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
