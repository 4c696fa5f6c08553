package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/internal/report"
	"github.com/kokua-policy/kokua-policy/policy"
	"github.com/kokua-policy/kokua-policy/server"
)

// serveCommand is kokua-run serve: the JSON HTTP API of package server,
// until SIGINT or SIGTERM.
func serveCommand(stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "serve",
		Usage:     "serve the JSON HTTP API, reloading the policy when it changes or on SIGHUP",
		UsageText: "kokua-run serve [--addr 127.0.0.1:8181] [--allow-host HOST]... [--verify-key PUB] [--no-ui] [--decision-log FILE|-] POLICY",
		Flags: []urfave.Flag{
			&urfave.StringFlag{Name: "addr", Value: server.DefaultAddr, Usage: "address to listen on, HOST:PORT; a HOST alone (localhost) gets the default port, 8181 (loopback by default)"},
			&urfave.StringSliceFlag{Name: "allow-host", Local: true, Validator: allowHosts,
				Usage: "a host name or address, without a port, that requests may name in their Host besides localhost, 127.0.0.0/8 and [::1] (repeatable); on loopback, or with this flag, any other Host is refused"},
			cli.VerifyKeyFlag(),
			&urfave.BoolFlag{Name: "no-ui", Local: true, Usage: "do not serve the policy explorer at / (the API alone)"},
			decisionLogFlag(),
			&urfave.IntFlag{Name: "decision-log-max-size", Local: true, Value: server.DefaultDecisionLogMaxSize, Validator: atLeastOne,
				Usage: "rotate the --decision-log file once it would grow past this many `MB`"},
			&urfave.IntFlag{Name: "decision-log-backups", Local: true, Value: server.DefaultDecisionLogBackups, Validator: atLeastOne,
				Usage: "keep this many rotated --decision-log files"},
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return cli.Fail(cli.ExitUsage, "kokua-run serve: want POLICY")
			}
			return cli.Code(serveWithSignals(serveOptions{policy: c.Args().First(), addr: c.String("addr"), allowHosts: c.StringSlice("allow-host"),
				verifyKey: c.String("verify-key"), noUI: c.Bool("no-ui"), decisionLog: c.String("decision-log"),
				logMaxSize: c.Int("decision-log-max-size"), logBackups: c.Int("decision-log-backups"),
				stdout: stdout, stderr: stderr}))
		},
	}
}

// serveOptions are the flags and arguments of kokua-run serve.
type serveOptions struct {
	policy string
	// addr is the address to listen on; empty for server.DefaultAddr.
	addr string
	// allowHosts are the hosts of --allow-host: names a request's Host may
	// give besides loopback's.
	allowHosts []string
	// verifyKey is the public key file of --verify-key, or "": with it,
	// only policies signed with that key are served, at the start and
	// after every reload.
	verifyKey string
	// noUI leaves / unserved: no policy explorer.
	noUI bool
	// decisionLog is the file of --decision-log, "-" for stdout, or ""
	// for none; logMaxSize and logBackups are its rotation (0 for the
	// defaults).
	decisionLog            string
	logMaxSize, logBackups int
	stdout, stderr         io.Writer
	// logReport is how often the decision log says its drops; zero for
	// the default.
	logReport time.Duration
	// drain bounds the wait for requests in flight at shutdown; zero for
	// server.DrainTimeout.
	drain time.Duration
	// connState, if not nil, is told of each connection's changes of
	// state (http.Server.ConnState): a test learns that a request is
	// being read.
	connState func(net.Conn, http.ConnState)
}

// serveWithSignals serves until SIGINT or SIGTERM and returns the exit
// code. SIGHUP reloads the policy, as does a change of the file. A second
// SIGINT or SIGTERM during the drain ends the process at once.
func serveWithSignals(o serveOptions) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Once the first signal has arrived, the next one gets the default
	// behaviour: it ends the process without waiting for the drain.
	context.AfterFunc(ctx, stop)
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	return serve(ctx, o, hup, nil)
}

