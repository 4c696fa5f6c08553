package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/kokua-policy/kokua-policy/internal/regular"
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

// RegularOutput refuses, from its path alone and before anything is read
// or written, an output that exists and is not a regular file once
// symlinks are followed: a directory, a device (-o /dev/null), a named
// pipe. The commands write regular files only, and leave anything else as
// it is. That is a usage error (ExitUsage). An output that passes and
// still cannot be written (a read-only or missing folder, a full disk)
// fails at the write, with WriteFailed. flag names the output in the
// message ("-o", "--sarif-file").
func RegularOutput(command, flag, output string) error {
	if output == "" || output == Stdin {
		return nil
	}
	info, err := os.Stat(output)
	if err != nil {
		return nil
	}
	if err := regular.Check(info.Mode()); err != nil {
		return Fail(ExitUsage, "%s: %s: cannot write %s: %v, and it is left as it is", command, flag, output, err)
	}
	return nil
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

// StdoutFailed is WriteFailed for standard output: what names what was
// being written ("the policy", "the report").
func StdoutFailed(command, what string, err error) error {
	return WriteFailed(command, fmt.Errorf("cannot write %s to standard output: %w", what, err))
}
