#!/usr/bin/env bash
# Tests docs/config.schema.json with Taplo's own command line, `taplo check` from npm's @taplo/cli
# at the version pinned below (installed with npm into a cache folder; node and npm come from
# apt-get when missing), the three ways docs/editor.md and the README wire it up:
#
#   - `taplo check --schema file://.../docs/config.schema.json config.toml`, the command of
#     docs/editor.md (the block marked `<!-- test: taplo-cli -->`), run as written;
#   - a `#:schema ./docs/config.schema.json` line at the top of config.toml (the README);
#   - the `.taplo.toml` rule of docs/editor.md (the block marked `<!-- test: taplo-rule -->`).
#
# Each must accept the config Kokua ships and refuse configs that break the schema: a misspelled
# "all", a key the tool-access split removed, and a value of the wrong type.
# Run from anywhere: bash scripts/test-taplo.sh. Nothing in this repository is changed.
set -euo pipefail

TAPLO_CLI_VERSION=0.7.0

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
step() { printf '==> %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

if ! command -v npm >/dev/null; then
    step "installing node and npm with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi
prefix="${XDG_CACHE_HOME:-$HOME/.cache}/kokua-policy/taplo-$TAPLO_CLI_VERSION"
taplo="$prefix/node_modules/.bin/taplo"
if [[ ! -x "$taplo" ]]; then
    step "installing @taplo/cli@$TAPLO_CLI_VERSION with npm into $prefix"
    npm install --no-audit --no-fund --loglevel=error --prefix "$prefix" "@taplo/cli@$TAPLO_CLI_VERSION" >/dev/null
fi
step "$("$taplo" --version) (@taplo/cli@$TAPLO_CLI_VERSION), node $(node --version)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/kokua-taplo.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# doc_block NAME: the fenced block after `<!-- test: NAME -->` in docs/editor.md.
doc_block() {
    python3 - "$repo_root/docs/editor.md" "$1" <<'EOF'
import sys
doc, name = sys.argv[1:]
lines = open(doc, encoding="utf-8").read().split("\n")
marker = "<!-- test: %s -->" % name
if lines.count(marker) != 1:
    sys.exit("docs/editor.md: want exactly one line %r" % marker)
i = lines.index(marker) + 1
while i < len(lines) and not lines[i].strip():
    i += 1
if i == len(lines) or not lines[i].startswith("```"):
    sys.exit("docs/editor.md: no fenced block after %r" % marker)
sys.stdout.write("\n".join(lines[i + 1:lines.index("```", i + 1)]) + "\n")
EOF
}

shipped="$(cat "$repo_root/examples/shipped.config.toml")"
# The configs: name, then the text. The shipped config is right; each other one breaks the schema.
declare -A configs=(
    [shipped]="$shipped"
    [all-spelling]="$(printf '%s\n' "$shipped" | sed 's/^available = \["web", "misc".*/available = "ALL"/')"
    [removed-key]="$(printf '%s\n\n[security.auto_approval]\ntools = ["fs_write"]\n' "$shipped")"
    [wrong-type]="$(printf '%s\n' "$shipped" | sed 's/^agent = "assistant"/agent = 7/')"
)
for name in all-spelling removed-key wrong-type; do
    [[ "${configs[$name]}" != "$shipped" ]] || fail "the $name config is the shipped one: its edit did not apply"
done

# expect WAY NAME WANT CMD...: run CMD in the workspace, which must exit WANT.
out="$tmp/out.txt"
expect() {
    local way="$1" name="$2" want="$3" status=0
    shift 3
    (cd "$ws" && "$@") >"$out" 2>&1 || status=$?
    if [[ "$status" != "$want" ]]; then
        sed 's/^/    | /' "$out"
        fail "$way, $name config: taplo exited $status, want $want"
    fi
    # A refusal must be the schema's, not a syntax error of the test's own making.
    if [[ "$want" == 1 && "$name" != shipped ]] && grep -q "syntax errors found" "$out"; then
        sed 's/^/    | /' "$out"
        fail "$way, $name config: refused as invalid TOML, not by the schema"
    fi
    printf '  - %s, %s config: exit %s\n' "$way" "$name" "$status"
}

cli="$(doc_block taplo-cli)"
[[ "$cli" == 'taplo check --schema "file://$PWD/docs/config.schema.json" config.toml' ]] ||
    fail "docs/editor.md's taplo-cli block changed; this script runs it as: $cli"
rule="$(doc_block taplo-rule)"
rule_path="$(printf '%s' "$rule" | sed -n 's/^include = \["\([^"]*\)"\]$/\1/p')"
[[ -n "$rule_path" ]] || fail "docs/editor.md's taplo-rule block has no include line"

for name in shipped all-spelling removed-key wrong-type; do
    want=1
    [[ "$name" == shipped ]] && want=0
    ws="$tmp/$name"
    mkdir -p "$ws/docs" "$ws/$(dirname "$rule_path")"
    cp "$repo_root/docs/config.schema.json" "$ws/docs/"
    printf '%s\n' "${configs[$name]}" >"$ws/config.toml"
    # 1. the command of docs/editor.md, through bash as a user types it
    expect "taplo check --schema file://..." "$name" "$want" bash -c "PATH=$(dirname "$taplo"):\$PATH; $cli"
    # 2. the #:schema line the README gives
    { printf '#:schema ./docs/config.schema.json\n'; printf '%s\n' "${configs[$name]}"; } >"$ws/directive.toml"
    expect "#:schema directive" "$name" "$want" "$taplo" check directive.toml
    # 3. the .taplo.toml rule of docs/editor.md
    printf '%s' "$rule" >"$ws/.taplo.toml"
    printf '%s\n' "${configs[$name]}" >"$ws/$rule_path"
    expect ".taplo.toml rule" "$name" "$want" "$taplo" check "$rule_path"
done
step "the bare path docs/editor.md warns about is refused, as it says"
ws="$tmp/shipped"
expect "taplo check --schema docs/config.schema.json" shipped 1 "$taplo" check --schema docs/config.schema.json config.toml
grep -q "relative URL without a base" "$out" || fail "taplo's message for a bare path changed: $(cat "$out")"
step "PASS: Taplo with docs/config.schema.json (${SECONDS}s)"
