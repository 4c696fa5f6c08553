#!/usr/bin/env bash
# Mutation testing of the files that decide security outcomes, with gremlins (pinned below).
#
#   bash scripts/mutation.sh                      # the default targets (see TARGETS)
#   bash scripts/mutation.sh policy/decide.go     # some of them, or any other Go file
#
# For each target file it finds the packages whose tests cover it: one run of every package's tests
# with -coverpkg set to the file's package, keeping the packages whose profile counts a statement of
# the file (cmd/kokua-run's corpus test covers policy/decide.go, for one). gremlins then mutates the
# file alone and runs those packages' tests against every covered mutant: a `go` shim first on PATH
# swaps the package gremlins would test (the file's own) for that list, for the coverage gathering
# and for every mutant. It prints, per file, the mutants killed, lived, timed out and not covered,
# and the share killed of those that compiled and were covered (gremlins' "efficacy"); the survivors
# are listed, one per line, for docs/testing.md. Slow (minutes per file): not part of .ci/run.
# docs/testing.md has the command, the figures and the survivors.
#
# On a machine shared with other work, two settings from the environment:
#   WORKERS=1              mutants tested at once (default: the CPU count)
#   TIMEOUT_COEFFICIENT=10 a mutant's test run times out after this many times the coverage run's
#                          time (default 3); raise it when the machine is busy
set -euo pipefail

WORKERS="${WORKERS:-$(nproc)}"
TIMEOUT_COEFFICIENT="${TIMEOUT_COEFFICIENT:-3}"
for v in "$WORKERS" "$TIMEOUT_COEFFICIENT"; do
    if [[ ! "$v" =~ ^[1-9][0-9]*$ ]]; then
        echo "mutation.sh: WORKERS and TIMEOUT_COEFFICIENT must be positive whole numbers, got '$v'" >&2
        exit 2
    fi
done

GREMLINS_VERSION=v0.6.0
TARGETS=(policy/decide.go policy/validate.go policy/sign.go
    internal/rules/approval.go internal/rules/entry_scope.go internal/rules/shadowed_tool.go internal/rules/suppress.go)

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
BIN_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/kokua-policy/bin"
GREMLINS="$BIN_DIR/gremlins"
if [[ ! -x "$GREMLINS" ]] || [[ "$(cat "$BIN_DIR/gremlins.version" 2>/dev/null)" != "$GREMLINS_VERSION $(go env GOVERSION)" ]]; then
    echo "installing gremlins $GREMLINS_VERSION into $BIN_DIR"
    GOBIN="$BIN_DIR" go install "github.com/go-gremlins/gremlins/cmd/gremlins@$GREMLINS_VERSION"
    echo "$GREMLINS_VERSION $(go env GOVERSION)" >"$BIN_DIR/gremlins.version"
fi

if [[ $# -gt 0 ]]; then
    TARGETS=("$@")
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
module="$(go list -m)"

# The shim: `go test ... PKG` runs the tests of $MUTATION_TEST_PKGS instead of PKG.
mkdir -p "$work/bin"
real_go="$(command -v go)"
cat >"$work/bin/go" <<EOF
#!/usr/bin/env bash
if [[ "\$1" == test && -n "\${MUTATION_TEST_PKGS:-}" ]]; then
    # -count=1: a cached coverage run would make gremlins' per-mutant timeout, which it takes
    # from the coverage run's time, too short, and every mutant would time out.
    exec "$real_go" test -count=1 "\${@:2:\$#-2}" \$MUTATION_TEST_PKGS
fi
exec "$real_go" "\$@"
EOF
chmod +x "$work/bin/go"

# testers FILE: the packages whose tests run a statement of FILE. Every package's tests run once
# per folder of targets, with coverage of that folder's package.
cover() {
    local dir="$1" n=0
    [[ -d "$work/cov/$dir" ]] && return
    mkdir -p "$work/cov/$dir"
    echo "== finding the packages whose tests cover $dir"
    for p in $(go list ./...); do
        n=$((n + 1))
        echo "$p" >"$work/cov/$dir/$n.pkg"
        go test -count=1 -coverpkg "$module/$dir" -coverprofile "$work/cov/$dir/$n.out" "$p" >/dev/null 2>&1 || true
    done
}
testers() {
    local file="$1" dir
    dir="$(dirname "$file")"
    for out in "$work/cov/$dir"/*.out; do
        # A profile line: module/dir/file.go:l.c,l.c statements count.
        if awk -v f="$module/$file:" 'index($1, f) == 1 && $3 > 0 { found = 1 } END { exit !found }' "$out"; then
            cat "${out%.out}.pkg"
        fi
    done | sort -u | tr '\n' ' '
}

summary="$work/summary"
: >"$summary"
for file in "${TARGETS[@]}"; do
    dir="$(dirname "$file")"
    cover "$dir"
    pkgs="$(testers "$file")"
    # Mutate the target alone: every other Go file of its folder is excluded.
    excludes=()
    for other in "$dir"/*.go; do
        [[ "$other" == "$file" || "$other" == *_test.go ]] && continue
        excludes+=(-E "$(basename "$other" | sed 's/\./\\./g')\$")
    done
    echo "== $file: tested by $pkgs"
    start=$SECONDS
    (cd "$root" && MUTATION_TEST_PKGS="$pkgs" PATH="$work/bin:$PATH" "$GREMLINS" unleash "./$dir" \
        --coverpkg "$module/$dir" "${excludes[@]}" --workers "$WORKERS" --timeout-coefficient "$TIMEOUT_COEFFICIENT" \
        --output "$work/result.json" -S lt) || true
    python3 - "$file" "$work/result.json" "$((SECONDS - start))" <<'PY' | tee -a "$summary"
import json, sys
name, path, took = sys.argv[1], sys.argv[2], int(sys.argv[3])
res = json.load(open(path))
counts, lived = {}, []
for f in res.get("files", []):
    for m in f.get("mutations", []):
        counts[m["status"]] = counts.get(m["status"], 0) + 1
        if m["status"] in ("LIVED", "TIMED OUT"):
            lived.append(f'  {m["status"].lower()}: {name}:{m["line"]}:{m["column"]} {m["type"]}')
k, l, t = counts.get("KILLED", 0), counts.get("LIVED", 0), counts.get("TIMED OUT", 0)
share = 100 * k / (k + l) if k + l else 0
print(f"{name}: {k} killed, {l} lived, {t} timed out, {counts.get('NOT COVERED', 0)} not covered, "
      f"{counts.get('NOT VIABLE', 0)} not viable: {share:.1f}% killed ({took // 60} min {took % 60} s)")
print("\n".join(lived))
PY
done
echo
echo "== summary (gremlins $GREMLINS_VERSION)"
cat "$summary"
