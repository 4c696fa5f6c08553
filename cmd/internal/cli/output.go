package cli

import (
	"io"
	"os"
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
