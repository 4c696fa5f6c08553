package server

import (
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/kokua-policy/kokua-policy/policy"
)

// decisions are the values of the decision label, in a fixed order.
var decisions = [...]policy.Decision{policy.Run, policy.Confirm, policy.Review, policy.NotLoaded, policy.Unavailable, policy.Denied}

func decisionIndex(d policy.Decision) int {
	for i, x := range decisions {
		if x == d {
			return i
		}
	}
	return len(decisions) - 1 // never expected; counted as denied
}

// metrics are the server's Prometheus metrics, in a registry of its own so
// that several servers can live in one process (tests, the load client).
type metrics struct {
	reg        *prometheus.Registry
	decisions  [len(decisions)]prometheus.Counter
	requests   *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	reloads    *prometheus.CounterVec
	info       *prometheus.GaugeVec
	loadedAt   prometheus.Gauge
	lastReload prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	dec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kokua_decisions_total",
		Help: "Decisions answered, by decision; each answer of a batch counts.",
	}, []string{"decision"})
	for i, d := range decisions {
		m.decisions[i] = dec.WithLabelValues(string(d))
	}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kokua_http_requests_total",
		Help: "HTTP requests answered, by route and status code.",
	}, []string{"route", "code"})
	m.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "kokua_http_request_duration_seconds",
		Help:    "Time spent answering HTTP requests, by route, from routing to the handler's return.",
		Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
	}, []string{"route"})
	m.reloads = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kokua_policy_reloads_total",
		Help: "Policy reloads, by result: ok (a new policy was swapped in), unchanged (same digest) or error (refused; the last good policy stays).",
	}, []string{"result"})
	for _, r := range []string{"ok", "unchanged", "error"} {
		m.reloads.WithLabelValues(r)
	}
	m.info = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "kokua_policy_info",
		Help: "The policy answering now: always 1, labelled with its digest and file.",
	}, []string{"digest", "file"})
	m.loadedAt = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "kokua_policy_loaded_timestamp_seconds",
		Help: "When the policy answering now was loaded, in seconds since the Unix epoch.",
	})
	m.lastReload = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "kokua_policy_last_reload_ok",
		Help: "1 when the last load or reload of the policy succeeded, 0 when it failed (/healthz then says degraded).",
	})
	m.reg.MustRegister(dec, m.requests, m.duration, m.reloads, m.info, m.loadedAt, m.lastReload,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) decided(d policy.Decision, n int) {
	if n > 0 {
		m.decisions[decisionIndex(d)].Add(float64(n))
	}
}

func (m *metrics) reloaded(result string) { m.reloads.WithLabelValues(result).Inc() }

func (m *metrics) reloadOutcome(ok bool) {
	if ok {
		m.lastReload.Set(1)
	} else {
		m.lastReload.Set(0)
	}
}

// swapped moves the info gauge to the new policy: the new series is set
// before the old one goes, so a scrape always sees one.
func (m *metrics) swapped(old, cur *state) {
	m.info.WithLabelValues(cur.digest, cur.file).Set(1)
	if old != nil && (old.digest != cur.digest || old.file != cur.file) {
		m.info.DeleteLabelValues(old.digest, old.file)
	}
	m.loadedAt.Set(float64(cur.loadedAt.UnixNano()) / 1e9)
}

// routeSeries are one route's series, resolved once per status code.
type routeSeries struct {
	m        *metrics
	route    string
	duration prometheus.Observer
	codes    sync.Map // int -> prometheus.Counter
}

func (m *metrics) route(route string) *routeSeries {
	return &routeSeries{m: m, route: route, duration: m.duration.WithLabelValues(route)}
}

func (r *routeSeries) observe(code int, d time.Duration) {
	r.duration.Observe(d.Seconds())
	c, ok := r.codes.Load(code)
	if !ok {
		c, _ = r.codes.LoadOrStore(code, r.m.requests.WithLabelValues(r.route, strconv.Itoa(code)))
	}
	c.(prometheus.Counter).Inc()
}

// decisionLogMetrics are the counters of the decision log the server
// writes to, read when scraped; zero while it writes none.
func decisionLogMetrics(log func() *DecisionLog) []prometheus.Collector {
	read := func(f func(*DecisionLog) uint64) func() float64 {
		return func() float64 {
			if l := log(); l != nil {
				return float64(f(l))
			}
			return 0
		}
	}
	const dropped = "Decision log records dropped, by reason: buffer_full (the writer was behind) or write_failed; a decision never waits for its record."
	return []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "kokua_decision_log_written_total",
			Help: "Decision log records written (decisions and reloads).",
		}, read((*DecisionLog).Written)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "kokua_decision_log_dropped_total", Help: dropped, ConstLabels: prometheus.Labels{"reason": "buffer_full"},
		}, read(func(l *DecisionLog) uint64 { full, _ := l.Dropped(); return full })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "kokua_decision_log_dropped_total", Help: dropped, ConstLabels: prometheus.Labels{"reason": "write_failed"},
		}, read(func(l *DecisionLog) uint64 { _, failed := l.Dropped(); return failed })),
	}
}
