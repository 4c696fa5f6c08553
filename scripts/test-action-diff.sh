#!/usr/bin/env bash
# Tests scripts/action-diff.sh, the GitHub Action's pull-request mode, on a real git history: an
# "origin" repository whose main branch holds the shipped config, a pull-request branch that
# changes it, and a shallow clone of that branch (as actions/checkout makes one) that lacks the
# base commit, so the script has to fetch it. Checks the exit codes, that the markdown lands in
# $GITHUB_STEP_SUMMARY and widened=true|false in $GITHUB_OUTPUT, --allow-widen, a narrowing
# change, a config new in the pull request, a base version with errors (nothing to compare: passes)
# and a head version with errors (fails), a base that cannot be found, and that a hostile path or
# revision in the inputs is data, never code; the annotations on the changed lines, the sticky
# pull-request comment (created once, then updated, through a stand-in for gh that records its
# calls; a comment another login starts with the marker is never edited), and the acceptance
# label tied to the digest of what widened (a later push that widens further fails again; a
# config with errors fails whatever the label). It fails closed: through a stand-in for
# kokua-compile, each of its runs (json, human, markdown, github) killed or exiting 2, 3 or 137,
# or exiting 1 without the JSON report that names a side with errors, fails the step, even
# against a base that has errors. scripts/test-action.sh runs the same script through
# action.yml's steps.
#
# Needs Go, git and jq. Run from anywhere: bash scripts/test-action-diff.sh. Nothing in this
# repository is changed.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$repo_root/scripts/lib.sh"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/kokua-action-diff.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
share_go_caches
unset GITHUB_STEP_SUMMARY

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "==> $*"; }

step "building kokua-compile"
go -C "$repo_root" build -buildvcs=false -o "$tmp/bin/kokua-compile" ./cmd/kokua-compile
export KOKUA_COMPILE="$tmp/bin/kokua-compile"

g() { git -c user.name=ci -c user.email=ci@example.com -c commit.gpgsign=false -c init.defaultBranch=main "$@"; }

step "origin: main holds the shipped config; branch pr widens it, branch narrow narrows it"
g init -q "$tmp/origin"
cp "$repo_root/examples/shipped.config.toml" "$tmp/origin/config.toml"
cp "$repo_root/examples/shipped.config.toml" "$tmp/origin/other.toml"
g -C "$tmp/origin" add config.toml other.toml
g -C "$tmp/origin" commit -q -m base
base="$(git -C "$tmp/origin" rev-parse HEAD)"
g -C "$tmp/origin" checkout -q -b pr
sed -i 's/review = \["compute.run_command", "compute.execute_python", "fs_write"\]/review = ["compute.run_command", "compute.execute_python"]/' "$tmp/origin/config.toml"
grep -q 'review = \["compute.run_command", "compute.execute_python"\]' "$tmp/origin/config.toml" || fail "the edit did not apply"
mkdir -p "$tmp/origin/team"
cp "$repo_root/examples/shipped.config.toml" "$tmp/origin/team/new.config.toml"
g -C "$tmp/origin" add config.toml team/new.config.toml
g -C "$tmp/origin" commit -q -m "drop fs_write from review"
g -C "$tmp/origin" checkout -q -b wider pr
sed -i 's/^available = \["web", "misc", "time", "messaging"\]/available = ["web", "misc", "time", "messaging", "fs"]/' "$tmp/origin/config.toml"
grep -q '"messaging", "fs"\]' "$tmp/origin/config.toml" || fail "the wider edit did not apply"
g -C "$tmp/origin" commit -q -am "the researcher reads files too"
g -C "$tmp/origin" checkout -q -b medium "$base"
sed -i 's/^available = \["fs", "time", "messaging"\]/available = ["fs", "time", "messaging", "misc"]/' "$tmp/origin/config.toml"
grep -q '"messaging", "misc"\]' "$tmp/origin/config.toml" || fail "the medium edit did not apply"
g -C "$tmp/origin" commit -q -am "the introspector can echo"
g -C "$tmp/origin" checkout -q -b narrow "$base"
sed -i 's/"config.update_config"\]  # asks you/"config.update_config", "misc"]  # asks you/' "$tmp/origin/config.toml"
g -C "$tmp/origin" commit -q -am "gate misc"
g -C "$tmp/origin" checkout -q -b broken "$base"
sed -i 's/^available = \["memory"/available = ["nosuch", "memory"/' "$tmp/origin/config.toml"
grep -q 'nosuch' "$tmp/origin/config.toml" || fail "the broken edit did not apply"
g -C "$tmp/origin" commit -q -am "an unknown toolset"
broken="$(git -C "$tmp/origin" rev-parse HEAD)"
g -C "$tmp/origin" checkout -q -b fix "$broken"
cp "$repo_root/examples/shipped.config.toml" "$tmp/origin/config.toml"
g -C "$tmp/origin" commit -q -am "fix it"
g -C "$tmp/origin" checkout -q -b pr-broken pr
sed -i 's/^available = \["memory"/available = ["nosuch", "memory"/' "$tmp/origin/other.toml"
g -C "$tmp/origin" commit -q -am "the pr's widening, and another config broken"

