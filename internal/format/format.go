// Package format holds the output formats of each kind of output as
// values: a format is a name, a few words that say what it is, and the
// function that writes it. Each kind of output (kokua-lint's findings,
// kokua-compile diff's report, risks, test, graph, agents) declares one
// Set, the default first, and everything else derives from it: the
// --format flag's default, its usage text and its check, the
// "unknown format" error of the writer, the synopsis the docs show and
// the format tests' loops. A new format is one entry in its Set, its
// writer and its docs.
package format

import (
	"fmt"
	"io"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/english"
)

// Info is what the command line and the docs say of a format: its name,
// and a few words on what it is ("SARIF 2.1.0"), or none when the name
// says it.
type Info struct {
	Name    string
	Summary string
}

// List is the formats of one kind of output, the default first.
type List []Info

// Names are the formats' names, the default first.
func (l List) Names() []string {
	out := make([]string, len(l))
	for i, f := range l {
		out[i] = f.Name
	}
	return out
}

// Default is the format used when none is asked for: the first.
func (l List) Default() string { return l[0].Name }

// Has reports whether name is one of the formats.
func (l List) Has(name string) bool {
	for _, f := range l {
		if f.Name == name {
			return true
		}
	}
	return false
}

// Synopsis is the formats as a synopsis line writes them: human|json.
func (l List) Synopsis() string { return strings.Join(l.Names(), "|") }

// Usage is the formats as a flag's usage text says them, each with its
// summary: "human, json, sarif (SARIF 2.1.0) or github".
func (l List) Usage() string {
	return english.Words(l.Names(), "or", func(name string) string {
		for _, f := range l {
			if f.Name == name && f.Summary != "" {
				return name + " (" + f.Summary + ")"
			}
		}
		return name
	})
}

// Check is nil for one of the formats, and otherwise the error a
// --format flag gives: --format takes human or json, not "xml".
func (l List) Check(name string) error {
	if l.Has(name) {
		return nil
	}
	return fmt.Errorf("--format takes %s, not %q", english.Words(l.Names(), "or", nil), name)
}

// Format is one format of a kind of output whose writer takes a T.
type Format[T any] struct {
	Info
	Write func(w io.Writer, v T) error
}

// Set is the formats of one kind of output with their writers.
type Set[T any] struct {
	// List is the formats' names and summaries, the default first.
	List
	// kind names the output in the writer's error: "diff".
	kind  string
	write map[string]func(io.Writer, T) error
}

// New is the Set of formats fs of the output kind names, the default
// first. A Set is declared once, by the package that writes the output;
// New panics on a Set with no format, a format with no name or no
// writer, or a name given twice, which are mistakes in that declaration.
func New[T any](kind string, fs ...Format[T]) *Set[T] {
	if len(fs) == 0 {
		panic("format: the " + kind + " output has no format")
	}
	s := &Set[T]{kind: kind, write: make(map[string]func(io.Writer, T) error, len(fs))}
	for _, f := range fs {
		switch {
		case f.Name == "" || f.Write == nil:
			panic(fmt.Sprintf("format: a %s format without a name or a writer: %q", kind, f.Name))
		case s.write[f.Name] != nil:
			panic(fmt.Sprintf("format: the %s format %q is given twice", kind, f.Name))
		}
		s.List = append(s.List, f.Info)
		s.write[f.Name] = f.Write
	}
	return s
}

// Write writes v in the format name, or returns an error that names the
// formats there are when it is none of them.
func (s *Set[T]) Write(w io.Writer, name string, v T) error {
	write := s.write[name]
	if write == nil {
		return fmt.Errorf("unknown %s format %q (want %s)", s.kind, name, english.Words(s.Names(), "or", nil))
	}
	return write(w, v)
}
