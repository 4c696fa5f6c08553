package cli

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Stdin is the argument that stands for standard input.
const Stdin = "-"

// StdinName is the file name given to standard input when
// --stdin-filename does not name it.
const StdinName = "<stdin>"

// StdinFilenameFlag is --stdin-filename NAME: the name under which a
// config read from standard input is reported, as eslint's flag of that
// name does, so that positions point at the file an editor or a hook
// piped in.
func StdinFilenameFlag() *urfave.StringFlag {
	return &urfave.StringFlag{Name: "stdin-filename", Local: true, Usage: "the file `NAME` to report a config read from - (standard input) under"}
}

// ReadInput reads the input a command line names: the file at path, or
// standard input when path is "-", named name (StdinName when name is
// empty). It refuses what lint.ReadFile refuses, standard input over
// lint.MaxInputBytes included, with an error that names the input.
func ReadInput(path string, stdin io.Reader, name string) (lint.Source, error) {
	if path != Stdin {
		return lint.ReadFile(path)
	}
	if name == "" {
		name = StdinName
	}
	if stdin == nil {
		return lint.Source{Name: name, Data: []byte{}}, nil
	}
	data, err := io.ReadAll(io.LimitReader(stdin, lint.MaxInputBytes+1))
	if err != nil {
		return lint.Source{}, fmt.Errorf("cannot read standard input: %w", err)
	}
	if len(data) > lint.MaxInputBytes {
		return lint.Source{}, lint.TooLarge("standard input")
	}
	return lint.Source{Name: name, Data: data}, nil
}

// VerifyKeyFlag is --verify-key FILE, the public key a compiled policy
// must be signed with: kokua-run's decide, session and serve take it, and
// every kokua-compile subcommand that reads a compiled policy.
func VerifyKeyFlag() *urfave.StringFlag {
	return &urfave.StringFlag{Name: "verify-key", Local: true, Usage: "accept only a policy signed with the Ed25519 key whose public key (PEM, from kokua-compile keygen) is in `FILE`"}
}

// ReadVerifyKey reads the public key file of --verify-key for command, the
// name its messages start with. A file that cannot be read or holds no
// Ed25519 public key is a usage error, and a named pipe, a device or a
// folder is refused without being opened (opening a pipe would wait for a
// writer).
func ReadVerifyKey(command, path string) (ed25519.PublicKey, error) {
	if err := regular.Stat(path); errors.Is(err, regular.ErrNotRegular) {
		return nil, Fail(ExitUsage, "%s: cannot read %s: %v", command, path, err)
	}
	key, err := policy.ReadPublicKey(path)
	if err != nil {
		return nil, Fail(ExitUsage, "%s: --verify-key: %v", command, err)
	}
	return key, nil
}

// CheckStdin refuses a command line that reads standard input twice, or
// names --stdin-filename without reading it.
func CheckStdin(args []string, stdinName string) error {
	n := 0
	for _, a := range args {
		if a == Stdin {
			n++
		}
	}
	switch {
	case n > 1:
		return fmt.Errorf("- (standard input) is named %d times; it can be read once", n)
	case n == 0 && stdinName != "":
		return fmt.Errorf("--stdin-filename names standard input, but no argument is - (standard input)")
	}
	return nil
}

// OnlyKokuaFlag is --only-kokua, which the pre-commit hooks pass: a file
// is checked only when it is Kokua's config (lint.IsKokuaConfig), and
// another program's config.toml (Cargo's, Hugo's) is skipped with one
// line on stderr.
func OnlyKokuaFlag() *urfave.BoolFlag {
	return &urfave.BoolFlag{Name: "only-kokua", Local: true, Usage: "skip, with a note on stderr, a file that holds none of Kokua's tables (for hooks that match every config.toml)"}
}

// SkipNote is the one line on stderr for a file --only-kokua skips. A
// file with a [security] table of its own (Hugo's) is skipped too, so the
// line says which keys of [security] would have made it Kokua's, not that
// it has no [security] table.
func SkipNote(stderr io.Writer, command, name string) {
	fmt.Fprintf(stderr, "%s: skipping %s: not a Kokua config (it has no [assistant], [agents], [reviewers], [mcp] or [tools] table, and none of Kokua's keys in [security])\n", command, diag.Printable(name))
}