# A config that is a symbolic link at the base (the attack of issue 35's finding 6): a first pull
# request moves config.toml to configs/kokua.toml and links it back, and links the folder as
# deploy; a second widens configs/kokua.toml. Kokua follows the links, so the base has no errors:
# both paths are compared and the widening fails. A link at the base that names no file fails
# the step (exit 2), never "the base has errors" or "new file".
g -C "$tmp/origin" checkout -q -b linked "$base"
mkdir -p "$tmp/origin/configs"
g -C "$tmp/origin" mv config.toml configs/kokua.toml
ln -s configs/kokua.toml "$tmp/origin/config.toml"
ln -s configs "$tmp/origin/deploy"
g -C "$tmp/origin" add config.toml deploy
g -C "$tmp/origin" commit -q -m "config.toml is a link"
linked="$(git -C "$tmp/origin" rev-parse HEAD)"
g -C "$tmp/origin" checkout -q -b linked-wider linked
sed -i 's/review = \["compute.run_command", "compute.execute_python", "fs_write"\]/review = ["compute.run_command", "compute.execute_python"]/' "$tmp/origin/configs/kokua.toml"
grep -q 'review = \["compute.run_command", "compute.execute_python"\]' "$tmp/origin/configs/kokua.toml" || fail "the linked edit did not apply"
g -C "$tmp/origin" commit -q -am "drop fs_write from review, through the link"
g -C "$tmp/origin" checkout -q -b dangling "$base"
g -C "$tmp/origin" rm -q config.toml
ln -s nowhere.toml "$tmp/origin/config.toml"
g -C "$tmp/origin" add config.toml
g -C "$tmp/origin" commit -q -m "config.toml names no file"
dangling="$(git -C "$tmp/origin" rev-parse HEAD)"
g -C "$tmp/origin" checkout -q -b dangling-fixed dangling
rm "$tmp/origin/config.toml"
git -C "$tmp/origin" show linked-wider:configs/kokua.toml >"$tmp/origin/config.toml"
g -C "$tmp/origin" add config.toml
g -C "$tmp/origin" commit -q -m "config.toml is a file again, wider"

# Workflow commands in a reviewer's instructions (issue 35's finding 7): the base's system_message
# holds lines the runner would act on, and the pull request rewrites the line before them, so that
# they are the context lines of the human report's diff in the log.
g -C "$tmp/origin" checkout -q -b f7base "$base"
awk '{ print } /^Refuse anything that reads secrets/ {
    print "::stop-commands::pwned"; print "::add-mask::high"; print "\t::error title=kokua-compile diff::forged"
    print "\302\240::warning::forged"; print "see ##[add-mask]critical"; print "   ::endgroup::" }' \
    "$repo_root/testdata/diff/pr-reviewer-rewrite/old.toml" >"$tmp/origin/config.toml"
grep -q '^::add-mask::high$' "$tmp/origin/config.toml" || fail "the payload edit did not apply"
g -C "$tmp/origin" commit -q -am "a reviewer whose instructions hold workflow commands"
f7base="$(git -C "$tmp/origin" rev-parse HEAD)"
g -C "$tmp/origin" checkout -q -b f7 f7base
sed -i 's/^Approve a call only when it does what the user asked and nothing more\.$/Approve every call./' "$tmp/origin/config.toml"
grep -q '^Approve every call\.$' "$tmp/origin/config.toml" || fail "the f7 edit did not apply"
g -C "$tmp/origin" commit -q -am "approve every call"
g -C "$tmp/origin" checkout -q -b f7broken f7base
sed -i 's/^available = \["memory"/available = ["##[add-mask]critical", "memory"/' "$tmp/origin/config.toml"
grep -qF '"##[add-mask]critical", "memory"' "$tmp/origin/config.toml" || fail "the f7broken edit did not apply"
g -C "$tmp/origin" commit -q -am "an unknown toolset whose name is a workflow command"

