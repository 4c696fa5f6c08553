package main

import (
	"context"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/lsp"
)

// lspCommand is kokua-lint lsp: the language server, over stdin and
// stdout, for editors (docs/editor.md).
func lspCommand(stdin io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "lsp",
		Usage:     "serve the Language Server Protocol on stdin and stdout: the checks, hover, completion and quick fixes in the editor",
		UsageText: "kokua-lint lsp [--manifest FILE]",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			// Editors' client libraries (vscode-languageclient) name the
			// transport on the command line; stdio is the only one.
			&urfave.BoolFlag{Name: "stdio", Local: true, Usage: "talk over stdin and stdout (the default and only transport)"},
		},
		Action: func(ctx context.Context, c *urfave.Command) error {
			if c.NArg() > 0 {
				return usage("lsp takes no arguments: the editor sends the configs")
			}
			opts := lsp.Options{Debounce: lsp.DefaultDebounce, Log: stderr}
			if path := cli.String(c, "manifest"); path != "" {
				m, err := cli.Manifest(path)
				if err != nil {
					return usage("%v", err)
				}
				opts.Manifest, opts.ManifestPath = m, path
			}
			if err := lsp.Serve(ctx, stdio{stdin, stdout}, opts); err != nil {
				return cli.Fail(cli.ExitFindings, "kokua-lint lsp: %v", err)
			}
			return nil
		},
	}
}

// stdio joins the command's stdin and stdout into the one stream the
// server talks over. Closing it closes neither: they are the caller's.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
