#!/usr/bin/env bash
# Measures kokua-run serve's decide endpoints against the floor of
# tools/loadclient: a bare net/http handler answering the same JSON from a
# Go map of precomputed answers. The target (docs/benchmarks.md): the
# server answers at least 90% of the floor's decisions per second at
# concurrency 32, by the median of interleaved rounds, and the batch
# endpoint well above the floor.
#
# With LOG=1 it measures the decision log instead: the server with
# --decision-log's log on (a file in the temporary folder) against the
# same server without it, in the same interleaved rounds; the target is
# 0.85 of the server's own decisions per second (docs/benchmarks.md).
#
# Usage: scripts/loadtest.sh [loadclient flags]
#        scripts/loadtest.sh -duration 10s -concurrency 64 -batch 1000
#        CONFIG=path/to/config.toml scripts/loadtest.sh
#        LOG=1 scripts/loadtest.sh -batch 0
#
# Compiles a policy from examples/shipped.config.toml (or $CONFIG), builds
# the load client, and runs it; the server and the floor run inside the
# client, on loopback. Builds into a temporary directory that is removed
# on exit; changes nothing in the repository. The numbers depend on what
# else the machine is doing: the client interleaves the two targets in
# rounds so that outside load falls on both alike.
set -euo pipefail

cd "$(dirname "$0")/.."
config=${CONFIG:-examples/shipped.config.toml}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=scripts/lib.sh
source scripts/lib.sh
print_machine

go build -o "$tmp/kokua-compile" ./cmd/kokua-compile
go build -o "$tmp/loadclient" ./tools/loadclient
"$tmp/kokua-compile" -o "$tmp/policy.json" "$config"

args=("$@")
if [[ "${LOG:-}" == 1 ]]; then
    args=(-decision-log "$tmp/decisions.log" "${args[@]}")
fi
echo "== loadclient ${args[*]}"
"$tmp/loadclient" -policy "$tmp/policy.json" "${args[@]}"