# runner_commands LOG: the lines of LOG that GitHub's runner would act on as workflow commands,
# read as the runner reads a step's output (internal/testing/ghrunner does the same in Go): lines
# split at "\r\n", "\n" and "\r"; while commands are stopped by "::stop-commands::TOKEN", only the
# line "::TOKEN::" (white space trimmed) is read, and resumes them; otherwise a line is a command
# when, its leading white space trimmed (Unicode's too), it starts with "::", or when it holds
# "##[" anywhere. One JSON object a command, the stop-commands lines too: {"line": N, "text": T}.
runner_commands() {
    jq -R -s -c '
        def trim_start: sub("^[\\s\\p{Z}\\x{85}]+"; "");
        def trim: trim_start | sub("[\\s\\p{Z}\\x{85}]+$"; "");
        gsub("\r\n?"; "\n") | split("\n")
        | reduce range(0; length) as $i ({lines: ., stop: null, found: []};
            .lines[$i] as $l | ($l | trim_start) as $t
            | if .stop != null then (if ($l | trim) == "::" + .stop + "::" then .stop = null else . end)
              elif ($t | startswith("::stop-commands::")) then
                .stop = ($t | ltrimstr("::stop-commands::") | trim) | .found += [{line: ($i + 1), text: $l}]
              elif ($t | startswith("::")) or ($l | contains("##[")) then .found += [{line: ($i + 1), text: $l}]
              else . end)
        | .found[]' "$1"
}

# kokua-compile as it is, but for the run whose --format is FAKE_FORMAT, which ends as FAKE_END
# says: kill (SIGKILL), exit:N, or print:N:TEXT (TEXT on stdout, then exit N).
cat >"$tmp/bin/fake-compile" <<'FAKE'
#!/usr/bin/env bash
format='' prev=''
for a in "$@"; do
    if [[ "$prev" == --format ]]; then format="$a"; fi
    prev="$a"
done
if [[ "$format" == "${FAKE_FORMAT:-}" ]]; then
    case "$FAKE_END" in
        kill) kill -KILL $$ ;;
        exit:*) exit "${FAKE_END#exit:}" ;;
        print:*)
            rest="${FAKE_END#print:}"
            printf '%s\n' "${rest#*:}"
            exit "${rest%%:*}"
            ;;
    esac
fi
exec "$KOKUA_COMPILE_REAL" "$@"
FAKE
chmod +x "$tmp/bin/fake-compile"
fake=(KOKUA_COMPILE="$tmp/bin/fake-compile" KOKUA_COMPILE_REAL="$KOKUA_COMPILE")

# run_case NAME BRANCH WANT_EXIT WANT_TEXT [VAR=VALUE ...]: a shallow clone of BRANCH, the script
# run in it with the environment given, its exit code and the summary checked.
run_case() {
    local name="$1" branch="$2" want="$3" text="$4"
    shift 4
    step "$name"
    rm -rf "$tmp/work" "$tmp/summary.md"
    g clone -q --depth 1 --branch "$branch" "file://$tmp/origin" "$tmp/work"
    if git -C "$tmp/work" cat-file -e "$base^{commit}" 2>/dev/null && [[ "$branch" != main ]]; then
        fail "the shallow clone already has the base commit; the fetch is not exercised"
    fi
    local code=0
    : >"$tmp/output"
    (cd "$tmp/work" && env GITHUB_STEP_SUMMARY="$tmp/summary.md" GITHUB_OUTPUT="$tmp/output" KOKUA_DIFF_BASE="$base" "$@" \
        bash "$repo_root/scripts/action-diff.sh") >"$tmp/log" 2>&1 || code=$?
    sed 's/^/    | /' "$tmp/log"
    [[ "$code" == "$want" ]] || fail "$name: exit $code, want $want"
    if [[ "$want" != 2 ]]; then
        local n
        n="$(grep -c '^widened=\(true\|false\)$' "$tmp/output" || true)"
        [[ "$n" == 1 ]] || fail "$name: want one widened= line in GITHUB_OUTPUT, got: $(cat "$tmp/output")"
    fi
    if [[ -n "$text" ]]; then
        grep -qF -- "$text" "$tmp/summary.md" || { cat "$tmp/summary.md"; fail "$name: the summary lacks: $text"; }
    fi
}

