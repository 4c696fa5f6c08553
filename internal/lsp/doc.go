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
// contract; the package's API is the linter's model and the protocol
// library's types, whose versions are pinned together here (below).
//
// # The protocol library
//
// The wire is go.lsp.dev/jsonrpc2 (requests, replies and notifications
// over any io.ReadWriteCloser) and the message types are
// go.lsp.dev/protocol. The Content-Length framing is the package's own
// jsonrpc2.Stream (frames.go): jsonrpc2's ends the session at the first
// frame it cannot read, and allocates whatever Content-Length it is sent;
// this one answers or drops a malformed frame and reads on, and refuses a
// Content-Length larger than any message about a document the server
// lints. The other kept Go library,
// github.com/tliron/glsp, was not chosen: it serves only the process's
// own stdin and stdout, a TCP port or a WebSocket (its stream server is
// unexported), which rules out the in-process tests over a pipe and a
// Main that writes to the streams it is given; it logs through a global
// logger of its own; and it pulls in a WebSocket stack and a terminal
// library. go.lsp.dev/protocol v0.12.0 is built against jsonrpc2 v0.10.0,
// whose API jsonrpc2 v1 replaced: the two are kept at those versions
// together. Both predate LSP 3.17, so the two 3.17 fields the server uses,
// the client's general.positionEncodings and the server's
// positionEncoding, are read and written by small types of this package
// around the library's.
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
