// Package command holds what the three commands share around urfave/cli:
// a usage error is one line on stderr with exit code 2, never the whole
// help on stdout, and the process exits with the code the action chose.
package command

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
)

// ExitUsage is the exit code of a usage error, the same in every command.
const ExitUsage = 2

// Run runs the app with the process's arguments and exits: with *code,
// which the app's actions set, or with ExitUsage when the command line
// could not be read.
func Run(app *cli.App, code *int) {
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return cli.Exit(app.Name+": "+err.Error()+" (see --help)", ExitUsage)
	}
	for _, c := range app.Commands {
		c.OnUsageError = app.OnUsageError
	}
	if err := app.Run(os.Args); err != nil {
		var ec cli.ExitCoder
		if errors.As(err, &ec) {
			fmt.Fprintln(os.Stderr, ec.Error())
			os.Exit(ec.ExitCode())
		}
		fmt.Fprintln(os.Stderr, app.Name+": "+err.Error())
		os.Exit(ExitUsage)
	}
	os.Exit(*code)
}