run_case "a widening fails the job and reports it" pr 1 '| ⚠️ widened | ⚠️ high | `edit_file`, `write_file` | review: asks the user | runs unasked |' \
    KOKUA_DIFF_CONFIGS="config.toml team/new.config.toml"
grep -qF 'New file: nothing at the base to compare with.' "$tmp/summary.md" || fail "the new config is not noted"
grep -qF 'HEAD' "$tmp/summary.md" && fail "the summary should name the base revision, not HEAD"
grep -qF "${base:0:12}:config.toml" "$tmp/summary.md" || fail "the summary does not name the base side by its short revision"
grep -qF "$base" "$tmp/summary.md" && fail "the summary names the base by its 40 digits"
grep -qx 'widened=true' "$tmp/output" || fail "widened output: $(cat "$tmp/output")"
# The annotations: each graded change on the new config's line that caused it.
grep -q '^::error file=config.toml,line=7,col=1,title=kokua-compile diff%3A high::agent coder: edit_file, write_file' "$tmp/log" ||
    fail "no annotation on config.toml's review line"
digest="$(sed -n 's/^digest=//p' "$tmp/output")"
[[ "$digest" =~ ^[0-9a-f]{12}$ ]] || fail "digest output: $(cat "$tmp/output")"
grep -qF "add the label \`kokua-accept-$digest\`" "$tmp/summary.md" || fail "the summary does not name the acceptance label"

run_case "the label of that digest accepts exactly these widenings" pr 0 "Accepted** by the label \`kokua-accept-$digest\`" \
    KOKUA_DIFF_CONFIGS="config.toml team/new.config.toml" KOKUA_DIFF_LABELS="[\"docs\",\"kokua-accept-$digest\"]"
run_case "a later push that widens further fails again under the same label" wider 1 'accepts another set of widenings' \
    KOKUA_DIFF_CONFIGS="config.toml team/new.config.toml" KOKUA_DIFF_LABELS="[\"kokua-accept-$digest\"]"
[[ "$(sed -n 's/^digest=//p' "$tmp/output")" != "$digest" ]] || fail "a further widening kept the digest"
run_case "a label of another digest accepts nothing" pr 1 'To accept exactly these widenings' \
    KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_LABELS='["kokua-accept-000000000000"]'

# gh, as a stand-in: records each call. $GH_STANDIN/state is the pull request's comments as the
# REST API lists them (a JSON array); a POST adds one written by GH_STANDIN_LOGIN with the next id.
# GraphQL's viewer answers GH_STANDIN_LOGIN when it is set; REST's /user refuses, as it does an
# installation token.
mkdir -p "$tmp/gh"
cat >"$tmp/gh/gh" <<'GH'
#!/usr/bin/env bash
printf '%s\n' "$*" >>"$GH_STANDIN/calls"
for a in "$@"; do
    case "$a" in body=@*) cp "${a#body=@}" "$GH_STANDIN/body" ;; esac
done
case "$*" in
    "api graphql "*)
        [[ -n "${GH_STANDIN_LOGIN:-}" ]] || { echo "gh: Resource not accessible by integration" >&2; exit 1; }
        echo "$GH_STANDIN_LOGIN" ;;
    "api user "*) echo "gh: Resource not accessible by integration (HTTP 403)" >&2; exit 1 ;;
    "api --paginate repos/acme/agents/issues/7/comments") cat "$GH_STANDIN/state" 2>/dev/null || echo '[]' ;;
    "api --method POST repos/acme/agents/issues/7/comments "*)
        jq --arg login "${GH_STANDIN_LOGIN:-github-actions[bot]}" --rawfile body "$GH_STANDIN/body" \
            '. + [{id: (4242 + length), user: {login: $login}, body: $body}]' "$GH_STANDIN/state" >"$GH_STANDIN/state.new"
        mv "$GH_STANDIN/state.new" "$GH_STANDIN/state" ;;
    "api --method PATCH "*) ;;
    *) echo "gh stand-in: unexpected call: $*" >&2; exit 1 ;;
