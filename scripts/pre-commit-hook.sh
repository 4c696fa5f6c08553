#!/usr/bin/env bash
# The entry of the pre-commit hooks (.pre-commit-hooks.yaml): builds the one command a hook runs,
# kokua-lint or kokua-compile, from the clone pre-commit made of this repository, once per clone,
# then runs it with the hook's arguments. Building the whole module (`go install ./...`, what
# pre-commit's `language: golang` does) would compile the server, the LSP and the load client too.
# Needs Go on PATH; the module and build caches are Go's usual ones.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cmd="${1:-}"
case "$cmd" in
kokua-lint | kokua-compile) shift ;;
*)
    echo "pre-commit-hook.sh: want kokua-lint or kokua-compile, not '$cmd'" >&2
    exit 2
    ;;
esac
bin="$here/.pre-commit-bin/$cmd"
if [[ ! -x "$bin" ]]; then
    if ! command -v go >/dev/null; then
        echo "$cmd (pre-commit hook): Go is not on PATH; install Go 1.21 or later (https://go.dev/dl/), which fetches the toolchain go.mod asks for" >&2
        exit 2
    fi
    # Said on first use: a cold Go cache makes this build take minutes, and pre-commit shows a
    # hook's output only when it fails, so the line goes to the terminal when there is one, and
    # only there: pre-commit would print it a second time from stderr when the hook fails. With
    # no terminal (CI), it goes to stderr.
    msg="$cmd (pre-commit hook): building $cmd from the hook's clone, once for this rev; on a cold Go cache this takes a minute or more, and later runs start at once"
    { echo "$msg" >/dev/tty; } 2>/dev/null || echo "$msg" >&2
    mkdir -p "$here/.pre-commit-bin"
    # Built beside its final name and renamed, so that hooks run in parallel never see half a binary.
    tmp="$(mktemp "$bin.XXXXXX")"
    trap 'rm -f "$tmp"' EXIT
    # CGO_ENABLED=0: a static binary. The language server's JSON-RPC library links package net,
    # which with cgo makes the binary dynamically linked, and the loader then costs every run
    # several milliseconds (docs/benchmarks.md).
    CGO_ENABLED=0 go -C "$here" build -trimpath -o "$tmp" "./cmd/$cmd"
    mv -f "$tmp" "$bin"
    trap - EXIT
fi
exec "$bin" "$@"
