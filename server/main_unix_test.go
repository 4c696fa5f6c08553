//go:build unix

package server

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMainSignals runs Main as kokua-run serve does and sends the process
// SIGHUP, then SIGTERM. Main has caught both by the time it logs that it
// is serving.
func TestMainSignals(t *testing.T) {
	path := policyFile(t, compilePolicy(t, configA))
	log := &logBuffer{}
	code := make(chan int, 1)
	go func() { code <- Main(Options{Policy: path, Addr: "127.0.0.1:0", Stderr: log}) }()
	waitFor(t, "Main to serve", func() bool { return strings.Contains(log.String(), "kokua-run serve: serving") })

	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the SIGHUP reload", func() bool { return strings.Contains(log.String(), "trigger=sighup") })

	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != ExitOK {
			t.Fatalf("exit %d:\n%s", c, log)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("Main did not stop on SIGTERM:\n%s", log)
	}
	if !strings.Contains(log.String(), "kokua-run serve: stopped") {
		t.Errorf("log:\n%s", log)
	}
}