esac
GH
chmod +x "$tmp/gh/gh"
comment=(KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_COMMENT=true KOKUA_GH="$tmp/gh/gh" GH_STANDIN="$tmp/gh"
    KOKUA_DIFF_PR=7 GITHUB_REPOSITORY=acme/agents GH_STANDIN_LOGIN=kokua-bot[bot])
# The pull request's author wrote a comment that starts with the marker before the first push.
jq -n '[{id: 666, user: {login: "mallory"}, body: "<!-- kokua-policy-diff -->\n**Security review passed**"}]' >"$tmp/gh/state"
run_case "comment: the first push creates the pull request's comment, not the author's look-alike" pr 1 '' "${comment[@]}"
grep -q -- '--method POST repos/acme/agents/issues/7/comments -F body=@' "$tmp/gh/calls" || fail "no comment created: $(cat "$tmp/gh/calls")"
grep -q -- 'PATCH' "$tmp/gh/calls" && fail "a comment by another login was edited: $(cat "$tmp/gh/calls")"
head -n 1 "$tmp/gh/body" | grep -qx '<!-- kokua-policy-diff -->' || fail "the comment does not start with its marker"
grep -qF '| ⚠️ widened | ⚠️ high |' "$tmp/gh/body" || fail "the comment lacks the graded report"
run_case "comment: the next push updates the same comment" wider 1 '' "${comment[@]}"
[[ "$(grep -c -- '--method POST' "$tmp/gh/calls")" == 1 ]] || fail "a second comment was created: $(cat "$tmp/gh/calls")"
grep -q -- '--method PATCH repos/acme/agents/issues/comments/4243 -F body=@' "$tmp/gh/calls" || fail "the comment was not updated: $(cat "$tmp/gh/calls")"
grep -q -- 'comments/666' "$tmp/gh/calls" && fail "the author's comment was edited: $(cat "$tmp/gh/calls")"
grep -qF 'fs' "$tmp/gh/body" || fail "the updated comment does not hold the new report"
run_case "comment: KOKUA_DIFF_COMMENT_LOGIN names the token's login without asking gh" wider 1 '' "${comment[@]}" \
    GH_STANDIN_LOGIN= KOKUA_DIFF_COMMENT_LOGIN='kokua-bot[bot]'
grep -q -- 'api graphql' <(tail -n 2 "$tmp/gh/calls") && fail "gh was asked for the login: $(cat "$tmp/gh/calls")"
[[ "$(grep -c -- '--method PATCH repos/acme/agents/issues/comments/4243 ' "$tmp/gh/calls")" == 2 ]] || fail "the comment was not updated: $(cat "$tmp/gh/calls")"
run_case "comment: a token whose login cannot be told makes a new comment, and warns" wider 1 '' "${comment[@]}" GH_STANDIN_LOGIN=
grep -qF "::warning title=kokua-compile diff::cannot tell the token's login" "$tmp/log" || fail "no warning without a login"
[[ "$(grep -c -- '--method POST' "$tmp/gh/calls")" == 2 ]] || fail "no new comment without a login: $(cat "$tmp/gh/calls")"
[[ "$(grep -c -- '--method PATCH' "$tmp/gh/calls")" == 2 ]] || fail "a comment was edited without a login: $(cat "$tmp/gh/calls")"
run_case "comment: no pull request number warns and passes the report on" pr 1 '' \
    KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_COMMENT=true KOKUA_GH="$tmp/gh/gh" GH_STANDIN="$tmp/gh" KOKUA_DIFF_PR='7; rm -rf /'
grep -qF '::warning title=kokua-compile diff::no pull request to comment on' "$tmp/log" || fail "no warning without a pull request"

# Fail closed: a kokua-compile diff run that ends other than 0 or 1, or 1 without the JSON report
# that names a side with errors, fails the step; it is never "the base has errors". The base of
# the first cases has errors, so the old reading (any failed run is a broken base) would pass.
closed_base=(KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_BASE="$broken" "${fake[@]}")
for end in kill exit:3 exit:137 exit:2 'print:1:' 'print:1:{"compared": false, "sides_with_errors": []}' \
    'print:1:{"compared": true, "sides_with_errors": ["old"]}' 'print:1:not json'; do
    want=3
    case "$end" in kill | exit:137) want=137 ;; exit:2) want=2 ;; esac
    run_case "fail closed: the JSON run against a broken base ends $end" fix "$want" 'Not compared: kokua-compile diff failed' \
        "${closed_base[@]}" FAKE_FORMAT=json FAKE_END="$end"
    grep -qF 'The base version has errors' "$tmp/summary.md" && fail "a failed run was taken for a base with errors"
    grep -q '^::error title=kokua-compile diff::config.toml: ' "$tmp/log" || fail "no error annotation for the failed run"
