package compile

import "github.com/kokua-policy/kokua-policy/internal/regular"

// WriteFile writes data to path the way kokua-compile -o does:
//
//   - through a temporary file in the target's folder and a rename, so
//     that a reader never sees half a policy and a failed write leaves
//     the old file as it was;
//   - through symlinks, resolved once: a link is followed to its target,
//     which is what gets replaced, and the link stays; if, just before
//     the rename, the target's name holds another file than the one
//     found (another device or inode, or a file where there was none),
//     nothing is written;
//   - only over a regular file or nothing: a directory, a device (such as
//     /dev/null), a named pipe or a socket is refused, and left alone;
//     so are a read-only file and a file with other hard links, which a
//     rename would leave holding the old contents;
//   - keeping the mode, owner and group of the file it replaces (a new
//     file gets 0644), or refusing when the owner and group cannot be
//     kept.
//
// Each error says "cannot write PATH: " and why.
func WriteFile(path string, data []byte) error {
	return regular.WriteFile(path, data, regular.WriteOptions{})
}