// serve is serveWithSignals without the signals: it stops when ctx is
// done and reloads on each value from hup. ready, if not nil, is called
// with the address once the server accepts connections. It returns
// ExitOK after a shutdown, ExitRefused when there is no valid policy to
// start with, ExitUsage when the address cannot be listened on, and
// ExitServeFailed when serving failed after the start.
func serve(ctx context.Context, o serveOptions, hup <-chan os.Signal, ready func(net.Addr)) int {
	log := slog.New(slog.NewTextHandler(o.stderr, nil))
	addr := listenAddr(o.addr)
	drain := o.drain
	if drain <= 0 {
		drain = server.DrainTimeout
	}
	// A named pipe, a device or a folder given as the policy or the key is
	// refused by its status, without being opened (opening a named pipe
	// blocks until something writes to it).
	for _, f := range []string{o.verifyKey, o.policy} {
		if err := regular.Stat(f); f != "" && errors.Is(err, regular.ErrNotRegular) {
			log.Error("kokua-run serve: cannot read the file", "file", f, "err", err)
			return cli.ExitUsage
		}
	}
	var dlog *server.DecisionLog
	if o.decisionLog != "" {
		l, err := openDecisionLog("kokua-run serve", o.decisionLog, o.stdout, server.DecisionLogOptions{
			Logger: log, ReportEvery: o.logReport, MaxSizeMB: o.logMaxSize, MaxBackups: o.logBackups})
		if err != nil {
			log.Error(err.Error())
			return cli.ExitUsage
		}
		dlog = l
		defer func() {
			if err := closeDecisionLog(l); err != nil {
				log.Warn("kokua-run serve: the decision log's last records", "err", err)
			}
		}()
	}
	var key ed25519.PublicKey
	if o.verifyKey != "" {
		k, err := policy.ReadPublicKey(o.verifyKey)
		if err != nil {
			log.Error("kokua-run serve: --verify-key: cannot read the key", "err", err)
			return cli.ExitUsage
		}
		key = k
	}
	// The policy loads while the signals are watched: SIGINT or SIGTERM
	// during a slow load (a file on a stalled network mount) stops the
	// command at once rather than after the load.
	type loaded struct {
		s   *server.Server
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		s, err := newServer(o.policy, key, log)
		done <- loaded{s, err}
	}()
	var s *server.Server
	select {
	case <-ctx.Done():
		log.Info("kokua-run serve: stopped while loading the policy")
		return cli.ExitOK
	case l := <-done:
		if l.err != nil {
			log.Error("kokua-run serve: no valid policy, not starting", "err", l.err)
			return cli.ExitRefused
		}
		s = l.s
	}
	if !o.noUI {
		s.ServePage(explorerPage(o.policy))
	}
	if dlog != nil {
		s.LogDecisions(dlog)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Error("kokua-run serve: cannot listen", "addr", addr, "err", err)
		return cli.ExitUsage
	}
	if !loopback(ln.Addr()) {
		log.Warn("listening beyond loopback: the API has no authentication, so anyone who can reach this address can query the policy",
			"addr", ln.Addr().String())
	}
	// On loopback, a request must name the server by a loopback name or
	// an allowed host: a page rebound to 127.0.0.1 names its own.
	if loopback(ln.Addr()) || len(o.allowHosts) > 0 {
		if err := s.RestrictHosts(o.allowHosts...); err != nil {
			_ = ln.Close()
			log.Error("kokua-run serve: --allow-host", "err", err)
			return cli.ExitUsage
		}
	}

	wctx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	watchDone, err := s.Watch(wctx)
	if err != nil {
		log.Warn("the policy file is not watched; reload with SIGHUP", "err", err)
	}
	hupDone := make(chan struct{})
	go func() {
		defer close(hupDone)
		for {
			select {
			case <-wctx.Done():
				return
			case <-hup:
				// The decision log opens its file again (logrotate moved
				// it), so the reload's record is the new file's first.
				if dlog != nil {
					dlog.Reopen()
				}
				// A refused policy is logged, and the last good one stays.
				_ = s.ReloadOnSignal()
			}
		}
	}()

	srv := s.HTTPServer()
	srv.ConnState = o.connState
	served := make(chan error, 1)
	go func() { served <- srv.Serve(server.Listener(ln)) }()
	log.Info("kokua-run serve: serving", "addr", ln.Addr().String(), "policy", o.policy, "digest", s.Policy().Document().Digest)
	if ready != nil {
		ready(ln.Addr())
	}

	code := cli.ExitOK
	select {
	case err := <-served:
		log.Error("kokua-run serve: serving failed", "err", err)
		code = cli.ExitServeFailed
	case <-ctx.Done():
		log.Info("kokua-run serve: shutting down", "drain", drain.String())
		sctx, cancel := context.WithTimeout(context.Background(), drain)
		err := srv.Shutdown(sctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			log.Warn("kokua-run serve: the drain timed out; closing the connections left", "drain", drain.String())
			_ = srv.Close()
		} else if err != nil {
			log.Warn("kokua-run serve: shutdown", "err", err)
		}
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("kokua-run serve: serving failed", "err", err)
			code = cli.ExitServeFailed
		}
	}
	stopWatch()
	if watchDone != nil {
		<-watchDone
	}
	<-hupDone
	log.Info("kokua-run serve: stopped")
	return code
}

// explorerPage writes the policy explorer of a served policy (package
// report), with its decision tester, which calls the server's
// /v1/decide.
func explorerPage(name string) func(*policy.Policy) ([]byte, error) {
	return func(p *policy.Policy) ([]byte, error) {
		var b bytes.Buffer
		if err := report.Write(&b, report.Build(report.Input{Name: name, Policy: p, Served: true})); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
}

// atLeastOne validates a count or a size that must be positive.
func atLeastOne(n int) error {
	if n < 1 {
		return errors.New("want 1 or more")
	}
	return nil
}

// allowHosts validates the values of --allow-host: each a host name or an
// IP address without a port, none empty.
func allowHosts(hosts []string) error {
	for _, h := range hosts {
		if h == "" {
			return cli.ErrEmptyValue
		}
		if _, err := server.AllowedHost(h); err != nil {
			return err
		}
	}
	return nil
}

// newServer loads the policy and makes the server; a test stands a slow
// load in for it.
var newServer = server.NewVerified

func loopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// listenAddr is the address serve listens on for --addr: the default for
// none, and a host given without a port (localhost, 127.0.0.1, ::1 or
// [::1]) with the default's port, rather than net.Listen's "missing port
// in address". Anything else is listened on as it is, and net.Listen says
// what is wrong with it.
func listenAddr(addr string) string {
	if addr == "" {
		return server.DefaultAddr
	}
	if _, _, err := net.SplitHostPort(addr); err == nil {
		return addr
	}
	_, port, _ := net.SplitHostPort(server.DefaultAddr)
	host := strings.TrimSuffix(strings.TrimPrefix(addr, "["), "]")
	if net.ParseIP(host) != nil || !strings.ContainsAny(host, ":[]") {
		return net.JoinHostPort(host, port)
	}
	return addr
}
