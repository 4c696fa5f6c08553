#!/usr/bin/env bash
# shellcheck disable=SC2016 # markdown backticks in single-quoted printf formats are text
# The diff mode of the GitHub Action (action.yml, `mode: diff` or `both`): diffs each config as it
# is at the pull request's base against the checkout (`kokua-compile diff --base`, which reads the
# old side with `git show`), writes the human report to the log and the markdown one to the job
# summary (and, with KOKUA_DIFF_COMMENT, one pull-request comment), each graded change as an
# annotation on its line, and fails when a change reaches KOKUA_DIFF_FAIL_ON. docs/diff.md and docs/ci.md show
# how to use it.
#
# Every input comes from the environment, never from the script's text:
#   KOKUA_DIFF_BASE         the base revision (the pull request's base SHA); required
#   KOKUA_DIFF_CONFIGS      the configs to compare, one path a line (or separated by spaces)
#   KOKUA_DIFF_MANIFEST     a registry manifest, optional
#   KOKUA_DIFF_ALLOW_WIDEN  "true" to report a widening without failing
#   KOKUA_COMPILE           the kokua-compile binary (default: kokua-compile on PATH)
#   GITHUB_STEP_SUMMARY     the job summary file; without it the markdown goes to stdout
#   GITHUB_OUTPUT           when set, gets widened=true or widened=false (whether any config
#                           widened, --allow-widen or not) and digest=<12 hex digits> (what widened)
#   KOKUA_DIFF_FAIL_ON      kokua-compile diff --fail-on: critical, high, medium or any (default)
#   KOKUA_DIFF_LABELS       the pull request's labels, as JSON (toJSON of their names); a label
#                           kokua-accept-<digest> accepts exactly the widenings of that digest
#   KOKUA_DIFF_COMMENT      "true" to keep one pull-request comment with the report, updated on
#                           each push (found by its marker and its author, the token's login);
#                           needs gh, GH_TOKEN, GITHUB_REPOSITORY and KOKUA_DIFF_PR (the pull
#                           request's number)
#   KOKUA_DIFF_COMMENT_LOGIN the login the token comments as (github-actions[bot] for
#                           GITHUB_TOKEN); empty to ask gh (GraphQL's viewer, then /user)
#   KOKUA_GH                the gh binary (default: gh on PATH)
# Needs git and jq (on GitHub's runners), which reads kokua-compile diff's JSON report.
# Each config's graded changes are also printed as annotations (--format github) on the lines of
# the new config that caused them.
# A shallow checkout that lacks the base commit fetches that one commit from origin (only a
# commit SHA is fetched; any other revision must already be in the clone).
#
# A config that is not at the base, or whose base version has errors (Kokua refuses it, so it
# grants nothing), has nothing to compare with: it is noted in the summary and does not fail. The
# base has errors only when kokua-compile diff --format json says so (exit 1 and
# "sides_with_errors": ["old"]); any other exit of a kokua-compile diff run than 0 and 1, or an
# exit 1 without that report, fails closed.
# Exit: 0 nothing reaches KOKUA_DIFF_FAIL_ON (or allowed, or accepted by the label of its digest),
# 1 something does or a config has errors (no label accepts a config with errors), 2 bad inputs
# (a base that cannot be found, an unreadable config or manifest, a bad KOKUA_DIFF_FAIL_ON), and
# any other code a kokua-compile diff run exited with (3 an internal error, 128 + N killed by
# signal N; 3 also when a run's output is not what it should be, or jq is missing).
set -euo pipefail

base="${KOKUA_DIFF_BASE:-}"
compile="${KOKUA_COMPILE:-kokua-compile}"
if ! command -v jq >/dev/null; then
    echo "action-diff: jq is not on PATH: it reads kokua-compile diff's JSON report (GitHub's runners have it; install it on a self-hosted one)" >&2
    exit 3
fi
if [[ -z "$base" ]]; then
    echo "action-diff: KOKUA_DIFF_BASE is empty: give the pull request's base revision" >&2
    exit 2
fi
if [[ "$base" == -* ]]; then
    echo "action-diff: KOKUA_DIFF_BASE is not a revision: $base" >&2
    exit 2
