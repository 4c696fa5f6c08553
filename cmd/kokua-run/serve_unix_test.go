//go:build unix

package main

import (
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
)

// TestMainSignals runs kokua-run serve through Main and sends the process
// SIGHUP, then SIGTERM. Main has caught both by the time it logs that it
// is serving.
func TestMainSignals(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	log := &logBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- Main([]string{"kokua-run", "serve", "--addr", "127.0.0.1:0", path}, strings.NewReader(""), io.Discard, log)
	}()
	policytest.WaitFor(t, "Main to serve", func() bool { return strings.Contains(log.String(), "kokua-run serve: serving") })

	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	policytest.WaitFor(t, "the SIGHUP reload", func() bool { return strings.Contains(log.String(), "trigger=sighup") })

	terminate(t, code, log)
	if !strings.Contains(log.String(), "kokua-run serve: stopped") {
		t.Errorf("log:\n%s", log)
	}
}

// terminate sends the process SIGTERM and waits for the serve running in
// it to return, which must be with ExitOK within 15 seconds.
func terminate(t *testing.T, code <-chan int, log *logBuffer) {
	t.Helper()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != cli.ExitOK {
			t.Fatalf("exit %d:\n%s", c, log)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("serve did not stop on SIGTERM:\n%s", log)
	}
}
