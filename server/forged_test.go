package server

import (
	"bytes"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// parseIP is net's reading of an IP address, which the Host check's own
// (net/netip) is compared with.
func parseIP(s string) net.IP { return net.ParseIP(s) }

// extraHosts are the hosts the Host tests allow beyond loopback, as
// --allow-host gives them.
var extraHosts = []string{"policy.internal", "Kokua.Example.", "10.0.0.5", "[fd00::1]"}

// TestHostCheck (issue 37, Must 3): with RestrictHosts, a request whose
// Host is not a loopback name or address, or one of the hosts allowed, is
// answered 421 with an error object on every path, the explorer page and
// the metrics included; the others are answered as usual.
func TestHostCheck(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	s.ServePage(func(*policy.Policy) ([]byte, error) { return []byte("<p>page</p>"), nil })
	if err := s.RestrictHosts(extraHosts...); err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	allowed := []string{
		"localhost", "localhost:8181", "LOCALHOST:1", "LocalHost.", "localhost.:80", "localhost:",
		"127.0.0.1", "127.0.0.1:8181", "127.1.2.3:80", "127.255.255.255",
		"[::1]", "[::1]:8181", "[0:0:0:0:0:0:0:1]:9", "[::ffff:127.0.0.1]:80",
		"policy.internal", "Policy.Internal:9000", "kokua.example", "kokua.example.:443",
		"10.0.0.5", "10.0.0.5:1", "[fd00::1]:2", "[FD00:0::1]",
	}
	refused := []string{
		"", "evil.example", "evil.example:8181", "localhost.evil.example", "127.0.0.1.evil.example:8181",
		"evil.localhost", "localhost..", "::1", "[::1", "[::1]x", "[::1]:x", "localhost:80:80", "localhost:abc",
		"localhost:123456", "localhost:65536", "0.0.0.0", "0.0.0.0:8181", "10.0.0.6", "[::2]", "[::]", "2130706433",
		"0x7f.0.0.1", "127.1", "[fe80::1%25eth0]", "[127.0.0.1]", "evil@localhost", "localhost/x",
		"policy.internal.evil.example", "[fd00::2]", "192.168.0.1", "::ffff:127.0.0.1",
	}
	ask := func(method, target, host string) *httptest.ResponseRecorder {
		var body *strings.Reader
		if method == http.MethodPost {
			body = strings.NewReader(policytest.AskRunCommand)
		} else {
			body = strings.NewReader("")
		}
		r := httptest.NewRequest(method, target, body)
		r.Host = host
		if method == http.MethodPost {
			r.Header.Set("Content-Type", "application/json")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	// spec is the documented path whose 421 the answer must match, or "".
	targets := []struct{ method, target, spec string }{
		{"POST", "/v1/decide", routeDecide}, {"POST", "/v1/decide/batch", routeBatch}, {"GET", "/v1/agents", routeAgents},
		{"GET", "/v1/agents/coder", routeAgent}, {"GET", "/healthz", routeHealth}, {"GET", "/metrics", routeMetrics},
		{"GET", "/", routePage}, {"GET", "/no/such/path", ""}, {"OPTIONS", "/v1/decide", ""},
	}
	o := loadOpenAPI(t)
	for _, host := range allowed {
		if w := ask("POST", "/v1/decide", host); w.Code != 200 {
			t.Errorf("Host %q: %d %s, want the decision", host, w.Code, w.Body)
		}
		if w := ask("GET", "/", host); w.Code != 200 {
			t.Errorf("Host %q: GET / %d, want the page", host, w.Code)
		}
	}
	for _, host := range refused {
		for _, tg := range targets {
			w := ask(tg.method, tg.target, host)
			msg := errorOf(t, w, http.StatusMisdirectedRequest, "misdirected_request")
			if !strings.Contains(msg, strconv.Quote(host)) || !strings.Contains(msg, "--allow-host") {
				t.Errorf("Host %q: message %q should quote the host and name --allow-host", host, msg)
			}
			if tg.spec != "" {
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(w.Body.Bytes()))
				if err != nil || o.responseSchema(t, tg.spec, tg.method, w.Code).Validate(inst) != nil {
					t.Errorf("Host %q: %s %s: the 421 is not as documented: %s", host, tg.method, tg.target, w.Body)
				}
			}
		}
	}
	// Refused requests are counted under their own route.
	w := ask("GET", "/metrics", "localhost")
	if !strings.Contains(w.Body.String(), `kokua_http_requests_total{code="421",route="misdirected"}`) {
		t.Errorf("no count of the refused requests in /metrics")
	}
}

// TestHostCheckOff: without RestrictHosts the server answers any Host, as a
// host embedding Handler behind a proxy needs.
func TestHostCheckOff(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	for _, host := range []string{"evil.example", "", "policy.internal:8181"} {
		r := httptest.NewRequest("POST", "/v1/decide", strings.NewReader(policytest.AskRunCommand))
		r.Host = host
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		if w.Code != 200 {
			t.Errorf("Host %q without RestrictHosts: %d", host, w.Code)
		}
	}
}

// TestAllowedHost: what RestrictHosts takes, and the message of what it
// refuses; a refused list changes nothing.
func TestAllowedHost(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"policy.internal", "policy.internal", ""},
		{"Kokua.Example.", "kokua.example", ""},
		{"my_host-1", "my_host-1", ""},
		{"10.0.0.5", "10.0.0.5", ""},
		{"[fd00::1]", "fd00::1", ""},
		{"FD00::1", "fd00::1", ""},
		{"", "", "empty"},
		{"policy.internal:8181", "", "without a port"},
		{"[fd00::1]:80", "", "without a port"},
		{"a b", "", "not a host name"},
		{"evil..example", "", "not a host name"},
		{"*.example", "", "not a host name"},
		{"[10.0.0.5]", "", "not an IPv6 address"},
		{"fe80::1%eth0", "", "not a host name"},
		{strings.Repeat("a", 64), "", "not a host name"},
	} {
		got, err := AllowedHost(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("AllowedHost(%q) = %q, %v; want %q", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("AllowedHost(%q) = %q, %v; want an error saying %q", c.in, got, err, c.err)
		}
	}
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	if err := s.RestrictHosts("ok.example", "bad:1"); err == nil || !strings.Contains(err.Error(), `"bad:1"`) {
		t.Errorf("RestrictHosts with a bad host: %v", err)
	}
	if s.hosts.Load() != nil {
		t.Error("a refused RestrictHosts restricted the server")
	}
}

// hostOracle is an independent reading of which Host values name the
// server: Go's URL parser splits the authority, which must be the whole
// of the value (no user, no path, no escape), with a numeric port of at
// most 65535 or none; the host is then localhost, a loopback IP address
// (an IPv6 one in brackets, as URLs write it), or one of the allowed.
func hostOracle(host string, extra map[string]bool) bool {
	if host == "" || strings.ContainsAny(host, "%@/?#\\ ") {
		return false
	}
	u, err := url.Parse("http://" + host + "/x")
	if err != nil || u.User != nil || u.Host != host || u.Path != "/x" {
		return false
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n > 65535 {
			return false
		}
	} else if strings.Count(host, ":") > 1 && !strings.HasPrefix(host, "[") {
		return false
	}
	name := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	bracketed := strings.HasPrefix(host, "[")
	if ip := parseIP(name); ip != nil {
		if bracketed != strings.Contains(name, ":") {
			return false
		}
		return ip.IsLoopback() || extra[ip.String()]
	}
	if bracketed {
		return false
	}
	return name == "localhost" || extra[name]
}

// TestHostCheckAgreesWithURLs holds the Host check, which lets requests
// through, to hostOracle on generated Host values built from the pieces a
// rebinding page, a typo or a confused client would write.
func TestHostCheckAgreesWithURLs(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	if err := s.RestrictHosts(extraHosts...); err != nil {
		t.Fatal(err)
	}
	hs := s.hosts.Load()
	extra := map[string]bool{}
	for _, h := range extraHosts {
		name, _ := AllowedHost(h)
		if ip := parseIP(name); ip != nil {
			name = ip.String()
		}
		extra[name] = true
	}
	pieces := []string{"localhost", "LocalHost", "127.0.0.1", "127.9.9.9", "10.0.0.5", "10.0.0.6", "evil.example",
		"policy.internal", "kokua.example", "[::1]", "[::2]", "[fd00::1]", "::1", "[", "]", ":", ":80", ":8181", ":99999",
		":x", ".", "0.0.0.0", "%25eth0", "[::ffff:127.0.0.1]", "1", "x", "-", "@", "/", "[::ffff:10.0.0.5]", "0"}
	rng := rand.New(rand.NewPCG(37, 3))
	allowedSeen, refusedSeen := 0, 0
	for range 50_000 {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		host := b.String()
		got, want := hs.allows(host), hostOracle(host, extra)
		if got != want {
			t.Fatalf("Host %q: allowed %v, the URL reading says %v", host, got, want)
		}
		if got {
			allowedSeen++
		} else {
			refusedSeen++
		}
	}
	if allowedSeen < 1000 || refusedSeen < 1000 {
		t.Errorf("the generator is lopsided: %d allowed, %d refused", allowedSeen, refusedSeen)
	}
}

// TestContentType (issue 37, Must 3): POST bodies are read only when sent
// as application/json, on both decide endpoints; anything a browser can
// send across origins without a preflight (text/plain, a form, multipart)
// is a 415 error object with Accept: application/json.
func TestContentType(t *testing.T) {
	s, _ := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	o := loadOpenAPI(t)
	bodies := map[string]string{
		routeDecide: policytest.AskRunCommand,
		routeBatch:  `{"requests":[` + policytest.AskRunCommand + `]}`,
	}
	for _, c := range []struct {
		types []string // the Content-Type headers sent; nil for none
		ok    bool
	}{
		{[]string{"application/json"}, true},
		{[]string{"application/json; charset=utf-8"}, true},
		{[]string{"application/json;charset=UTF-8"}, true},
		{[]string{"Application/JSON"}, true},
		{[]string{"application/json ; x=y"}, true},
		{nil, false},
		{[]string{""}, false},
		{[]string{"text/plain"}, false},
		{[]string{"text/plain; charset=utf-8"}, false},
		{[]string{"text/plain;application/json"}, false},
		{[]string{"application/x-www-form-urlencoded"}, false},
		{[]string{"multipart/form-data; boundary=x"}, false},
		{[]string{"application/json; charset=utf-16"}, false},
		{[]string{"application/json; charset=latin1"}, false},
		{[]string{"application/jsonx"}, false},
		{[]string{"application/json-seq"}, false},
		{[]string{"application/ld+json"}, false},
		{[]string{"application/json, text/plain"}, false},
		{[]string{"text/plain, application/json"}, false},
		{[]string{"application/json", "application/json"}, false},
		{[]string{"application/json", "text/plain"}, false},
	} {
		for route, body := range bodies {
			r := httptest.NewRequest("POST", route, strings.NewReader(body))
			for _, ct := range c.types {
				r.Header.Add("Content-Type", ct)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if c.ok {
				if w.Code != 200 {
					t.Errorf("%s with %q: %d %s, want the answer", route, c.types, w.Code, w.Body)
				}
				continue
			}
			msg := errorOf(t, w, http.StatusUnsupportedMediaType, "unsupported_media_type")
			if !strings.Contains(msg, "application/json") {
				t.Errorf("%s with %q: message %q", route, c.types, msg)
			}
			if a := w.Header().Get("Accept"); a != "application/json" {
				t.Errorf("%s with %q: Accept %q", route, c.types, a)
			}
			sch := o.responseSchema(t, route, "POST", w.Code)
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(w.Body.Bytes()))
			if err != nil || sch.Validate(inst) != nil {
				t.Errorf("%s with %q: the 415 is not as documented: %s", route, c.types, w.Body)
			}
		}
	}
}

// contentTypeOracle is an independent reading of which Content-Type
// values are JSON: the essence of the media type (what comes before the
// first ';', without white space, in lower case) is application/json,
// and a charset parameter, if any, is UTF-8.
func contentTypeOracle(v string) bool {
	essence, params, _ := strings.Cut(v, ";")
	if strings.ToLower(strings.Trim(essence, " \t")) != "application/json" {
		return false
	}
	for p := range strings.SplitSeq(params, ";") {
		k, val, _ := strings.Cut(p, "=")
		if strings.EqualFold(strings.Trim(k, " \t"), "charset") &&
			!strings.EqualFold(strings.Trim(strings.Trim(val, " \t"), `"`), "utf-8") {
			return false
		}
	}
	return true
}

// TestContentTypeAgreesWithEssence holds the content check, which lets
// bodies through, to contentTypeOracle on generated values: whatever it
// accepts, the oracle reads as JSON, and in particular no spelling of a
// type a browser sends without a preflight gets through.
func TestContentTypeAgreesWithEssence(t *testing.T) {
	pieces := []string{"application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
		";", "; ", " ", "charset=utf-8", "charset=UTF-8", "charset=utf-16", "charset=\"utf-8\"", "x=y", ",", "=", "\t",
		"Application/Json", "json", "/", "boundary=z"}
	rng := rand.New(rand.NewPCG(37, 4))
	accepted := 0
	for range 50_000 {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		v := b.String()
		r := httptest.NewRequest("POST", "/v1/decide", nil)
		r.Header.Set("Content-Type", v)
		if jsonContent(r) == nil {
			accepted++
			if !contentTypeOracle(v) {
				t.Fatalf("Content-Type %q is accepted, but its essence is not application/json with UTF-8", v)
			}
		}
	}
	if accepted < 500 {
		t.Errorf("only %d generated values were accepted: the generator tests little", accepted)
	}
}
