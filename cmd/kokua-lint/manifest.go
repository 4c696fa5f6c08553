package main

import (
	"context"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/lint"
)

// manifestCommand is kokua-lint manifest: the embedded manifest of a
// default Kokua install, the one kokua-lint checks against without
// --manifest, for users to start their own from (docs/manifest.md).
func manifestCommand(stdout io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "manifest",
		Usage:     "print the embedded manifest of a default Kokua install, to start a manifest of your own from",
		UsageText: "kokua-lint manifest > kokua.manifest.json",
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() > 0 {
				return usage("manifest takes no arguments")
			}
			if _, err := stdout.Write(lint.DefaultManifest().Source.Data); err != nil {
				return cli.StdoutFailed("kokua-lint", "the manifest", err)
			}
			return nil
		},
	}
}
