package server

import (
	"fmt"
	"mime"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// RestrictHosts makes the server answer only requests whose Host header
// names it by a loopback name or address, or by one of extra: localhost,
// an address of 127.0.0.0/8 or [::1], with or without a port. Any other
// request, an empty Host included, is answered 421 with code
// misdirected_request, whatever its path. kokua-run serve calls it when it
// listens on loopback, so that a web page whose name was rebound to
// 127.0.0.1 (DNS rebinding) cannot read the API or the page through the
// browser of whoever runs the server: the browser sends the page's own
// name as the Host.
//
// Each of extra is a host name or an IP address without a port (every port
// is accepted), compared without regard to case; an empty one, one with a
// port or one that is neither a name nor an address is refused with an
// error naming it, and nothing changes. A host that serves Handler behind
// a proxy that rewrites Host need not call it.
func (s *Server) RestrictHosts(extra ...string) error {
	set := &hostSet{names: map[string]bool{}}
	var errs []string
	for _, h := range extra {
		name, err := AllowedHost(h)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		set.names[name] = true
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	s.hosts.Store(set)
	return nil
}

// AllowedHost checks a host given to RestrictHosts and returns the form it
// is compared in: lower case, a trailing dot dropped, an IP address in
// its canonical form (an IPv6 one without brackets, an IPv4-mapped one as
// IPv4).
func AllowedHost(h string) (string, error) {
	if h == "" {
		return "", fmt.Errorf("an empty host names nothing")
	}
	if strings.Count(h, ":") == 1 || strings.HasPrefix(h, "[") && strings.Contains(h, "]:") {
		return "", fmt.Errorf("host %q: give the host without a port (every port is accepted)", h)
	}
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		a, err := netip.ParseAddr(h[1 : len(h)-1])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", fmt.Errorf("host %q: not an IPv6 address", h)
		}
		return a.Unmap().String(), nil
	}
	if a, err := netip.ParseAddr(h); err == nil && a.Zone() == "" {
		return a.Unmap().String(), nil
	}
	name := strings.TrimSuffix(strings.ToLower(h), ".")
	if !hostName(name) {
		return "", fmt.Errorf("host %q: not a host name (letters, digits, '-', '_' and dots) or an IP address", h)
	}
	return name, nil
}

// hostName reports whether s is a DNS name: dot-separated labels of 1 to
// 63 letters, digits, hyphens and underscores, 253 bytes at most.
func hostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// hostSet is what RestrictHosts allows beyond loopback.
type hostSet struct {
	names map[string]bool // in AllowedHost's form
}

// allows reports whether a request's Host (r.Host: the Host header, or
// the authority of a request target in absolute form) names this server.
func (hs *hostSet) allows(host string) bool {
	name, ok := hostOf(host)
	if !ok {
		return false
	}
	if name == "localhost" {
		return true
	}
	if a, err := netip.ParseAddr(name); err == nil {
		a = a.Unmap()
		return a.Zone() == "" && (a.IsLoopback() || hs.names[a.String()])
	}
	return hs.names[name]
}

// hostOf splits the port, if any, off a Host value and returns the host
// in AllowedHost's form: "[::1]:8181" is "::1", "LocalHost.:80" is
// "localhost". A value that is not host[:port] (an IPv6 address without
// brackets, a port that is not a number) is not a host.
func hostOf(host string) (string, bool) {
	name, port := host, ""
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return "", false
		}
		name, port = host[1:end], host[end+1:]
		if a, err := netip.ParseAddr(name); err != nil || !a.Is6() {
			return "", false
		}
		if port != "" {
			if port[0] != ':' {
				return "", false
			}
			port = port[1:]
		}
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		name, port = host[:i], host[i+1:]
		if strings.Contains(name, ":") {
			return "", false
		}
	}
	if port != "" {
		if n, err := strconv.ParseUint(port, 10, 16); err != nil || n > 65535 {
			return "", false
		}
	}
	if name == "" {
		return "", false
	}
	return strings.TrimSuffix(strings.ToLower(name), "."), true
}

// hostAllowed reports whether the server answers a request with this
// Host: always, unless RestrictHosts was called.
func (s *Server) hostAllowed(host string) bool {
	hs := s.hosts.Load()
	return hs == nil || hs.allows(host)
}

// misdirected answers a request whose Host is not one the server answers
// to. 421 Misdirected Request says that this server is not the one for
// that name (RFC 9110, 15.5.20); 403 would say that the client may not
// have what it asked for, which is not the question.
func misdirected(w http.ResponseWriter, r *http.Request, _ *state) int {
	return writeError(w, &apiError{http.StatusMisdirectedRequest, "misdirected_request",
		fmt.Sprintf("this server does not answer to the host %q: it answers to localhost, 127.0.0.0/8 and [::1] (with any port) and to the hosts of --allow-host", r.Host)})
}

// jsonContent refuses a POST body that is not sent as JSON: a browser
// sends a cross-origin POST of text/plain, form data or multipart data
// without asking the server first (no CORS preflight), but not one of
// application/json. A charset other than UTF-8 is refused too: JSON is
// UTF-8.
func jsonContent(r *http.Request) *apiError {
	ct := r.Header["Content-Type"]
	if len(ct) == 1 && ct[0] == "application/json" {
		return nil
	}
	got := "no Content-Type"
	if len(ct) == 1 {
		mt, params, err := mime.ParseMediaType(ct[0])
		if cs, ok := params["charset"]; err == nil && mt == "application/json" && (!ok || strings.EqualFold(cs, "utf-8")) {
			return nil
		}
		got = fmt.Sprintf("Content-Type %q", ct[0])
	} else if len(ct) > 1 {
		got = fmt.Sprintf("%d Content-Type headers", len(ct))
	}
	return &apiError{http.StatusUnsupportedMediaType, "unsupported_media_type",
		"the body must be sent as Content-Type: application/json, not with " + got}
}
