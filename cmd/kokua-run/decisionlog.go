package main

import (
	"context"
	"io"
	"time"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/server"
)

// decisionLogFlag is --decision-log FILE|-, which serve and decide share.
func decisionLogFlag() *urfave.StringFlag {
	return &urfave.StringFlag{Name: "decision-log", Local: true,
		Usage: "write one JSON line per decision (and, for serve, per reload) to `FILE`, rotated by size, or to standard output with - (docs/api.md)"}
}

// closeTimeout bounds the wait for the decision log's last records when a
// command ends.
const closeTimeout = 5 * time.Second

// openDecisionLog opens the log of --decision-log: standard output for
// "-", else the file, rotated at maxSizeMB with backups kept (0 for the
// defaults). A path that cannot be written is a usage error.
func openDecisionLog(command, path string, stdout io.Writer, o server.DecisionLogOptions) (*server.DecisionLog, error) {
	if path == "-" {
		return server.NewDecisionLog(stdout, o), nil
	}
	l, err := server.OpenDecisionLog(path, o)
	if err != nil {
		return nil, cli.Fail(cli.ExitUsage, "%s: --decision-log: cannot write %s: %v", command, path, err)
	}
	return l, nil
}

// closeDecisionLog writes the log's last records, waiting at most
// closeTimeout, and returns what went wrong with them, if anything: the
// error of the close, or the records dropped.
func closeDecisionLog(l *server.DecisionLog) error {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	return l.Close(ctx)
}