done
for format in human markdown github; do
    for end in kill exit:3; do
        want=3
        [[ "$end" == kill ]] && want=137
        run_case "fail closed: the $format run ends $end" pr "$want" 'Not compared: kokua-compile diff failed' \
            KOKUA_DIFF_CONFIGS="config.toml" "${fake[@]}" FAKE_FORMAT="$format" FAKE_END="$end"
    done
done
run_case "fail closed: a markdown run that exits 1 is no report" pr 3 'Not compared' \
    KOKUA_DIFF_CONFIGS="config.toml" "${fake[@]}" FAKE_FORMAT=markdown FAKE_END=exit:1
run_case "fail closed: a JSON report without a digest's shape" pr 3 'Not compared' \
    KOKUA_DIFF_CONFIGS="config.toml" "${fake[@]}" FAKE_FORMAT=json FAKE_END='print:0:{"widened": true, "digest": "sha256:x"}'
run_case "fail closed: a failed run is not accepted by the label" pr 3 '' \
    KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_LABELS="[\"kokua-accept-$digest\"]" "${fake[@]}" FAKE_FORMAT=github FAKE_END=exit:3
run_case "the JSON report that names the old side: the base has errors, passes" fix 0 'The base version has errors' \
    "${closed_base[@]}" FAKE_FORMAT=json FAKE_END='print:1:{"old": "x", "new": "config.toml", "compared": false, "sides_with_errors": ["old"]}'
run_case "a config with errors fails even when the label accepts the other's widenings" pr-broken 1 'Not compared: this version has errors' \
    KOKUA_DIFF_CONFIGS="config.toml other.toml" KOKUA_DIFF_LABELS="[\"kokua-accept-$digest\"]"
grep -qF "Accepted** by the label \`kokua-accept-$digest\`" "$tmp/summary.md" || fail "the label did not accept the widenings it names"
run_case "the same widenings without the broken config pass under the label" pr 0 'Accepted** by the label' \
    KOKUA_DIFF_CONFIGS="config.toml other.toml" KOKUA_DIFF_LABELS="[\"kokua-accept-$digest\"]"

run_case "a config that is a link at the base is read through it" linked-wider 1 '| ⚠️ widened | ⚠️ high | `edit_file`, `write_file` | review: asks the user | runs unasked |' \
    KOKUA_DIFF_CONFIGS="config.toml deploy/kokua.toml" KOKUA_DIFF_BASE="$linked"
grep -qF 'nothing to compare' "$tmp/summary.md" && fail "a linked base was not compared"
grep -qF 'New file' "$tmp/summary.md" && fail "a config under a linked folder was taken for new"
[[ "$(grep -c '4 widened, 0 narrowed' "$tmp/summary.md")" == 2 ]] ||
    fail "both paths to the linked config should report the widening"
run_case "a config turned into a link changes nothing" linked 0 'No change to what any agent can do.' KOKUA_DIFF_CONFIGS="config.toml"
run_case "a link at the base that names no file fails the step" dangling-fixed 2 'Not compared: kokua-compile diff failed' \
    KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_BASE="$dangling"
grep -qF 'names no file' "$tmp/log" || fail "the log does not say the link names no file"
grep -qF 'The base version has errors' "$tmp/summary.md" && fail "a dangling link was taken for a base with errors"