fi
mapfile -t configs < <(printf '%s\n' "${KOKUA_DIFF_CONFIGS:-config.toml}" | tr ' ' '\n' | sed '/^$/d')
if [[ ${#configs[@]} -eq 0 ]]; then
    echo "action-diff: KOKUA_DIFF_CONFIGS names no config" >&2
    exit 2
fi

if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
    if [[ ! "$base" =~ ^[0-9a-f]{7,64}$ ]]; then
        echo "action-diff: the base revision $base is not in this clone: fetch it first (actions/checkout with fetch-depth: 0), or give a commit SHA" >&2
        exit 2
    fi
    echo "action-diff: fetching $base from origin"
    if ! git fetch --quiet --no-tags --depth=1 origin "$base" || ! git cat-file -e "$base^{commit}" 2>/dev/null; then
        echo "action-diff: cannot fetch the base commit $base from origin" >&2
        exit 2
    fi
fi

manifest=()
if [[ -n "${KOKUA_DIFF_MANIFEST:-}" ]]; then
    manifest=(--manifest "$KOKUA_DIFF_MANIFEST")
fi
fail_on="${KOKUA_DIFF_FAIL_ON:-any}"
case "$fail_on" in
    critical | high | medium | any) ;;
    *) echo "action-diff: KOKUA_DIFF_FAIL_ON is critical, high, medium or any, not $fail_on" >&2; exit 2 ;;
esac
flags=(--base "$base" "${manifest[@]}")
allow="${KOKUA_DIFF_ALLOW_WIDEN:-false}"
summary="${GITHUB_STEP_SUMMARY:-/dev/stdout}"
# The comment's body is written next to the summary, then posted (or updated) once at the end.
body="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/kokua-diff-comment.XXXXXX")"
digests="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/kokua-diff-digests.XXXXXX")"
marker='<!-- kokua-policy-diff -->'
printf '%s\n' "$marker" >"$body"
# note writes to the summary and the comment; every caller passes a literal format.
# shellcheck disable=SC2059
note() { printf "$@" >>"$summary"; printf "$@" >>"$body"; }

# Every run of kokua-compile diff is checked: 0 and 1 are its answers, and 1 is "a side has
# errors" only when the JSON report says so (sides_with_errors). Any other exit (a usage error, an
# internal error, a kill: 128 + the signal), or an answer that is not what it should be, fails
# closed: the step fails with that code (3 when kokua-compile's exit was 0 or 1 but its output was
# wrong), never "nothing to compare".
# closed CONFIG CODE WHY: notes a config that was not compared and fails the step.
closed() {
    local msg="$1: $3"
    msg="${msg//%/%25}" msg="${msg//$'\r'/%0D}" msg="${msg//$'\n'/%0A}"
    note '### Policy diff: `%s`\n\nNot compared: kokua-compile diff failed (%s); the log says why.\n\n' "$1" "$3"
    echo "::error title=kokua-compile diff::$msg"
    if [[ $2 -gt $failed ]]; then
        failed=$2
    fi
}
errs="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/kokua-diff-stderr.XXXXXX")"
json="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/kokua-diff-json.XXXXXX")"
human="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/kokua-diff-human.XXXXXX")"
trap 'rm -f "$body" "$digests" "$errs" "$json" "$human"' EXIT
# Everything kokua-compile writes but the annotations carries text from the config: it reaches the
# log through log_inert, which stops the runner's workflow commands around it.
# shellcheck source=scripts/action-log.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/action-log.sh"

# missing_at_base CONFIG: whether the base has no file at CONFIG, its symbolic links followed as
# kokua-compile diff --base follows them (git cat-file --follow-symlinks: within the repository,
# each relative to its own folder). A config that is a link at the base, or lies under a linked
# folder, is there; a link there that leaves the repository, names no file or loops is there too,
# and kokua-compile diff refuses it (exit 2), which fails the step: it is never "new".
missing_at_base() {
    local answer
    answer="$(printf '%s:./%s\n' "$base" "$1" | git cat-file --batch-check --follow-symlinks 2>/dev/null)" || return 1
    [[ "$answer" == "$base:./$1 missing" ]]
}

