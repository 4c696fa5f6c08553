package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/migrate"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/lint"
)

// migrateCommand is kokua-lint migrate: a config from before the
// tool-access split, rewritten (docs/migrate.md).
func migrateCommand(stdin io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "migrate",
		Usage:     "rewrite a config.toml from before the tool-access split, keeping every comment",
		UsageText: "kokua-lint migrate [--manifest FILE] [--diff] [--write] [--fix] CONFIG|-",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			&urfave.BoolFlag{Name: "diff", Local: true, Usage: "print a unified diff instead of the migrated config"},
			&urfave.BoolFlag{Name: "write", Local: true, Usage: "rewrite CONFIG in place (atomically), keeping the original as CONFIG.bak"},
			&urfave.BoolFlag{Name: "fix", Local: true, Usage: "also rewrite approval entries that gate nothing to their one possible meaning"},
			cli.InPlaceFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return usage("migrate: name exactly one config file (kokua-lint migrate config.toml)")
			}
			return migrateConfig(migrateOptions{config: c.Args().First(), manifest: cli.String(c, "manifest"),
				diff: c.Bool("diff"), write: c.Bool("write"), fix: c.Bool("fix"), inPlace: c.Bool("in-place")}, stdin, stdout, stderr)
		},
	}
}

// migrateFile is migrate.Migrate; a test replaces it to stand for a
// migration that fails in itself.
var migrateFile = migrate.Migrate

// migrateOptions are kokua-lint migrate's flags and argument.
type migrateOptions struct {
	config, manifest string
	diff, write, fix bool
	// inPlace writes a config with other hard links in place.
	inPlace bool
}

// migrateConfig migrates one config and prints it, its diff, or writes it;
// the rewrites and the places a person must decide go to stderr.
func migrateConfig(o migrateOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	if o.write && o.config == cli.Stdin {
		return usage("migrate: --write rewrites a file, and - is standard input: migrate it without --write, or name the file")
	}
	if o.write {
		// --write replaces the config; the manifest is the other input.
		if err := cli.NotAnInput("kokua-lint migrate", "--write", o.config, nil, cli.Input{What: "the manifest", Path: o.manifest}); err != nil {
			return err
		}
	}
	m, err := cli.Manifest(o.manifest)
	if err != nil {
		return usage("%v", err)
	}
	// --write resolves the config once, through its symlinks, reads it
	// from there, and replaces it only while its name still holds the
	// file read (regular.Target).
	var src lint.Source
	var target *regular.Target
	if o.write {
		if err := cli.WritableOutput("kokua-lint", "migrate --write", o.config, o.inPlace); err != nil {
			return err
		}
		if target, err = regular.Resolve(o.config); err != nil {
			return usage("migrate: %v", err)
		}
		defer func() { _ = target.Close() }()
		if !target.Exists() {
			return usage("cannot read %s: no such file or directory", o.config)
		}
		src, err = cli.ReadTarget(target, o.config)
	} else {
		src, err = cli.ReadInput(o.config, stdin, "")
	}
	if err != nil {
		return usage("%v", err)
	}
	// A file that holds none of Kokua's tables has nothing to migrate:
	// migrating it would mark it as a config and, with --write, replace
	// another program's file (issue 38).
	if !lint.IsKokuaConfig(src) {
		if what := rules.NotAConfig(src.Data); what != "" {
			return usage("migrate: %s is not a Kokua config, so there is nothing to migrate: it is %s; nothing was written. migrate rewrites Kokua's config.toml from before the tool-access split", src.Name, what)
		}
	}
	// Every line names the input as read: standard input is <stdin>.
	name := src.Name
	res, err := migrateFile(src, m, migrate.Options{Fix: o.fix})
	// A write that cannot be made is refused before anything is said,
	// which would otherwise speak of changes that were not made.
	changed := err == nil && !bytes.Equal(res.Output, src.Data)
	var kept string
	if o.write && changed {
		beforeReplace(o.config)
		if kept, err = keepOriginal(target.Name(), src.Data, target.Mode()); err != nil {
			return cli.WriteFailed("kokua-lint: migrate", fmt.Errorf("%w; %s was not changed", err, name))
		}
		if err := target.Replace(res.Output, regular.WriteOptions{InPlace: o.inPlace}); err != nil {
			return cli.WriteFailed("kokua-lint: migrate", fmt.Errorf("%w; the original is %s", err, kept))
		}
	}
	if m.Embedded {
		say(stderr, "kokua-lint: no --manifest given: migrating against the embedded default Kokua install (%d toolsets)", len(m.Toolsets()))
	}
	var unread *migrate.Unreadable
	switch {
	case errors.As(err, &unread):
		what := "not valid TOML"
		if unread.Limit {
			what = "beyond kokua-lint's limits"
		}
		say(stderr, "%s: error: %s, so nothing was migrated: %s", unread.Span, what, unread.Message)
		return cli.Code(cli.ExitFindings)
	case errors.Is(err, migrate.ErrInternal):
		return cli.Fail(cli.ExitInternal, "kokua-lint migrate: %v", err)
	case err != nil:
		return cli.Fail(cli.ExitFindings, "kokua-lint migrate: %v", err)
	}

	switch {
	case o.diff:
		// The diff's header names the file: escaped, as every path printed is.
		if _, err := io.WriteString(stdout, migrate.Diff(printable.String(name), src.Data, res.Output)); err != nil {
			return cli.StdoutFailed("kokua-lint: migrate", "the diff", err)
		}
	case !o.write:
		if _, err := stdout.Write(res.Output); err != nil {
			return cli.StdoutFailed("kokua-lint: migrate", "the migrated config", err)
		}
	}
	for _, ch := range res.Changes {
		if ch.Line > 0 {
			say(stderr, "%s:%d: %s", name, ch.Line, ch.Message)
		} else {
			say(stderr, "%s: %s", name, ch.Message)
		}
	}
	where := "migrated " + name
	if o.write {
		where = name
	}
	for _, p := range res.Places {
		say(stderr, "%s:%d: needs a person: %s", where, p.Line, p.Message)
	}
	// What the team loses against today's default, said before "lints
	// with no error" can be read as "nothing changed".
	lost := 0
	for _, l := range res.Losses {
		say(stderr, "%s: note: %s", where, l.Message())
		lost += len(l.Tools)
	}
	losing := ""
	if lost > 0 {
		losing = fmt.Sprintf(", but %d tools lose the gate Kokua's built-in pair gives them (the notes above)", lost)
		if lost == 1 {
			losing = ", but 1 tool loses the gate Kokua's built-in pair gives it (the note above)"
		}
	}
	if o.write && changed {
		say(stderr, "kokua-lint migrate: wrote %s; the original is %s", target.Name(), kept)
	}
	switch {
	case !changed && res.Clean():
		say(stderr, "kokua-lint migrate: %s needs no migration and lints with no error", name)
	case res.Clean():
		say(stderr, "kokua-lint migrate: %s; the result lints with no error%s", count(len(res.Changes), "rewrite"), losing)
	default:
		say(stderr, "kokua-lint migrate: %s; %s a person, each marked %q in %s",
			count(len(res.Changes), "rewrite"), needs(len(res.Places)), migrate.Marker, where)
		return cli.Code(cli.ExitFindings)
	}
	return nil
}

