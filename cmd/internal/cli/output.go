package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/lint"
)

// Input is a file a command reads, with what it is to the command.
type Input struct {
	// What names the input in a message: "the config", "the manifest".
	What string
	// Path is the path given: "" is none, Stdin is standard input.
	Path string
}

// NotAnInput refuses an output that is one of the inputs: the same file,
// after symlinks are followed, by device and inode, however the two paths
// are spelled (a symlink, a hard link, "./" or "../"). An input read from
// standard input is compared with the file standard input is, when it is
// one (`kokua-lint --sarif-file config.toml - < config.toml`). flag names
// the output in the message ("-o", "--sarif-file"). An output that does
// not exist yet, or cannot be examined, is no input; writing it says what
// is wrong with it. The check runs before any input is read, so a command
// refused here has read and written nothing.
func NotAnInput(command, flag, output string, stdin io.Reader, inputs ...Input) error {
	if output == "" || output == Stdin {
		return nil
	}
	out, err := os.Stat(output)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		var info os.FileInfo
		switch in.Path {
		case "":
			continue
		case Stdin:
			f, ok := stdin.(interface{ Stat() (os.FileInfo, error) })
			if !ok {
				continue
			}
			info, err = f.Stat()
		default:
			info, err = os.Stat(in.Path)
		}
		if err == nil && os.SameFile(out, info) {
			path := in.Path
			if path == Stdin {
				path = "- (standard input)"
			}
			return Fail(ExitUsage, "%s: %s %s is %s (%s): writing it would replace an input; name another file", command, flag, output, in.What, path)
		}
	}
	return nil
}

// InPlaceFlag is --in-place: an output (or a config --fix or migrate
// --write replaces) that has other hard links is written in place,
// keeping them, where it is otherwise refused.
func InPlaceFlag() *urfave.BoolFlag {
	return &urfave.BoolFlag{Name: "in-place", Local: true, Usage: "write a file that has other hard links in place, keeping the links, instead of refusing it (a reader may see it half written)"}
}

// WritableOutput refuses, from its path alone and before anything is
// read or written, an output that exists and that the write would refuse
// once symlinks are followed (regular.CheckOutput): a directory, a device
// (-o /dev/null), a named pipe, a read-only file, and a file with other
// hard links unless inPlace. The commands replace only a regular file
// that may be written and has one name, and leave anything else as it
// is. That is a usage error (ExitUsage). An output that passes and still
// cannot be written (a read-only or missing folder, a full disk, a file
// swapped meanwhile) fails at the write, with WriteFailed. flag names the
// output in the message ("-o", "--sarif-file").
func WritableOutput(command, flag, output string, inPlace bool) error {
	if output == "" || output == Stdin {
		return nil
	}
	if err := regular.CheckOutput(output, regular.WriteOptions{InPlace: inPlace}); err != nil {
		return Fail(ExitUsage, "%s: %s: %v", command, flag, err)
	}
	return nil
}

// ReadTarget reads the config a command will replace (--fix, migrate
// --write) from the file its path was resolved to, refusing what
// lint.ReadFile refuses, with the same messages.
func ReadTarget(t *regular.Target, path string) (lint.Source, error) {
	data, err := t.Read(lint.MaxInputBytes)
	switch {
	case errors.Is(err, regular.ErrTooLarge):
		return lint.Source{}, engine.TooLarge(path, lint.MaxInputBytes)
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return lint.Source{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	return lint.Source{Name: path, Data: data}, nil
}

// WriteFailed ends a command whose output could not be written (standard
// output closed or on a full disk, a file that cannot be created or
// replaced) with ExitInternal and one line, "<command>: <err>": the
// command line was right, so it is never ExitUsage. err says what was
// being written, as compile.WriteFile's errors do ("cannot write FILE:
// ...").
func WriteFailed(command string, err error) error {
	return Fail(ExitInternal, "%s: %v", command, err)
}

// WriteOutput writes data to the output file path for command
// (regular.WriteFile: through a temporary file and a rename, the path
// resolved once, keeping mode, owner and group; a file with other hard
// links in place with inPlace), and ends the command as WriteFailed when
// that fails.
func WriteOutput(command, path string, data []byte, inPlace bool) error {
	err := regular.WriteFile(path, data, regular.WriteOptions{InPlace: inPlace})
	var we *regular.WriteError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &we) && we.Partial:
		return ReplaceFailed(command, path, err)
	}
	return WriteFailed(command, err)
}

// ReplaceFailed is WriteFailed for a file the command replaces, saying
// what became of it: not changed, or, when a write in place failed part
// way, perhaps half written.
func ReplaceFailed(command, path string, err error) error {
	var we *regular.WriteError
	if errors.As(err, &we) && we.Partial {
		return WriteFailed(command, fmt.Errorf("%w; %s may be half written", err, path))
	}
	return WriteFailed(command, fmt.Errorf("%w; %s was not changed", err, path))
}

// StdoutFailed is WriteFailed for standard output: what names what was
// being written ("the policy", "the report").
func StdoutFailed(command, what string, err error) error {
	return WriteFailed(command, fmt.Errorf("cannot write %s to standard output: %w", what, err))
}
