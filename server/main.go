package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kokua-policy/kokua-policy/run"
)

// Options are kokua-run serve's flags.
type Options struct {
	Policy string
	// Addr is the address to listen on; empty for DefaultAddr.
	Addr   string
	Stderr io.Writer
	// DrainTimeout bounds the wait for requests in flight at shutdown;
	// zero for the package's DrainTimeout.
	DrainTimeout time.Duration
}

// Exit codes of kokua-run serve, beyond run's.
const (
	// ExitOK: the server stopped on SIGINT or SIGTERM.
	ExitOK = 0
	// ExitListen: the address is malformed or cannot be listened on.
	ExitListen = run.ExitUsage
	// ExitRefused: there is no valid policy to start with.
	ExitRefused = run.ExitRefused
	// ExitServe: serving failed after the start.
	ExitServe = 1
)

// Main serves until SIGINT or SIGTERM and returns the exit code. SIGHUP
// reloads the policy, as does a change of the file. A second SIGINT or
// SIGTERM during the drain ends the process at once.
func Main(o Options) int {
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

// serve is Main without the signals: it stops when ctx is done and
// reloads on each value from hup. ready, if not nil, is called with the
// address once the server accepts connections.
func serve(ctx context.Context, o Options, hup <-chan os.Signal, ready func(net.Addr)) int {
	stderr := o.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	addr := o.Addr
	if addr == "" {
		addr = DefaultAddr
	}
	drain := o.DrainTimeout
	if drain <= 0 {
		drain = DrainTimeout
	}
	s, err := New(o.Policy, log)
	if err != nil {
		log.Error("kokua-run serve: no valid policy, not starting", "err", err)
		return ExitRefused
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Error("kokua-run serve: cannot listen", "addr", addr, "err", err)
		return ExitListen
	}
	if !loopback(ln.Addr()) {
		log.Warn("listening beyond loopback: the API has no authentication, so anyone who can reach this address can query the policy",
			"addr", ln.Addr().String())
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
				_ = s.reload(triggerSIGHUP, true)
			}
		}
	}()

	srv := s.HTTPServer()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	st := s.cur.Load()
	log.Info("kokua-run serve: serving", "addr", ln.Addr().String(), "policy", st.file, "digest", st.digest)
	if ready != nil {
		ready(ln.Addr())
	}

	code := ExitOK
	select {
	case err := <-served:
		log.Error("kokua-run serve: serving failed", "err", err)
		code = ExitServe
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
			code = ExitServe
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

func loopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
