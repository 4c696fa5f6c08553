#!/usr/bin/env bash
# Tests .pre-commit-hooks.yaml for real, with Debian's pre-commit (installed with apt-get if
# missing), in throwaway git repositories under a temporary folder:
#
#   - the hook repository is a clone of this repository's COMMITTED HEAD: pre-commit fetches hooks
#     by git URL and rev, so uncommitted changes (to the hooks, docs/ci.md or the Go code) are not
#     tested. KOKUA_HOOKS_FROM_WORKTREE=1 tests the working tree instead: the clone gets the
#     working tree's files (tracked and untracked, minus .gitignore'd ones) in one extra commit;
#   - the project's .pre-commit-config.yaml is taken from docs/ci.md (the blocks marked
#     `<!-- test: pre-commit -->` and `<!-- test: pre-commit-overrides -->`), with only `repo:`
#     and `rev:` pointed at that clone, since the version they pin may not be published yet;
#   - `pre-commit run --all-files` must fail on a broken config (naming pending-dead-entry, once)
#     and on a stale compiled policy (saying which input changed and the whole command to rerun,
#     --manifest included), and pass once each is fixed; a real `git commit` through the installed
#     hook must be refused, then accepted;
#   - the project also holds other programs' config.toml, Cargo's .cargo/config.toml and a Hugo
#     site's, which the hooks must skip with one line each and never fail on;
#   - the hooks build only the two commands they run, and say so on first use, once on a
#     terminal;
#   - docs/ci.md's `<!-- test: pre-commit-test -->` block: kokua-test fails while a policy test's
#     claim does not hold (naming it, with the config line behind it and its help: line), prints
#     one line, not the findings the kokua-lint hook printed, for a config with an error, or a
#     selector is misspelled,
#     passes once the config holds, and refuses a real `git commit`, then accepts it;
#   - docs/ci.md's `<!-- test: pre-commit-fix -->` block: kokua-lint-fix rewrites a broken config
#     to the fixed one, pre-commit fails saying the hook modified files, a second run passes; an
#     unsafe fix is not made; a real `git commit` is refused with the fix made, then accepted.
#
# Needs Go on PATH (the hooks build kokua-lint and kokua-compile with it, through GOPROXY), git,
# and python3. The pre-commit cache is temporary; the Go module and build caches are the usual ones.
# Run from anywhere: bash scripts/test-precommit.sh. Nothing in this repository is changed.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS=0
step() { printf '==> %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null || fail "go is not on PATH"
if ! command -v pre-commit >/dev/null; then
    step "installing pre-commit with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq pre-commit >/dev/null
fi
command -v git >/dev/null || { apt-get update -qq && apt-get install -y -qq git >/dev/null; }
step "$(pre-commit --version), $(go version), $(git --version)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/kokua-precommit.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# Keep the caller's git and pre-commit settings out (a global core.hooksPath stops
# `pre-commit install`; commit signing would stop the throwaway commits), and Go's caches shared.
export GIT_CONFIG_GLOBAL="$tmp/gitconfig" GIT_CONFIG_NOSYSTEM=1
git config --global init.defaultBranch main
git config --global user.name "kokua-policy test"
git config --global user.email "test@kokua-policy.invalid"
git config --global --add safe.directory "$repo_root"
export PRE_COMMIT_HOME="$tmp/pre-commit-cache"
export GOMODCACHE GOCACHE
GOMODCACHE="$(go env GOMODCACHE)"
GOCACHE="$(go env GOCACHE)"
unset GOBIN

# The hook repository.
hooks="$tmp/hooks"
git clone -q --no-local "$repo_root" "$hooks"
if [[ "${KOKUA_HOOKS_FROM_WORKTREE:-}" == 1 ]]; then
    step "KOKUA_HOOKS_FROM_WORKTREE=1: testing the working tree of $repo_root"
    git -C "$hooks" ls-files -z | (cd "$hooks" && xargs -0 rm -f)
    (cd "$repo_root" && git ls-files -z -c -o --exclude-standard | while IFS= read -r -d '' f; do
        [[ -f "$f" ]] && printf '%s\0' "$f"
    done | tar --null -T - -cf -) | tar -C "$hooks" -xf -
    git -C "$hooks" add -A
    git -C "$hooks" commit -q --allow-empty -m "working tree of $repo_root"
fi
rev="$(git -C "$hooks" rev-parse HEAD)"
step "hook repository: $hooks at $rev ($(git -C "$hooks" log -1 --format=%s | cut -c1-60))"
[[ -f "$hooks/.pre-commit-hooks.yaml" ]] ||
    fail "the tested revision has no .pre-commit-hooks.yaml (commit it, or set KOKUA_HOOKS_FROM_WORKTREE=1)"

# The build line on first use is said once on a terminal: it goes to /dev/tty only, which
# pre-commit does not capture (it would print the captured stderr again when the hook fails).
# A stand-in go on PATH makes the "build" instant; `script` gives the hook a terminal.
if command -v script >/dev/null; then
    step "the hook's build line, on a terminal: said once"
    fake="$tmp/fake-go"
    mkdir -p "$fake" "$tmp/tty-hooks"
    printf '#!/bin/sh\nwhile [ "$1" != -o ]; do shift; done\nprintf "#!/bin/sh\\n" >"$2"; chmod +x "$2"\n' >"$fake/go"
    chmod +x "$fake/go"
    cp -r "$hooks/scripts" "$tmp/tty-hooks/"
    said="$(PATH="$fake:$PATH" script -qec "bash '$tmp/tty-hooks/scripts/pre-commit-hook.sh' kokua-lint 2>&1" /dev/null)"
    n="$(grep -c "building kokua-lint from the hook's clone" <<<"$said" || true)"
    [[ "$n" == 1 ]] || fail "on a terminal the build line is said $n times, want once: $said"
    step "ok: said once"
fi

# kokua-compile of the same revision, to write the policies a project would commit.
step "building kokua-compile and kokua-lint from the hook repository"
go -C "$hooks" build -buildvcs=false -o "$tmp/bin/" ./cmd/kokua-compile ./cmd/kokua-lint
compile() { # ARGS...: kokua-compile in the project, its output indented
    (cd "$proj" && "$tmp/bin/kokua-compile" "$@") 2>&1 | sed 's/^/    | /'
}

# doc_block NAME: the fenced block after `<!-- test: NAME -->` in the tested revision's docs/ci.md,
# with its repo: and rev: lines pointed at the clone (each must occur exactly once).
doc_block() {
    python3 - "$hooks/docs/ci.md" "$1" "$hooks" "$rev" <<'EOF'
import re, sys
doc, name, repo, rev = sys.argv[1:]
lines = open(doc, encoding="utf-8").read().split("\n")
marker = "<!-- test: %s -->" % name
if lines.count(marker) != 1:
    sys.exit("docs/ci.md: want exactly one line %r" % marker)
i = lines.index(marker) + 1
while i < len(lines) and not lines[i].strip():
    i += 1
if i == len(lines) or not lines[i].startswith("```"):
    sys.exit("docs/ci.md: no fenced block after %r" % marker)
end = lines.index("```", i + 1)
text = "\n".join(lines[i + 1:end]) + "\n"
for old, new in ((r"repo: https://github\.com/kokua-policy/kokua-policy\n", "repo: %s\n" % repo),
                 (r"rev: \S+\n", "rev: %s\n" % rev)):
    text, n = re.subn(old, lambda m: new, text)
    if n != 1:
        sys.exit("docs/ci.md block %r: want exactly one line matching %r" % (name, old.strip()))
sys.stdout.write(text)
EOF
}

# run_hooks NAME WANT [PATTERN...]: `pre-commit run --all-files` in the project must exit with
# WANT (0 or 1) and its output must match each PATTERN (extended regex, one line).
out="$tmp/out.txt"
run_hooks() {
    local name="$1" want="$2" status=0 p
    shift 2
    # setsid: no controlling terminal, as in CI, so the hooks' build line goes to stderr and is
    # captured here even when this script runs in a terminal.
    (cd "$proj" && setsid -w pre-commit run --all-files --color never) >"$out" 2>&1 </dev/null || status=$?
    sed 's/^/    | /' "$out"
    [[ "$status" == "$want" ]] || fail "$name: pre-commit exited $status, want $want"
    for p in "$@"; do
        grep -Eq -- "$p" "$out" || fail "$name: the output does not match /$p/"
    done
    step "ok: $name (exit $status)"
}
commit_all() { git -C "$proj" add -A && git -C "$proj" commit -q --no-verify -m "$1"; }

# A small config: the assistant may load mcp on demand, and confirms one of its tools.
write_config() { # FILE ENTRY [EXTRA-LINE]
    mkdir -p "$(dirname "$1")"
    cat >"$1" <<EOF
# assistant loads mcp on demand, and asks before adding a server.
[assistant]
agent = "assistant"

[assistant.tools]
confirm = ["$2"]
review = []
${3:-}
[agents.assistant]
description = "The assistant the user talks to."

[agents.assistant.tools]
available = ["memory", "mcp", "time"]
resident = ["memory", "time"]
EOF
}

lint_failed='^kokua-lint\.+Failed$'
lint_passed='^kokua-lint\.+Passed$'
check_failed='^kokua-compile --check\.+Failed$'
check_passed='^kokua-compile --check\.+Passed$'

step "project 1: docs/ci.md's pre-commit block, config.toml at the top"
proj="$tmp/project"
git init -q "$proj"
doc_block pre-commit >"$proj/.pre-commit-config.yaml"
sed 's/^/    | /' "$proj/.pre-commit-config.yaml"
write_config "$proj/config.toml" mcp.add_mcp_servr
# Other programs' config.toml: Cargo's and a Hugo site's. The hooks must leave them alone.
mkdir -p "$proj/.cargo" "$proj/site"
cat >"$proj/.cargo/config.toml" <<'EOF'
[build]
target = "x86_64-unknown-linux-gnu"
rustflags = ["-C", "target-cpu=native"]

[target.x86_64-unknown-linux-gnu]
linker = "clang"

[alias]
b = "build"
t = "test --workspace"

[net]
retry = 3
EOF
cat >"$proj/site/config.toml" <<'EOF'
baseURL = "https://example.org/"
languageCode = "en-us"
title = "A site"
theme = "ananke"

[params]
author = "someone"

[markup.goldmark.renderer]
unsafe = true

[security]
enableInlineShortcodes = false
[security.exec]
allow = ["^go$", "^npx$"]
EOF
commit_all "broken config, beside Cargo's and Hugo's"

skip_line() { # FILE: the line --only-kokua prints for another program's config.toml
    printf '^kokua-lint: skipping %s: not a Kokua config [(]' "${1//./[.]}"
}

step "broken config (mcp.add_mcp_servr): both hooks must fail (pre-commit builds the hooks first, and says so)"
run_hooks "broken config" 1 "$lint_failed" "$check_failed" '\[pending-dead-entry\]' \
    "^kokua-lint \(pre-commit hook\): building kokua-lint from the hook's clone, once for this rev; on a cold Go cache this takes a minute or more, and later runs start at once$" \
    "^kokua-compile \(pre-commit hook\): building kokua-compile from the hook's clone, once for this rev" \
    "config\.toml:6:12: error: .*'mcp\.add_mcp_servr'" "help: write 'mcp\.add_mcp_server'" \
    '^kokua-compile: config\.toml has 1 error\(s\), the first pending-dead-entry at config\.toml:6:12, so its policy was not checked' \
    "$(skip_line .cargo/config.toml)" "$(skip_line site/config.toml)"
n="$(grep -c '\[pending-dead-entry\]' "$out" || true)"
[[ "$n" == 1 ]] || fail "the finding is printed $n times, want once"
grep -Eq '^(\.cargo|site)/config\.toml:' "$out" && fail "another program's config.toml was checked"
grep -q 'nothing was written' "$out" && fail "kokua-compile --check says 'nothing was written'"
step "ok: one finding, printed once; Cargo's and Hugo's config.toml skipped"

step "the hooks built only what they run"
built="$(find "$PRE_COMMIT_HOME" -path '*/.pre-commit-bin/*' -type f -printf '%f\n' | sort | tr '\n' ' ')"
[[ "$built" == "kokua-compile kokua-lint " ]] || fail "the hooks built: $built"
step "ok: built $built"

step "fixed config and its compiled policy: both hooks must pass"
write_config "$proj/config.toml" mcp.add_mcp_server
compile -o kokua-policy.json config.toml
commit_all "fixed config, compiled"
run_hooks "fixed config" 0 "$lint_passed" "$check_passed"

step "config changed, policy not recompiled: kokua-compile-check must fail"
write_config "$proj/config.toml" mcp.remove_mcp_server
commit_all "config changed, policy stale"
run_hooks "stale policy" 1 "$lint_passed" "$check_failed" \
    'kokua-policy\.json is stale: config\.toml has changed since it was compiled; to update it, run kokua-compile -o kokua-policy\.json config\.toml'

step "following the printed command brings the policy up to date"
rerun="$(sed -n 's/.*; to update it, run \(kokua-compile [^(]*\).*/\1/p' "$out" | head -1)"
[[ -n "$rerun" ]] || fail "no command to rerun in the output"
(cd "$proj" && PATH="$tmp/bin:$PATH" && eval "$rerun") 2>&1 | sed 's/^/    | /'
commit_all "policy recompiled with the printed command"
run_hooks "printed command followed" 0 "$lint_passed" "$check_passed"


step "a real commit through the installed hook"
(cd "$proj" && pre-commit install) </dev/null | sed 's/^/    | /'
before="$(git -C "$proj" rev-parse HEAD)"
write_config "$proj/config.toml" mcp.add_mcp_servr
git -C "$proj" add config.toml
status=0
git -C "$proj" commit -q -m "break the config" >"$out" 2>&1 </dev/null || status=$?
sed 's/^/    | /' "$out"
[[ "$status" != 0 ]] || fail "git commit of a broken config succeeded"
[[ "$(git -C "$proj" rev-parse HEAD)" == "$before" ]] || fail "HEAD moved after a refused commit"
grep -q '\[pending-dead-entry\]' "$out" || fail "the refused commit does not name pending-dead-entry"
step "ok: commit of the broken config refused"
write_config "$proj/config.toml" mcp.add_mcp_server
compile -o kokua-policy.json config.toml
git -C "$proj" add config.toml kokua-policy.json
git -C "$proj" commit -q -m "fix the config" >"$out" 2>&1 </dev/null ||
    { sed 's/^/    | /' "$out"; fail "git commit of the fixed config was refused"; }
sed 's/^/    | /' "$out"
[[ "$(git -C "$proj" rev-parse HEAD)" != "$before" ]] || fail "HEAD did not move"
step "ok: commit of the fixed config accepted"

step "project 2: docs/ci.md's overrides block, deploy/config.toml with its manifest"
proj="$tmp/project2"
git init -q "$proj"
doc_block pre-commit-overrides >"$proj/.pre-commit-config.yaml"
sed 's/^/    | /' "$proj/.pre-commit-config.yaml"
mkdir -p "$proj/deploy"
"$tmp/bin/kokua-lint" manifest >"$proj/deploy/kokua.manifest.json"
# A warning and nothing else: a suppression that hides nothing (suppression-unused).
write_config "$proj/deploy/config.toml" mcp.add_mcp_server \
    '# kokua-lint: ignore[shadowed-tool] nothing is shadowed here any more'
# A config.toml at the top that the overridden `files` must leave alone.
write_config "$proj/config.toml" mcp.add_mcp_servr
compile --manifest deploy/kokua.manifest.json -o deploy/kokua-policy.json deploy/config.toml
commit_all "deploy config with a stale suppression"
run_hooks "warning with --fail-on warning" 1 "$lint_failed" "$check_passed" \
    'deploy/config\.toml:8:1: warning: .*\[suppression-unused\]'
grep -q 'embedded default' "$out" && fail "kokua-lint ignored --manifest"
grep -q '^config\.toml:' "$out" && fail "the top-level config.toml was checked despite files:"

step "suppression removed, policy recompiled: both hooks must pass"
write_config "$proj/deploy/config.toml" mcp.add_mcp_server
compile --manifest deploy/kokua.manifest.json -o deploy/kokua-policy.json deploy/config.toml
commit_all "suppression removed"
run_hooks "overrides, clean" 0 "$lint_passed" "$check_passed"

step "manifest changed, policy not recompiled: the message names the manifest and the whole command"
printf '\n' >>"$proj/deploy/kokua.manifest.json"
write_config "$proj/deploy/config.toml" mcp.add_mcp_server '# a comment changes the config too'
commit_all "manifest and config changed"
run_hooks "stale against both" 1 "$lint_passed" "$check_failed" \
    'deploy/kokua-policy\.json is stale: deploy/config\.toml and the manifest \(kokua\.manifest\.json\) have changed since it was compiled; to update it, run kokua-compile --manifest deploy/kokua\.manifest\.json -o deploy/kokua-policy\.json deploy/config\.toml'
rerun="$(sed -n 's/.*; to update it, run \(kokua-compile [^(]*\).*/\1/p' "$out" | head -1)"
(cd "$proj" && PATH="$tmp/bin:$PATH" && eval "$rerun") 2>&1 | sed 's/^/    | /'
commit_all "recompiled with the printed command"
run_hooks "overrides, recompiled with the printed command" 0 "$lint_passed" "$check_passed"

step "project 3: docs/ci.md's pre-commit-fix block (kokua-lint-fix), config.toml at the top"
proj="$tmp/project3"
git init -q "$proj"
doc_block pre-commit-fix >"$proj/.pre-commit-config.yaml"
sed 's/^/    | /' "$proj/.pre-commit-config.yaml"
# The policy committed is the fixed config's: the one the hook's fix leads to.
write_config "$proj/config.toml" mcp.add_mcp_server
compile -o kokua-policy.json config.toml
cp "$proj/config.toml" "$tmp/fixed.toml"
# A bare tool name, which one toolset provides: the safe fix qualifies it. (A misspelt name with
# two close matches, mcp.add_mcp_servr, is a choice --fix leaves to a person.)
write_config "$proj/config.toml" add_mcp_server
cp "$proj/config.toml" "$tmp/broken.toml"
mkdir -p "$proj/.cargo"
printf '[alias]\nb = "build"\n' >"$proj/.cargo/config.toml"
cp "$proj/.cargo/config.toml" "$tmp/cargo.toml"
commit_all "broken config, the policy of the fixed one"
fix_failed='^kokua-lint --fix\.+Failed$'
fix_passed='^kokua-lint --fix\.+Passed$'

step "broken config: kokua-lint-fix rewrites the entry, and pre-commit fails because it changed the file"
run_hooks "safe fix made" 1 "$fix_failed" '^- files were modified by this hook$' \
    '^config\.toml:6:12: fixed entry-shape: Write "mcp\.add_mcp_server"$' \
    "$(skip_line .cargo/config.toml)"
cmp -s "$proj/config.toml" "$tmp/fixed.toml" || { diff -u "$tmp/fixed.toml" "$proj/config.toml" || true; fail "config.toml is not the fixed config"; }
cmp -s "$proj/.cargo/config.toml" "$tmp/cargo.toml" || fail "Cargo's config.toml was written"
grep -q '\[entry-shape\]' "$out" && fail "the fixed finding is still reported"
step "ok: config.toml fixed in place, Cargo's left alone"

step "the fix staged: a second run passes, kokua-compile-check included"
commit_all "the fix, staged"
run_hooks "second run" 0 "$fix_passed" "$check_passed"

step "an unsafe fix is not made: an unknown toolset stays a finding, the file unchanged"
sed 's/"memory", "mcp", "time"/"memry", "mcp", "time"/' "$tmp/fixed.toml" >"$proj/config.toml"
cp "$proj/config.toml" "$tmp/unsafe.toml"
commit_all "an unknown toolset"
run_hooks "unsafe fix not made" 1 "$fix_failed" '\[unknown-toolset\]' "help: write 'memory'"
cmp -s "$proj/config.toml" "$tmp/unsafe.toml" || fail "the hook made an unsafe fix"
grep -q 'files were modified' "$out" && fail "pre-commit says the hook modified files"
step "ok: the finding fails the run, nothing written"

step "a real commit through the installed hook: refused with the fix made, then accepted once staged"
cp "$tmp/fixed.toml" "$proj/config.toml"
commit_all "back to the fixed config"
(cd "$proj" && pre-commit install) </dev/null | sed 's/^/    | /'
before="$(git -C "$proj" rev-parse HEAD)"
# A change of the gated tool, written bare: the fix makes it mcp.remove_mcp_server.
write_config "$tmp/fixed.toml" mcp.remove_mcp_server
write_config "$proj/config.toml" remove_mcp_server
git -C "$proj" add config.toml
status=0
git -C "$proj" commit -q -m "break the config" >"$out" 2>&1 </dev/null || status=$?
sed 's/^/    | /' "$out"
[[ "$status" != 0 ]] || fail "git commit of a config the hook fixed succeeded"
[[ "$(git -C "$proj" rev-parse HEAD)" == "$before" ]] || fail "HEAD moved after a refused commit"
grep -q 'files were modified by this hook' "$out" || fail "the refused commit does not say the hook modified files"
cmp -s "$proj/config.toml" "$tmp/fixed.toml" || fail "the working tree's config.toml is not the fixed config"
step "ok: refused, config.toml fixed in the working tree; recompiling and staging the fix"
compile -o kokua-policy.json config.toml
git -C "$proj" add config.toml kokua-policy.json
git -C "$proj" commit -q -m "a config, as the hook fixed it" >"$out" 2>&1 </dev/null ||
    { sed 's/^/    | /' "$out"; fail "git commit of the fixed config was refused"; }
sed 's/^/    | /' "$out"
[[ "$(git -C "$proj" rev-parse HEAD)" != "$before" ]] || fail "HEAD did not move"
step "ok: the commit of the fixed config and its policy accepted"

step "project 4: docs/ci.md's pre-commit-test block (kokua-test), config.toml and kokua.test.toml at the top"
proj="$tmp/project4"
git init -q "$proj"
doc_block pre-commit-test >"$proj/.pre-commit-config.yaml"
sed 's/^/    | /' "$proj/.pre-commit-config.yaml"
write_config "$proj/config.toml" mcp.add_mcp_server
cat >"$proj/kokua.test.toml" <<'EOF'
[[expect]]
name = "adding an MCP server asks the user"
agent = "assistant"
tool = "mcp.add_mcp_server"
decision = "confirm"

[[expect]]
name = "removing one asks too"
agent = "assistant"
tool = "mcp.remove_mcp_server"
decision = "asks"
EOF
commit_all "a config and its policy tests, one claim failing"
test_failed='^kokua-compile test\.+Failed$'
test_passed='^kokua-compile test\.+Passed$'
run_hooks "a claim fails" 1 "$lint_passed" "$test_failed" \
    '^FAIL kokua\.test\.toml:7: removing one asks too$' \
    "^    config\.toml:5:1: no entry of the inherited \[assistant\.tools\] names 'mcp\.remove_mcp_server', so the call runs$" \
    "^    help: add 'mcp\.remove_mcp_server' to confirm or review in \[assistant\.tools\]; or change the claim, if it is what is wrong$" \
    '^2 claims: 1 holds, 1 fails$'

step "a config with an error: the kokua-lint hook lists the finding, kokua-test says so in one line"
write_config "$proj/config.toml" mcp.add_mcp_servr
commit_all "a misspelled entry"
run_hooks "broken config" 1 "$lint_failed" "$test_failed" \
    "^kokua-compile: config\.toml has 1 error\(s\), the first pending-dead-entry at config\.toml:6:12, so its claims were not checked; kokua-lint reports them$"
n="$(grep -c '\[pending-dead-entry\]' "$out" || true)"
[[ "$n" == 1 ]] || fail "the finding is printed $n times, want once (by the kokua-lint hook)"

step "the config gates the whole toolset: the claims hold"
write_config "$proj/config.toml" mcp
commit_all "every mcp tool confirms"
run_hooks "claims hold" 0 "$lint_passed" "$test_passed"

step "a misspelled selector fails the hook, never passes"
sed -i 's/agent = "assistant"/agent = "asistant"/' "$proj/kokua.test.toml"
commit_all "a misspelled agent"
run_hooks "misspelled agent" 1 "$test_failed" "agent 'asistant' matches no declared agent" 'help: write "assistant"'

step "a real commit through the installed hook: refused while a claim fails, accepted once it holds"
sed -i 's/agent = "asistant"/agent = "assistant"/' "$proj/kokua.test.toml"
commit_all "selectors fixed"
(cd "$proj" && pre-commit install) </dev/null | sed 's/^/    | /'
before="$(git -C "$proj" rev-parse HEAD)"
write_config "$proj/config.toml" mcp.add_mcp_server
git -C "$proj" add config.toml
status=0
git -C "$proj" commit -q -m "ungate remove_mcp_server" >"$out" 2>&1 </dev/null || status=$?
sed 's/^/    | /' "$out"
[[ "$status" != 0 ]] || fail "git commit that fails a policy test succeeded"
[[ "$(git -C "$proj" rev-parse HEAD)" == "$before" ]] || fail "HEAD moved after a refused commit"
grep -q 'removing one asks too' "$out" || fail "the refused commit does not name the failing claim"
write_config "$proj/config.toml" mcp '# every tool of mcp asks, remove_mcp_server included'
git -C "$proj" add config.toml
git -C "$proj" commit -q -m "gate mcp again" >"$out" 2>&1 </dev/null ||
    { sed 's/^/    | /' "$out"; fail "git commit with every claim holding was refused"; }
[[ "$(git -C "$proj" rev-parse HEAD)" != "$before" ]] || fail "HEAD did not move"
step "ok: refused while a claim failed, accepted once it held"

step "PASS: pre-commit hooks (${SECONDS}s)"
