package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/migrate"
)

// migrateCommand is kokua-lint migrate: a config from before the
// tool-access split, rewritten (docs/migrate.md).
func migrateCommand(stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "migrate",
		Usage:     "rewrite a config.toml from before the tool-access split, keeping every comment",
		UsageText: "kokua-lint migrate [--manifest FILE] [--diff] [--write] [--fix] CONFIG",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			&urfave.BoolFlag{Name: "diff", Local: true, Usage: "print a unified diff instead of the migrated config"},
			&urfave.BoolFlag{Name: "write", Local: true, Usage: "rewrite CONFIG in place (atomically), keeping the original as CONFIG.bak"},
			&urfave.BoolFlag{Name: "fix", Local: true, Usage: "also rewrite approval entries that gate nothing to their one possible meaning"},
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return usage("migrate: name exactly one config file (kokua-lint migrate config.toml)")
			}
			return migrateConfig(migrateOptions{config: c.Args().First(), manifest: cli.String(c, "manifest"),
				diff: c.Bool("diff"), write: c.Bool("write"), fix: c.Bool("fix")}, stdout, stderr)
		},
	}
}

// migrateOptions are kokua-lint migrate's flags and argument.
type migrateOptions struct {
	config, manifest string
	diff, write, fix bool
}

// migrateConfig migrates one config and prints it, its diff, or writes it;
// the rewrites and the places a person must decide go to stderr.
func migrateConfig(o migrateOptions, stdout, stderr io.Writer) error {
	m, err := cli.Manifest(o.manifest)
	if err != nil {
		return usage("%v", err)
	}
	target := o.config
	var mode fs.FileMode
	if o.write {
		if target, mode, err = regularFile(o.config); err != nil {
			return usage("migrate: %v", err)
		}
		if info, err := os.Lstat(target + ".bak"); err == nil && !info.Mode().IsRegular() {
			return usage("migrate: cannot keep the original as %s: it is there and is not a regular file; nothing was written", target+".bak")
		}
	}
	src, err := lint.ReadFile(o.config)
	if err != nil {
		return usage("%v", err)
	}
	if m.Embedded {
		say(stderr, "kokua-lint: no --manifest given: migrating against the embedded default Kokua install (%d toolsets)", len(m.Manifest.Toolsets))
	}
	res, err := migrate.Migrate(src, m, migrate.Options{Fix: o.fix})
	var unread *migrate.Unreadable
	switch {
	case errors.As(err, &unread):
		what := "not valid TOML"
		if unread.Limit {
			what = "beyond kokua-lint's limits"
		}
		say(stderr, "%s: error: %s, so nothing was migrated: %s", unread.Span, what, unread.Message)
		return cli.Code(cli.ExitFindings)
	case err != nil:
		return cli.Fail(cli.ExitFindings, "kokua-lint migrate: %v", err)
	}

	switch {
	case o.diff:
		// The diff's header names the file: escaped, as every path printed is.
		fmt.Fprint(stdout, migrate.Diff(diag.Printable(o.config), src.Data, res.Output))
	case !o.write:
		if _, err := stdout.Write(res.Output); err != nil {
			return usage("migrate: %v", err)
		}
	}
	for _, ch := range res.Changes {
		if ch.Line > 0 {
			say(stderr, "%s:%d: %s", o.config, ch.Line, ch.Message)
		} else {
			say(stderr, "%s: %s", o.config, ch.Message)
		}
	}
	where := "migrated " + o.config
	if o.write {
		where = o.config
	}
	for _, p := range res.Places {
		say(stderr, "%s:%d: needs a person: %s", where, p.Line, p.Message)
	}
	changed := string(res.Output) != string(src.Data)
	if o.write && changed {
		if err := backup(target+".bak", src.Data, mode); err != nil {
			return usage("migrate: %v; %s was not changed", err, o.config)
		}
		if err := compile.WriteFile(target, res.Output); err != nil {
			return usage("migrate: %v", err)
		}
		say(stderr, "kokua-lint migrate: wrote %s; the original is %s", target, target+".bak")
	}
	switch {
	case !changed && res.Clean():
		say(stderr, "kokua-lint migrate: %s needs no migration and lints with no error", o.config)
	case res.Clean():
		say(stderr, "kokua-lint migrate: %s; the result lints with no error", count(len(res.Changes), "rewrite"))
	default:
		say(stderr, "kokua-lint migrate: %s; %s a person, each marked %q in %s",
			count(len(res.Changes), "rewrite"), needs(len(res.Places)), migrate.Marker, where)
		return cli.Code(cli.ExitFindings)
	}
	return nil
}

// say writes one line of migrate's report on stderr. It names the config
// and quotes its keys, so the whole line goes through diag.Printable: a
// line feed or an escape sequence in a path cannot start a line of its own
// or reach the terminal.
func say(stderr io.Writer, format string, args ...any) {
	fmt.Fprintln(stderr, diag.Printable(fmt.Sprintf(format, args...)))
}

// count writes n things, in the plural unless n is 1.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// needs says how many places need a person.
func needs(n int) string {
	if n == 1 {
		return "1 place needs"
	}
	return fmt.Sprintf("%d places need", n)
}

// regularFile resolves the file --write may replace: the regular file
// path names, through any symlinks to it. Anything else is refused, so
// that the write never replaces a link, a device or a folder.
func regularFile(path string) (string, fs.FileMode, error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", 0, fmt.Errorf("cannot write %s: %w", path, unwrap(err))
	}
	info, err := os.Stat(target)
	if err != nil {
		return "", 0, fmt.Errorf("cannot write %s: %w", path, unwrap(err))
	}
	if !info.Mode().IsRegular() {
		return "", 0, fmt.Errorf("cannot write %s: --write replaces only a regular file, and this is not one", path)
	}
	return target, info.Mode().Perm(), nil
}

// backup writes the original beside the file, as NAME.bak, with the
// original's mode (a config may hold what only its owner should read). An
// earlier backup is replaced; anything at that name but a regular file is
// refused.
func backup(path string, data []byte, mode fs.FileMode) error {
	switch info, err := os.Lstat(path); {
	case os.IsNotExist(err):
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return fmt.Errorf("cannot write %s: %w", path, unwrap(err))
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("cannot write %s: %w", path, unwrap(err))
		}
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", path, unwrap(err))
	case !info.Mode().IsRegular():
		return fmt.Errorf("cannot write %s: it is there and is not a regular file", path)
	default:
		if err := os.Chmod(path, mode); err != nil {
			return fmt.Errorf("cannot write %s: %w", path, unwrap(err))
		}
	}
	return compile.WriteFile(path, data)
}

// unwrap drops the path an *os.PathError repeats.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
