#!/usr/bin/env bash
# Checks every GitHub Actions file of the repository with actionlint (installed from the Go module
# proxy at the version pinned below, into the cache folder .ci/run uses) and shellcheck (Debian's,
# installed with apt-get when missing, which actionlint runs on each `run:` script):
#
#   - .github/workflows/*.yml, whose `uses: ./` makes actionlint check the inputs it passes
#     against action.yml;
#   - every workflow of docs/ci.md (the blocks marked `<!-- test: github-... -->`);
#   - action.yml's own `run:` scripts, which actionlint does not read, with shellcheck directly.
#
# Run from anywhere: bash scripts/test-actionlint.sh. Nothing in this repository is changed.
set -euo pipefail

ACTIONLINT_VERSION=v1.7.12

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
step() { printf '==> %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
# shellcheck source=scripts/lib.sh
source "$repo_root/scripts/lib.sh"
python_with_yaml

bin_dir="${XDG_CACHE_HOME:-$HOME/.cache}/kokua-policy/bin"
actionlint="$bin_dir/actionlint"
if [[ "$("$actionlint" -version 2>/dev/null | head -1)" != "$ACTIONLINT_VERSION" ]]; then
    step "installing actionlint $ACTIONLINT_VERSION into $bin_dir"
    GOBIN="$bin_dir" go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
fi
if ! command -v shellcheck >/dev/null; then
    step "installing shellcheck with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq shellcheck >/dev/null
fi
step "actionlint $("$actionlint" -version | head -1), $(shellcheck --version | sed -n 's/^version: /shellcheck /p')"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/kokua-actionlint.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# The workflows of docs/ci.md, one file each; and action.yml's run: scripts, one file each.
"$py" - "$repo_root" "$tmp" <<'EOF'
import os, re, sys
import yaml
repo, tmp = sys.argv[1:]
lines = open(os.path.join(repo, "docs/ci.md"), encoding="utf-8").read().split("\n")
n = 0
for i, line in enumerate(lines):
    m = re.fullmatch(r"<!-- test: (github-[a-z-]+) -->", line)
    if not m:
        continue
    j = i + 1
    while not lines[j].startswith("```"):
        j += 1
    k = lines.index("```", j + 1)
    os.makedirs(os.path.join(tmp, "docs"), exist_ok=True)
    open(os.path.join(tmp, "docs", m.group(1) + ".yml"), "w").write("\n".join(lines[j + 1:k]) + "\n")
    n += 1
if n < 3:
    sys.exit("docs/ci.md: %d GitHub workflows marked for testing, want 3 or more" % n)
action = yaml.safe_load(open(os.path.join(repo, "action.yml"), encoding="utf-8"))
os.makedirs(os.path.join(tmp, "action"))
for i, s in enumerate(action["runs"]["steps"], 1):
    if "run" in s:
        # Expressions become placeholders, as the runner would splice in a value.
        body = re.sub(r"\$\{\{.*?\}\}", "EXPR", s["run"])
        open(os.path.join(tmp, "action", "step%d.sh" % i), "w").write("#!/usr/bin/env bash\nset -eo pipefail\n" + body)
EOF

cd "$repo_root"
step "actionlint .github/workflows/*.yml and docs/ci.md's workflows"
ls .github/workflows/*.yml "$tmp"/docs/*.yml | sed 's/^/    /'
"$actionlint" -no-color .github/workflows/*.yml "$tmp"/docs/*.yml || fail "actionlint found problems"
step "shellcheck on action.yml's run: scripts"
shellcheck --shell=bash "$tmp"/action/*.sh || fail "shellcheck found problems in action.yml"
step "PASS: actionlint and shellcheck"
