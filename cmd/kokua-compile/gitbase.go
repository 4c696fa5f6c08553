package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/lint"
)

// errNotAtRev is gitFile's error for a path with no file at the revision.
var errNotAtRev = errors.New("no file at that revision")

// gitFile reads a file as it is at a git revision, the path relative to
// the current folder, the way Kokua would read it in a checkout of that
// revision: a symbolic link (mode 120000), in the path or at its end, is
// followed, relative to the link's own folder, within the repository (git
// cat-file --batch --follow-symlinks, which stops after 40 links, as
// Linux does). A link that leaves the repository, names no file or loops
// is an error: what it would read is not in the revision, and "the base
// has errors" must never stand for "the base could not be read". A path
// with no file at the revision is errNotAtRev.
func gitFile(ref, path string) ([]byte, error) {
	if strings.HasPrefix(ref, "-") {
		return nil, fmt.Errorf("--base %q is not a git revision", ref)
	}
	if strings.ContainsAny(ref+path, "\n\r\x00") {
		return nil, fmt.Errorf("cannot read %s at %s: a revision or path holding a line break or NUL", printable.String(path), printable.String(ref))
	}
	rel := path
	if !strings.HasPrefix(rel, "/") && !strings.HasPrefix(rel, "./") {
		rel = "./" + rel
	}
	var out, errs bytes.Buffer
	cmd := exec.Command("git", "cat-file", "--batch", "--follow-symlinks")
	cmd.Stdin = strings.NewReader(ref + ":" + rel + "\n")
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errs.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("cannot read %s at %s: git cat-file: %s", path, ref, msg)
	}
	data, err := batchAnswer(&out, ref+":"+rel)
	if errors.Is(err, errNotAtRev) && exec.Command("git", "cat-file", "-e", "--end-of-options", ref).Run() != nil {
		return nil, fmt.Errorf("cannot read %s at %s: %s is no revision of this repository", path, ref, ref)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s at %s: %w", path, ref, err)
	}
	return data, nil
}

// batchAnswer reads git cat-file --batch --follow-symlinks's answer for
// one name (git-cat-file(1)): "OID blob SIZE" and the content, or what
// stopped it.
func batchAnswer(out io.Reader, name string) ([]byte, error) {
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file gave no answer")
	}
	line = strings.TrimSuffix(line, "\n")
	if line == name+" missing" {
		return nil, errNotAtRev
	}
	fields := strings.Fields(line)
	if len(fields) == 2 {
		// "dangling", "loop", "notdir" or "symlink", the length of what
		// follows, then that: the name, or the link's target.
		n, err := strconv.Atoi(fields[1])
		if err != nil || n < 0 || n > 1<<16 {
			return nil, fmt.Errorf("git cat-file answered %q", printable.String(line))
		}
		what := make([]byte, n)
		if _, err := io.ReadFull(r, what); err != nil {
			return nil, fmt.Errorf("git cat-file answered %q", printable.String(line))
		}
		switch fields[0] {
		case "dangling":
			return nil, errors.New("a symbolic link on the way names no file")
		case "loop":
			return nil, errors.New("its symbolic links loop (or pass 40 links)")
		case "notdir":
			return nil, errors.New("a file on the way is used as a folder")
		case "symlink":
			return nil, fmt.Errorf("a symbolic link on the way leads outside the repository, to %s", printable.String(string(what)))
		}
		return nil, fmt.Errorf("git cat-file answered %q", printable.String(line))
	}
	if len(fields) != 3 {
		return nil, fmt.Errorf("git cat-file answered %q", printable.String(line))
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("git cat-file answered %q", printable.String(line))
	}
	if fields[1] != "blob" {
		return nil, fmt.Errorf("it is a %s, not a file", printable.String(fields[1]))
	}
	if size > lint.MaxInputBytes {
		return nil, fmt.Errorf("it is larger than %d MiB", lint.MaxInputBytes>>20)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("git cat-file ended early: %w", err)
	}
	return data, nil
}

// gitShow reads a config or manifest as it is at a git revision (gitFile).
// Its name in the report is REF:PATH.
func gitShow(ref, path string) (lint.Source, error) {
	data, err := gitFile(ref, path)
	if errors.Is(err, errNotAtRev) {
		return lint.Source{}, fmt.Errorf("no file %s at %s", path, ref)
	}
	if err != nil {
		return lint.Source{}, err
	}
	return lint.Source{Name: shortRev(ref) + ":" + path, Data: data}, nil
}

// gitTracked reports whether git has a file at a revision, through its
// links as gitFile follows them: a link that leads nowhere counts as
// tracked, so that reading it fails rather than the file passing for
// untracked.
func gitTracked(ref, path string) bool {
	_, err := gitFile(ref, path)
	return !errors.Is(err, errNotAtRev)
}
