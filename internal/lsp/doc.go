// Package lsp is the language server behind `kokua-lint lsp`: the checks
// of kokua-lint where config.toml is written. It lints each open config
// with the same engine as the command (internal/engine's Run, which
// lint.Lint wraps: every rule, the same messages, severities, ranges and
// rule IDs, suppressions honoured) as the user types, and answers hover,
// completion, quick fixes and go to definition from the same model. A
// TOML file with no Kokua table gets nothing. Serve takes any stream, so
// that the command and the tests drive it alike.
//
// No host imports this package; it lives under internal/. An editor runs
// the server as a process (kokua-lint lsp, docs/editor.md), which is the
// contract; the package's API is the linter's model and the protocol's
// messages (protocol.go).
//
// # The protocol's plumbing
//
// The JSON-RPC layer (rpc.go), the Content-Length framing (frames.go)
// and the message types (protocol.go) are the package's own, and link
// nothing but the standard library's encoding/json and net/url: no
// network stack, which kokua-lint, a command that starts once per file
// linted, would pay for at every start (issue 24). The libraries were
// weighed. go.lsp.dev/jsonrpc2 and go.lsp.dev/protocol, which the server
// was first built on, pull in net, zap, and through zap net/http and
// crypto/tls; their stream also ended the session at the first frame it
// could not read. github.com/sourcegraph/jsonrpc2 links no network, but
// would be bypassed at both ends: it reads a request through a map and
// writes its params back out (twice the work on a 16 MiB document), takes
// an id as an unsigned integer (an id of -1 comes back as 2^64-1), writes
// a response's members in another order, and logs to the process's
// stderr. github.com/sourcegraph/go-lsp predates LSP 3.16: no
// codeDescription, isPreferred, markup in hover and completion, nor a
// publishDiagnostics version. github.com/tliron/glsp serves only the
// process's own stdin and stdout, a TCP port or a WebSocket, which rules
// out the in-process tests over a pipe and a Main that writes to the
// streams it is given, and pulls in a WebSocket stack. What the server
// writes is byte for byte what it wrote on go.lsp.dev, but for the id
// of a request whose id is "": it is answered with "", not 0
// (TestTranscript).
//
// # Positions
//
// A diagnostic's position is a byte offset of the file (its line and
// column, counted from 1 in Unicode characters, are made from it); the
// protocol counts lines from 0 and columns in UTF-16 code units unless the
// client offers UTF-8 or UTF-32 (positionEncodings), which the server
// then prefers. Each version of a document keeps its internal/lineindex
// index, the project's one converter between byte offsets and lines and
// columns, characters outside the Basic Multilingual Plane included;
// text.go only counts from 0 instead of 1.
//
// # The manifest
//
// The registry manifest comes from Options (the command's --manifest),
// else from initializationOptions.manifest (a path, from the workspace
// root when relative), else the embedded default install. A manifest file
// is watched (fsnotify, on its folder, so that a rename over it is seen)
// and every open config is linted again when it changes.
package lsp