// say writes one line of migrate's report on stderr. It names the config
// and quotes its keys, so the whole line goes through printable.String: a
// line feed or an escape sequence in a path cannot start a line of its own
// or reach the terminal.
func say(stderr io.Writer, format string, args ...any) {
	fmt.Fprintln(stderr, printable.String(fmt.Sprintf(format, args...)))
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

// maxBackups bounds the numbered backups looked through: CONFIG.bak,
// then CONFIG.bak.1 to CONFIG.bak.999.
const maxBackups = 1000

// keepOriginal keeps the original beside the config and returns the name
// it is kept as: CONFIG.bak, or CONFIG.bak.1, CONFIG.bak.2, ..., the first
// of them that is not there or already holds exactly data (then nothing
// is written). An earlier backup is never replaced, and a name held by
// anything but a regular file is refused, so nothing is written through a
// link or onto a device. The backup gets the config's mode (a config may
// hold what only its owner should read).
func keepOriginal(target string, data []byte, mode fs.FileMode) (string, error) {
	looked := false // this name was found free, then taken: look once more
	for n := 0; n < maxBackups; {
		path := target + ".bak"
		if n > 0 {
			path += "." + strconv.Itoa(n)
		}
		info, err := os.Lstat(path)
		switch {
		case os.IsNotExist(err):
			switch err := writeNew(path, data, mode); {
			case err == nil:
				return path, nil
			case errors.Is(err, fs.ErrExist) && !looked:
				looked = true
				continue // made meanwhile: it may hold data already
			default:
				return "", fmt.Errorf("cannot keep the original as %s: %w", path, unwrap(err))
			}
		case err != nil:
			return "", fmt.Errorf("cannot keep the original as %s: %w", path, unwrap(err))
		case !info.Mode().IsRegular():
			return "", fmt.Errorf("cannot keep the original as %s: it is %s, not a regular file, and is left as it is", path, regular.Kind(info.Mode()))
		case info.Size() == int64(len(data)):
			if same, err := holds(path, data); err != nil {
				return "", fmt.Errorf("cannot keep the original as %s: %w", path, unwrap(err))
			} else if same {
				return path, nil
			}
		}
		n, looked = n+1, false
	}
	return "", fmt.Errorf("cannot keep the original: %s.bak and the %d numbered backups after it are all taken", target, maxBackups-1)
}

// holds reports whether the file at path holds exactly data.
func holds(path string, data []byte) (bool, error) {
	have, err := os.ReadFile(path)
	return err == nil && bytes.Equal(have, data), err
}

// linkFile is os.Link; a test replaces it to stand for a file system
// without hard links.
var linkFile = os.Link

// writeNew writes a file that must not exist yet, whole or not at all: a
// temporary file in the same folder, synced, then hard-linked to its name,
// which fails with fs.ErrExist rather than replace a file made meanwhile.
// Where the file system has no hard links, the file is created exclusively
// (O_EXCL) and written in place, and removed again if that fails.
func writeNew(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if err := fill(tmp, data, mode); err != nil {
		return err
	}
	err = linkFile(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if err := fill(f, data, mode); err != nil {
		_ = os.Remove(path)
		return err
	}
	return nil
}

// fill writes data to a new file, gives it mode, syncs and closes it.
func fill(f *os.File, data []byte, mode fs.FileMode) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// unwrap drops the path an *os.PathError repeats.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