# The f7 pair through the script: outside the regions where commands are stopped, the log holds
# only the annotations the script and kokua-compile --format github write, and each region's
# token is 32 random hex digits, new on each run.
f7_commands() {
    local c text
    f7_tokens=()
    while IFS= read -r c; do
        text="$(jq -r .text <<<"$c")"
        case "$text" in
            "::stop-commands::"*)
                [[ "${text#::stop-commands::}" =~ ^[0-9a-f]{32}$ ]] || fail "a stop-commands token that is not 32 random hex digits: $text"
                f7_tokens+=("${text#::stop-commands::}")
                ;;
            "::error file=config.toml,"*"title=kokua-compile diff%3A "*"::"* | "::error title=kokua-compile diff"*"::"*) ;;
            *) fail "line $(jq -r .line <<<"$c") of the log is a workflow command outside the stopped regions: $text" ;;
        esac
    done < <(runner_commands "$tmp/log")
    [[ ${#f7_tokens[@]} -gt 0 ]] || fail "kokua-compile's output was not printed with commands stopped"
}
run_case "a reviewer's instructions cannot issue workflow commands through the log" f7 1 'system_message' \
    KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_BASE="$f7base"
grep -qF '::stop-commands::pwned' "$tmp/log" || fail "the payload did not reach the log: the case proves nothing"
f7_commands
first_token="${f7_tokens[0]}"
run_case "the same, with its own token" f7 1 'system_message' KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_BASE="$f7base"
f7_commands
[[ "${f7_tokens[0]}" != "$first_token" ]] || fail "two runs stopped commands with the same token"
# A config with errors: its findings, which quote it, are printed with commands stopped as well.
run_case "findings that quote a config cannot issue workflow commands through the log" f7broken 1 'Not compared: this version has errors' \
    KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_BASE="$f7base"
grep -qF '##[add-mask]critical' "$tmp/log" || fail "the finding did not reach the log: the case proves nothing"
f7_commands

run_case "fail-on critical fails on a critical risk path" pr 1 '2 critical, 4 high' KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_FAIL_ON=critical
run_case "fail-on high lets a medium change through" medium 0 '1 medium, 1 info; 1 widened' KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_FAIL_ON=high
run_case "the default fails on the same medium change" medium 1 '1 medium, 1 info; 1 widened' KOKUA_DIFF_CONFIGS="config.toml"
run_case "a bad fail-on is a bad input" pr 2 '' KOKUA_DIFF_FAIL_ON=severe

run_case "allow-widen reports without failing" pr 0 '4 widened, 0 narrowed**' \
    KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_ALLOW_WIDEN=true
grep -qx 'widened=true' "$tmp/output" || fail "widened output with allow-widen: $(cat "$tmp/output")"

run_case "a narrowing passes" narrow 0 '| narrowed |  | `echo` |' KOKUA_DIFF_CONFIGS="config.toml"
grep -qx 'widened=false' "$tmp/output" || fail "widened output on a narrowing: $(cat "$tmp/output")"

run_case "a head with errors fails, nothing compared" broken 1 'Not compared: this version has errors' \
    KOKUA_DIFF_CONFIGS="config.toml"
grep -qF "unknown toolset 'nosuch'" "$tmp/log" || fail "the log does not show the error"

run_case "a base with errors has nothing to compare with, and passes" fix 0 'The base version has errors' \
    KOKUA_DIFF_CONFIGS="config.toml" KOKUA_DIFF_BASE="$broken"
grep -q '^::warning title=kokua-compile diff::config.toml: the base version has errors' "$tmp/log" ||
    fail "a base with errors passes without a warning annotation"

run_case "a commit origin does not have is a bad input" pr 2 '' KOKUA_DIFF_BASE=0123456789abcdef0123456789abcdef01234567
grep -qF 'cannot fetch the base commit' "$tmp/log" || fail "no message for an unknown base"

run_case "a branch name not in the clone is not fetched" pr 2 '' KOKUA_DIFF_BASE='main:refs/heads/evil'
grep -qF 'is not in this clone' "$tmp/log" || fail "no message for a base that is not a SHA"
git -C "$tmp/work" rev-parse --verify --quiet refs/heads/evil >/dev/null && fail "a base input wrote a ref"

run_case "an unchanged config passes" main 0 'No change to what any agent can do.' KOKUA_DIFF_CONFIGS="config.toml"

run_case "a hostile config path is a path" pr 0 'New file' KOKUA_DIFF_CONFIGS='$(touch${IFS}pwned).toml'
[[ -e "$tmp/work/pwned" ]] && fail "a config path was run as code"

run_case "a revision that starts with a dash is refused" pr 2 '' KOKUA_DIFF_BASE='--output=/tmp/x'

run_case "no base is a usage error" pr 2 '' KOKUA_DIFF_BASE=

echo "OK: scripts/action-diff.sh"
