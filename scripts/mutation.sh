#!/usr/bin/env bash
# Mutation testing of the files that decide security outcomes, with gremlins (pinned below).
#
#   bash scripts/mutation.sh                      # the default targets (see TARGETS)
#   bash scripts/mutation.sh policy/decide.go     # some of them, or any other Go file
#
# For each target file it finds the packages whose tests cover it: one run of every package's tests
# with -coverpkg set to the file's package, keeping the packages whose profile counts a statement of
# the file (cmd/kokua-run's corpus test covers policy/decide.go, for one). gremlins then mutates the
# targets of one folder, and no other file, in one run, and runs those packages' tests against
# every covered mutant: a `go` shim first on PATH swaps the package gremlins would test (the
# folder's own) for that list (see the two stages below). It prints, per file, the mutants killed,
# lived, timed out and not covered, and the share killed of those that compiled and were covered
# (gremlins' "efficacy"); the survivors are listed, one per line, for docs/testing.md. gremlins counts an operator in no
# coverage block (a `case` condition, one after a function literal) as not covered: docs/testing.md
# lists those checked by hand. Slow (minutes per file): not part of .ci/run.
# docs/testing.md has the command, the figures and the survivors.
#
# Two stages keep it short without weakening it: gremlins runs each mutant against the tests of
# FIRST_TESTERS alone (default: the file's own package), which kill most mutants in seconds, and
# every mutant that lives or times out there is then applied again, in a copy of the repository,
# and run against the tests of every package that covers the file; it counts as killed if any of
# them fails. Which mutants are covered is decided by all of those packages in both stages.
#
# Settings from the environment:
#   WORKERS=1              mutants tested at once (default: the CPU count)
#   TIMEOUT_COEFFICIENT=10 a mutant's test run times out after this many times the unmutated run's
#                          time (default 3); raise it when the machine is busy
#   FIRST_TESTERS="./internal/rules ./lint"
#                          the packages of the first stage (default: the file's own; "all": every
#                          package that covers the file, so there is no second stage)
#   SHORT=1                run every test with -short: the property tests that honour it ask
#                          each mutant of fewer generated inputs (internal/diff's reps)
#   TESTERS="./a ./b"      the packages that cover the files, when an earlier run found them: skips
#                          the search (one run of every package's tests per folder)
#   SKIP='^TestGolden'     a go test -skip pattern: the tests it names kill no mutant (both stages),
#                          though they still decide which mutants are covered; to count the mutants
#                          the tests other than goldens kill (docs/testing.md)
set -euo pipefail

WORKERS="${WORKERS:-$(nproc)}"
if [[ -n "${SHORT:-}" ]]; then
    export MUTATION_SHORT=1
fi
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

