package cli

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/internal/rules"
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
		return lint.Source{}, engine.TooLarge("standard input", lint.MaxInputBytes)
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
//
// A policy test file is named as one: it is Kokua's, but not a config.
func SkipNote(stderr io.Writer, command string, src lint.Source) {
	if rules.IsPolicyTestFile(src.Data) {
		fmt.Fprintf(stderr, "%s: skipping %s: a policy test file ([[expect]] claims, which kokua-compile test checks), not a config\n", command, printable.String(src.Name))
		return
	}
	fmt.Fprintf(stderr, "%s: skipping %s: not a Kokua config (it has no [assistant], [agents], [reviewers], [mcp] or [tools] table, and none of Kokua's keys in [security])\n", command, printable.String(src.Name))
}

// Folders replaces each argument that is a folder with the Kokua configs
// below it, as `ruff check DIR` and `golangci-lint run DIR/...` take a
// folder: the files named *.toml in it and in its subfolders, but hidden
// ones (.git, .venv), in lexical order, that hold one of Kokua's tables
// (lint.IsKokuaConfig, the test --only-kokua makes), so that another
// program's TOML (Cargo.toml, pyproject.toml, a policy test file) is
// skipped without a word. A file that cannot be read is kept, for the
// command to report. Other arguments are kept as they are. A folder with
// no Kokua config below it, or one that cannot be walked, gives an error
// in problems and nothing in paths, so that a command that takes several
// inputs reports it and goes on with the others.
func Folders(args []string) (paths []string, problems []error) {
	for _, arg := range args {
		if !IsFolder(arg) {
			paths = append(paths, arg)
			continue
		}
		var found []string
		looked := 0
		err := filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && path != arg && strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir
			case d.IsDir() || !strings.HasSuffix(d.Name(), ".toml"):
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
					return nil
				}
			} else if !d.Type().IsRegular() {
				return nil
			}
			looked++
			if src, err := lint.ReadFile(path); err != nil || lint.IsKokuaConfig(src) {
				found = append(found, path)
			}
			return nil
		})
		switch {
		case err != nil:
			problems = append(problems, fmt.Errorf("cannot read the folder %s: %w", arg, unwrap(err)))
		case len(found) == 0:
			problems = append(problems, fmt.Errorf("%s is a folder with no Kokua config below it: %d .toml file(s), none with Kokua's tables", arg, looked))
		}
		paths = append(paths, found...)
	}
	return paths, problems
}

// unwrap drops the path an *fs.PathError repeats, keeping its cause.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// IsFolder reports whether the argument names a folder.
func IsFolder(arg string) bool {
	info, err := os.Stat(arg)
	return arg != Stdin && err == nil && info.IsDir()
}

// Each runs one command on every item, as for the configs a folder
// stands for: a failure's message goes to stderr as cli.Run would print
// it, the next item still runs, and the error returned carries the worst
// exit code (ExitUsage outranks ExitFindings, ExitInternal both).
func Each[T any](stderr io.Writer, items []T, run func(T) error) error {
	worst := ExitOK
	for _, item := range items {
		err := run(item)
		if err == nil {
			continue
		}
		code := ExitUsage
		var ec urfave.ExitCoder
		if errors.As(err, &ec) {
			code = ec.ExitCode()
		}
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, printable.String(msg))
		}
		worst = max(worst, code)
	}
	return Code(worst)
}