status=0  # 1: a change reaches KOKUA_DIFF_FAIL_ON (a label may accept it)
broken=0  # 1: a config has errors at this revision (no label accepts that)
failed=0  # a run of kokua-compile that failed: the step fails with this code
widened=false
for config in "${configs[@]}"; do
    if missing_at_base "$config"; then
        note '### Policy diff: `%s`\n\nNew file: nothing at the base to compare with.\n\n' "$config"
        echo "action-diff: $config is new at this revision; nothing to compare"
        continue
    fi
    # First the JSON report, which says whether both sides loaded (--allow-widen: exit 1 is then
    # only a side with errors).
    code=0
    "$compile" diff "${flags[@]}" --allow-widen --format json -- "$config" >"$json" 2>"$errs" || code=$?
    if [[ $code -eq 1 ]]; then
        log_inert "$errs"
        sides="$(jq -r 'if type == "object" and .compared == false and (.sides_with_errors | type) == "array"
            then .sides_with_errors | map(select(. == "old" or . == "new")) | join(" ") else "" end' "$json" 2>/dev/null)" || sides=''
        case "$sides" in
            old)
                # Only the base has errors: Kokua refused it, so there is nothing to compare with.
                note '### Policy diff: `%s`\n\nThe base version has errors (Kokua refuses it), so there is nothing to compare with: read this version as a whole.\n\n' "$config"
                echo "::warning title=kokua-compile diff::${config//%/%25}: the base version has errors (Kokua refuses it), so nothing was compared; read this version as a whole"
                ;;
            new | "old new")
                note '### Policy diff: `%s`\n\nNot compared: this version has errors; the log lists them.\n\n' "$config"
                broken=1
                ;;
            *) closed "$config" 3 "kokua-compile diff exited 1 without a JSON report that names a side with errors" ;;
        esac
        continue
    elif [[ $code -ne 0 ]]; then
        log_inert "$errs"
        closed "$config" "$code" "kokua-compile diff --format json exited $code"
        continue
    fi
    d="$(jq -r 'if type == "object" and (.widened | type) == "boolean" then .digest // "" else "bad" end' "$json" 2>/dev/null)" || d=bad
    if [[ -n "$d" && ! "$d" =~ ^sha256:[0-9a-f]{64}$ ]]; then
        closed "$config" 3 "kokua-compile diff exited 0 without a report (digest: $d)"
        continue
    fi
    # The human report to the log, without --allow-widen: exit 1 is now a change that reaches
    # KOKUA_DIFF_FAIL_ON.
    code=0
    "$compile" diff "${flags[@]}" --fail-on "$fail_on" --format human -- "$config" >"$human" 2>&1 || code=$?
    log_inert "$human"
    if [[ $code -gt 1 ]]; then
        closed "$config" "$code" "kokua-compile diff --format human exited $code"
        continue
    fi
    report=0
    md="$("$compile" diff "${flags[@]}" --allow-widen --format markdown -- "$config" 2>"$errs")" || report=$?
    log_inert "$errs"
    if [[ $report -ne 0 || -z "$md" ]]; then
        closed "$config" "$((report > 1 ? report : 3))" "kokua-compile diff --format markdown exited $report"
        continue
    fi
    # The annotations, on the new config's lines.
    report=0
    "$compile" diff "${flags[@]}" --allow-widen --format github -- "$config" 2>"$errs" || report=$?
    log_inert "$errs"
    if [[ $report -ne 0 ]]; then
        closed "$config" "$((report > 1 ? report : 3))" "kokua-compile diff --format github exited $report"
        continue
    fi
    note '%s\n\n' "$md"
    if [[ -n "$d" ]]; then
        printf '%s %s\n' "${d#sha256:}" "$config" >>"$digests"
    fi
    if [[ $code -eq 1 ]]; then
        widened=true
        if [[ "$allow" == "true" ]]; then
            echo "action-diff: $config widens what some agent can do; allowed (allow-widen)"
            code=0
        fi
    fi
    if [[ $code -gt $status ]]; then
        status=$code
    fi
done