# The shim: `go test ... PKG` runs the tests of other packages instead of PKG: gremlins' coverage
# run (the one with -coverprofile) those of $MUTATION_COVER_PKGS, every package that covers the
# file, and each mutant's run those of $MUTATION_TEST_PKGS, the first stage's.
mkdir -p "$work/bin"
real_go="$(command -v go)"
cat >"$work/bin/go" <<EOF
#!/usr/bin/env bash
if [[ "\$1" == test && -n "\${MUTATION_TEST_PKGS:-}" ]]; then
    pkgs="\$MUTATION_TEST_PKGS"
    skip=()
    [[ -n "\${MUTATION_SKIP:-}" ]] && skip=(-skip "\$MUTATION_SKIP")
    [[ " \$* " == *" -coverprofile "* ]] && pkgs="\$MUTATION_COVER_PKGS" && skip=()
    # -count=1: a cached coverage run would make gremlins' per-mutant timeout, which it takes
    # from the coverage run's time, too short, and every mutant would time out.
    # KOKUA_GOLDEN_ACCEPT=1: every golden comparison passes, as -update would let it, so a
    # mutant that only a golden kills counts as living.
    KOKUA_GOLDEN_ACCEPT=1 exec "$real_go" test -count=1 \${MUTATION_SHORT:+-short} "\${skip[@]}" "\${@:2:\$#-2}" \$pkgs
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
    echo "== finding the packages whose tests cover $dir" >&2
    for p in $(go list ./...); do
        n=$((n + 1))
        echo "$p" >"$work/cov/$dir/$n.pkg"
        go test -count=1 -coverpkg "$module/$dir" -coverprofile "$work/cov/$dir/$n.out" "$p" >/dev/null 2>&1 || true
    done
}
testers() {
    local file="$1" dir
    if [[ -n "${TESTERS:-}" ]]; then
        local list
        read -ra list <<<"$TESTERS"
        go list "${list[@]}" | sort -u | tr '\n' ' '
        return
    fi
    dir="$(dirname "$file")"
    cover "$dir"
    for out in "$work/cov/$dir"/*.out; do
        # A profile line: module/dir/file.go:l.c,l.c statements count.
        if awk -v f="$module/$file:" 'index($1, f) == 1 && $3 > 0 { found = 1 } END { exit !found }' "$out"; then
            cat "${out%.out}.pkg"
        fi
    done | sort -u | tr '\n' ' '
}

# The copy of the repository the second stage mutates, with ../shared beside it as beside this one.
mkdir -p "$work/copy/repo"
git ls-files -z -c -o --exclude-standard | while IFS= read -r -d '' f; do
    [[ -f "$f" ]] && printf '%s\0' "$f"
done | tar --null -T - -cf - | tar -C "$work/copy/repo" -xf -
[[ -e ../shared ]] && ln -s "$(cd ../shared && pwd)" "$work/copy/shared"

summary="$work/summary"
: >"$summary"
# gremlins mutates the targets of one folder in one run: one coverage run, one second stage.
dirs=()
for file in "${TARGETS[@]}"; do
    dir="$(dirname "$file")"
    [[ " ${dirs[*]} " == *" $dir "* ]] || dirs+=("$dir")
done
for dir in "${dirs[@]}"; do
    files=()
    for file in "${TARGETS[@]}"; do
        [[ "$(dirname "$file")" == "$dir" ]] && files+=("$file")
    done
    pkgs="$(for file in "${files[@]}"; do testers "$file"; done | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')"
    if [[ "${FIRST_TESTERS:-}" == all ]]; then
        first="$pkgs"
    else
        first=""
        read -ra wanted <<<"${FIRST_TESTERS:-./$dir}"
        for p in $(go list "${wanted[@]}"); do
            [[ " $pkgs " == *" $p "* ]] && first+="$p "
        done
        [[ -n "$first" ]] || first="$pkgs"
    fi
    # Mutate the targets alone: every other Go file of the folder is excluded.
    excludes=()
    for other in "$dir"/*.go; do
        [[ " ${files[*]} " == *" $other "* || "$other" == *_test.go ]] && continue
        excludes+=(-E "$(basename "$other" | sed 's/\./\\./g')\$")
    done
    echo "== ${files[*]}: covered by the tests of $pkgs"
    echo "== first stage: $first"
    start=$SECONDS
    rm -f "$work/result.json"
    (cd "$root" && MUTATION_TEST_PKGS="$first" MUTATION_COVER_PKGS="$pkgs" MUTATION_SKIP="${SKIP:-}" PATH="$work/bin:$PATH" "$GREMLINS" unleash "./$dir" \
        --coverpkg "$module/$dir" "${excludes[@]}" --workers "$WORKERS" --timeout-coefficient "$TIMEOUT_COEFFICIENT" \
        --output "$work/result.json" -S lt) || true
    if [[ ! -s "$work/result.json" ]]; then
        echo "mutation.sh: gremlins wrote no result for $dir" >&2
        exit 1
    fi
    second=""
    [[ "$first" != "$pkgs" ]] && second="$pkgs"
    python3 - "$work/result.json" "$work/copy/repo" "$real_go" "$TIMEOUT_COEFFICIENT" "$second" "${SKIP:-}" "${files[@]}" <<'PY'
# The second stage: every mutant that lived or timed out in the first is applied to the copy and
# run against all the packages that cover the files.
import json, os, subprocess, sys, time
path, repo, go, coefficient, pkgs, skip, *names = sys.argv[1:]
pkgs = pkgs.split()
skip = ["-skip", skip] if skip else []
res = json.load(open(path))
def target(f):
    # gremlins names a file by its name in the folder it mutates.
    return next(n for n in names if n.split("/")[-1] == f["file_name"].split("/")[-1])
todo = [(target(f), m) for f in res.get("files", []) for m in f.get("mutations", [])
        if m["status"] in ("LIVED", "TIMED OUT")]
if not pkgs or not todo:
    sys.exit(0)
# gremlins' mutations, as they change the operator at the mutant's line and column.
CHANGES = {
    "ARITHMETIC_BASE": {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"},
    "CONDITIONALS_BOUNDARY": {">=": ">", ">": ">=", "<=": "<", "<": "<="},
    "CONDITIONALS_NEGATION": {"==": "!=", "!=": "==", ">=": "<", ">": "<=", "<=": ">", "<": ">="},
    "INCREMENT_DECREMENT": {"++": "--", "--": "++"},
    "INVERT_NEGATIVES": {"-": "+"},
}
def run(limit):
    t = time.monotonic()
    try:
        # Goldens accept whatever they get, as under -update (see the shim above).
        short = ["-short"] if os.environ.get("MUTATION_SHORT") else []
        p = subprocess.run([go, "test", "-count=1", *short, *skip, *pkgs], cwd=repo, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=limit, env={**os.environ, "KOKUA_GOLDEN_ACCEPT": "1"})
        if p.returncode == 0:
            return "passed", time.monotonic() - t
        # A mutant that does not build is not viable, as gremlins counts it; the swaps below
        # always build, so this is a safeguard against a misplaced one.
        built = b"[build failed]" not in p.stdout and b"[setup failed]" not in p.stdout
        return ("failed" if built else "not viable"), time.monotonic() - t
    except subprocess.TimeoutExpired:
        return "timed out", time.monotonic() - t
outcome, took = run(None)
if outcome != "passed":
    sys.exit(f"mutation.sh: the unmutated tests of {' '.join(pkgs)} fail in the copy; no second stage")
limit = max(60, took * int(coefficient))
print(f"== second stage: {len(todo)} mutants against every package that covers the files "
      f"({took:.0f} s unmutated, timeout {limit:.0f} s)", flush=True)
for name, m in todo:
    file = f"{repo}/{name}"
    source = open(file, "rb").read()
    lines = source.split(b"\n")
    line = lines[m["line"] - 1]
    at = m["column"] - 1
    ops = CHANGES[m["type"]]
    op = next((o for o in sorted(ops, key=len, reverse=True) if line[at:at + len(o)] == o.encode()), None)
    if op is None:
        sys.exit(f"mutation.sh: no {m['type']} operator at {name}:{m['line']}:{m['column']}")
    lines[m["line"] - 1] = line[:at] + ops[op].encode() + line[at + len(op):]
    open(file, "wb").write(b"\n".join(lines))
    try:
        outcome, _ = run(limit)
    finally:
        open(file, "wb").write(source)
    status = {"failed": "KILLED", "passed": "LIVED", "timed out": "TIMED OUT", "not viable": "NOT VIABLE"}[outcome]
    print(f"  {name}:{m['line']}:{m['column']} {m['type']} ({op} to {ops[op]}): "
          f"{m['status'].lower()} in the first stage, {status.lower()} in the second", flush=True)
    m["status"] = status
json.dump(res, open(path, "w"))
PY
    python3 - "$work/result.json" "$((SECONDS - start))" "${files[@]}" <<'PY' | tee -a "$summary"
import json, sys
path, took, *names = sys.argv[1:]
took = int(took)
res = json.load(open(path))
for name in names:
    counts, lived = {}, []
    for f in res.get("files", []):
        if f["file_name"].split("/")[-1] != name.split("/")[-1]:
            continue
        for m in f.get("mutations", []):
            counts[m["status"]] = counts.get(m["status"], 0) + 1
            if m["status"] in ("LIVED", "TIMED OUT"):
                lived.append(f'  {m["status"].lower()}: {name}:{m["line"]}:{m["column"]} {m["type"]}')
    k, l, t = counts.get("KILLED", 0), counts.get("LIVED", 0), counts.get("TIMED OUT", 0)
    share = 100 * k / (k + l) if k + l else 0
    print(f"{name}: {k} killed, {l} lived, {t} timed out, {counts.get('NOT COVERED', 0)} not covered, "
          f"{counts.get('NOT VIABLE', 0)} not viable: {share:.1f}% killed")
    if lived:
        print("\n".join(lived))
print(f"({' '.join(names)}: {took // 60} min {took % 60} s)")
PY
done
echo
echo "== summary (gremlins $GREMLINS_VERSION)"
cat "$summary"
