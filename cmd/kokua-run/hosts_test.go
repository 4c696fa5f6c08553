package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
)

// askAs posts the coder's run_command question to sv with the Host and
// Content-Type given, and returns the status and the body.
func askAs(t *testing.T, sv *served, host, contentType string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", sv.url+"/v1/decide", strings.NewReader(policytest.AskRunCommand))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestServeRefusesForgedRequests (issue 37, Must 3): kokua-run serve on
// loopback answers only requests that name it by a loopback name or a
// host of --allow-host, and only JSON bodies; beyond loopback it answers
// any Host unless --allow-host is given.
func TestServeRefusesForgedRequests(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	for _, c := range []struct {
		name       string
		o          serveOptions
		host, ct   string
		status     int
		inBodyText string
	}{
		{"loopback, a loopback Host", serveOptions{}, "localhost:8181", "application/json", 200, `"decision":"review"`},
		{"loopback, a rebound name", serveOptions{}, "attacker.example:8181", "application/json", 421, `"code":"misdirected_request"`},
		{"loopback, an allowed host", serveOptions{allowHosts: []string{"kokua.internal"}}, "kokua.internal:8181", "application/json", 200, `"decision":"review"`},
		{"loopback, another host with --allow-host", serveOptions{allowHosts: []string{"kokua.internal"}}, "attacker.example", "application/json", 421, `"code":"misdirected_request"`},
		{"loopback, a text/plain body", serveOptions{}, "127.0.0.1", "text/plain", 415, `"code":"unsupported_media_type"`},
		{"loopback, a form", serveOptions{}, "127.0.0.1", "application/x-www-form-urlencoded", 415, `"code":"unsupported_media_type"`},
		{"all addresses, any Host", serveOptions{addr: "0.0.0.0:0"}, "attacker.example", "application/json", 200, `"decision":"review"`},
		{"all addresses with --allow-host", serveOptions{addr: "0.0.0.0:0", allowHosts: []string{"kokua.internal"}}, "attacker.example", "application/json", 421, `"code":"misdirected_request"`},
		{"all addresses, a text/plain body", serveOptions{addr: "0.0.0.0:0"}, "attacker.example", "text/plain", 415, `"code":"unsupported_media_type"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			o.policy = path
			sv := startServeWith(t, o)
			status, body := askAs(t, sv, c.host, c.ct)
			if status != c.status || !strings.Contains(body, c.inBodyText) {
				t.Errorf("Host %q, Content-Type %q: %d %s; want %d with %s", c.host, c.ct, status, body, c.status, c.inBodyText)
			}
		})
	}
}

// TestAllowHostFlag: --allow-host refuses an empty value, in every
// spelling, and a value that is not a host, as a usage error of one line.
func TestAllowHostFlag(t *testing.T) {
	pol := shippedPolicy(t)
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--allow-host", ""}, cli.ErrEmptyValue.Error()},
		{[]string{"--allow-host="}, cli.ErrEmptyValue.Error()},
		{[]string{"--allow-host", "a.example,"}, cli.ErrEmptyValue.Error()},
		{[]string{"--allow-host", "a.example", "--allow-host", ""}, cli.ErrEmptyValue.Error()},
		{[]string{"--allow-host", "a.example:8181"}, "without a port"},
		{[]string{"--allow-host", "*.example"}, "not a host name"},
	} {
		args := append(append([]string{"serve", "--addr", "127.0.0.1:0"}, c.args...), pol)
		r := clitest.Run(Main, "kokua-run", "", args...)
		if r.Code != cli.ExitUsage || r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, c.says) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error of one line saying %q", args, r.Code, r.Stdout, r.Stderr, c.says)
		}
	}
}