# The acceptance: one digest for every config's widenings (each config's own digest and its path,
# sorted), 12 hex digits. A label kokua-accept-<digest> accepts exactly these widenings: a later
# push that widens further has another digest, and fails again until it is accepted anew.
digest=''
labels="${KOKUA_DIFF_LABELS:-[]}"
# has_label JQ: whether the pull request's labels (a JSON array of names) hold one JQ selects.
has_label() { printf '%s' "$labels" | jq -e --arg want "$label" "type == \"array\" and any(.[]; type == \"string\" and ($1))" >/dev/null 2>&1; }
if [[ -s "$digests" ]]; then
    digest="$(LC_ALL=C sort "$digests" | sha256sum | cut -c1-12)"
    label="kokua-accept-$digest"
    if [[ $status -eq 1 ]] && has_label '. == $want'; then
        echo "action-diff: the label $label accepts these widenings"
        note '**Accepted** by the label `%s`: these widenings, and no others.\n' "$label"
        status=0
    elif [[ $status -eq 1 ]]; then
        if has_label 'startswith("kokua-accept-")'; then
            note 'A `kokua-accept-` label accepts another set of widenings: this push widens differently, so it fails again.\n'
        fi
        note 'To accept exactly these widenings, add the label `%s`.\n' "$label"
    fi
fi
# A config with errors fails whatever a label accepts, and a failed run fails with its code.
if [[ $broken -eq 1 && $status -eq 0 ]]; then
    status=1
fi
if [[ $failed -gt 0 ]]; then
    status=$failed
fi

# One pull-request comment, updated on each push: the first comment whose body starts with the
# marker AND whose author is the token's own login, so that a comment anyone else wrote with the
# marker is never edited (nor trusted). The login is KOKUA_DIFF_COMMENT_LOGIN when given (the
# action gives github-actions[bot], GITHUB_TOKEN's login), else the token's own as gh finds it
# (GraphQL's viewer answers for an app's installation token, where REST's /user does not). When
# it cannot be told, a new comment is made. A token that cannot write (a pull request from a
# fork) warns, and the summary still has the report.
if [[ "${KOKUA_DIFF_COMMENT:-false}" == "true" ]]; then
    gh="${KOKUA_GH:-gh}"
    pr="${KOKUA_DIFF_PR:-}"
    repo="${GITHUB_REPOSITORY:-}"
    if [[ ! "$pr" =~ ^[0-9]+$ || ! "$repo" =~ ^[0-9A-Za-z_.-]+/[0-9A-Za-z_.-]+$ ]]; then
        echo "::warning title=kokua-compile diff::no pull request to comment on (KOKUA_DIFF_PR, GITHUB_REPOSITORY); the report is in the job summary"
    else
        login="${KOKUA_DIFF_COMMENT_LOGIN:-}"
        if [[ -z "$login" ]]; then
            login="$("$gh" api graphql -f 'query={viewer{login}}' --jq .data.viewer.login 2>/dev/null)" || login=''
        fi
        if [[ -z "$login" ]]; then
            login="$("$gh" api user --jq .login 2>/dev/null)" || login=''
        fi
        id=''
        if [[ "$login" =~ ^[0-9A-Za-z][0-9A-Za-z-]*(\[bot\])?$ ]]; then
            id="$("$gh" api --paginate "repos/$repo/issues/$pr/comments" 2>/dev/null |
                jq -r --arg marker "$marker" --arg login "$login" \
                    '.[]? | select(type == "object" and .user.login == $login and (.body | type) == "string" and (.body | startswith($marker))) | .id' 2>/dev/null |
                head -n 1)" || id=''
        else
            echo "::warning title=kokua-compile diff::cannot tell the token's login (give KOKUA_DIFF_COMMENT_LOGIN), so a new comment is made rather than one updated"
        fi
        if [[ "$id" =~ ^[0-9]+$ ]]; then
            "$gh" api --method PATCH "repos/$repo/issues/comments/$id" -F "body=@$body" >/dev/null ||
                echo "::warning title=kokua-compile diff::could not update the pull-request comment $id; the report is in the job summary"
        else
            "$gh" api --method POST "repos/$repo/issues/$pr/comments" -F "body=@$body" >/dev/null ||
                echo "::warning title=kokua-compile diff::could not comment on the pull request; the report is in the job summary"
        fi
    fi
fi
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
    echo "widened=$widened" >>"$GITHUB_OUTPUT"
    echo "digest=$digest" >>"$GITHUB_OUTPUT"
fi
exit "$status"
