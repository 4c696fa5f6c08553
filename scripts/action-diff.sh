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
#                           each push (found by its marker); needs gh, GH_TOKEN, GITHUB_REPOSITORY
#                           and KOKUA_DIFF_PR (the pull request's number)
#   KOKUA_GH                the gh binary (default: gh on PATH)
# Each config's graded changes are also printed as annotations (--format github) on the lines of
# the new config that caused them.
# A shallow checkout that lacks the base commit fetches that one commit from origin (only a
# commit SHA is fetched; any other revision must already be in the clone).
#
# A config that is not at the base, or whose base version has errors (Kokua refuses it, so it
# grants nothing), has nothing to compare with: it is noted in the summary and does not fail.
# Exit: 0 nothing reaches KOKUA_DIFF_FAIL_ON (or allowed, or accepted by the label of its digest),
# 1 something does or a config has errors, 2 bad inputs (a base that cannot be found, an
# unreadable config or manifest, a bad KOKUA_DIFF_FAIL_ON).
set -euo pipefail

base="${KOKUA_DIFF_BASE:-}"
compile="${KOKUA_COMPILE:-kokua-compile}"
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
trap 'rm -f "$body" "$digests"' EXIT
marker='<!-- kokua-policy-diff -->'
printf '%s\n' "$marker" >"$body"
# note writes to the summary and the comment; every caller passes a literal format.
# shellcheck disable=SC2059
note() { printf "$@" >>"$summary"; printf "$@" >>"$body"; }

status=0
widened=false
for config in "${configs[@]}"; do
    if ! git cat-file -e "$base:./$config" 2>/dev/null; then
        note '### Policy diff: `%s`\n\nNew file: nothing at the base to compare with.\n\n' "$config"
        echo "action-diff: $config is new at this revision; nothing to compare"
        continue
    fi
    # The human report to the log, without --allow-widen: exit 1 is a widening or a side with
    # errors, which the markdown run (with --allow-widen) tells apart: it writes a report only
    # when both sides load.
    code=0
    "$compile" diff "${flags[@]}" --fail-on "$fail_on" --format human -- "$config" || code=$?
    if [[ $code -gt 1 ]]; then
        note '### Policy diff: `%s`\n\nNot compared: kokua-compile exited %d; the log says why.\n\n' "$config" "$code"
        status=2
        continue
    fi
    report=0
    md="$("$compile" diff "${flags[@]}" --allow-widen --format markdown -- "$config" 2>/dev/null)" || report=$?
    if [[ $report -eq 0 ]]; then
        note '%s\n\n' "$md"
        # The annotations, on the new config's lines.
        "$compile" diff "${flags[@]}" --allow-widen --format github -- "$config" 2>/dev/null || true
        d="$(printf '%s\n' "$md" | sed -n 's/^<!-- kokua-widenings: sha256:\([0-9a-f]\{64\}\) -->$/\1/p')"
        if [[ -n "$d" ]]; then
            printf '%s %s\n' "$d" "$config" >>"$digests"
        fi
        if [[ $code -eq 1 ]]; then
            widened=true
            if [[ "$allow" == "true" ]]; then
                echo "action-diff: $config widens what some agent can do; allowed (allow-widen)"
                code=0
            fi
        fi
    elif "$compile" diff --allow-widen "${manifest[@]}" -- "$config" "$config" >/dev/null 2>&1; then
        # Only the base has errors: Kokua refused it, so there is nothing to compare with.
        note '### Policy diff: `%s`\n\nThe base version has errors (Kokua refuses it), so there is nothing to compare with.\n\n' "$config"
        echo "action-diff: $config has errors at the base; nothing to compare"
        code=0
    else
        note '### Policy diff: `%s`\n\nNot compared: this version has errors; the log lists them.\n\n' "$config"
        code=1
    fi
    if [[ $code -gt $status ]]; then
        status=$code
    fi
done

# The acceptance: one digest for every config's widenings (each config's own digest and its path,
# sorted), 12 hex digits. A label kokua-accept-<digest> accepts exactly these widenings: a later
# push that widens further has another digest, and fails again until it is accepted anew.
digest=''
if [[ -s "$digests" ]]; then
    digest="$(LC_ALL=C sort "$digests" | sha256sum | cut -c1-12)"
    label="kokua-accept-$digest"
    if [[ $status -eq 1 ]] && printf '%s' "${KOKUA_DIFF_LABELS:-}" | grep -qF "\"$label\""; then
        echo "action-diff: the label $label accepts these widenings"
        note '**Accepted** by the label `%s`: these widenings, and no others.\n' "$label"
        status=0
    elif [[ $status -eq 1 ]]; then
        if printf '%s' "${KOKUA_DIFF_LABELS:-}" | grep -qF '"kokua-accept-'; then
            note 'A `kokua-accept-` label accepts another set of widenings: this push widens differently, so it fails again.\n'
        fi
        note 'To accept exactly these widenings, add the label `%s`.\n' "$label"
    fi
fi

# One pull-request comment, found by its marker and updated on each push; a token that cannot
# write (a pull request from a fork) warns, and the summary still has the report.
if [[ "${KOKUA_DIFF_COMMENT:-false}" == "true" ]]; then
    gh="${KOKUA_GH:-gh}"
    pr="${KOKUA_DIFF_PR:-}"
    repo="${GITHUB_REPOSITORY:-}"
    if [[ ! "$pr" =~ ^[0-9]+$ || ! "$repo" =~ ^[0-9A-Za-z_.-]+/[0-9A-Za-z_.-]+$ ]]; then
        echo "::warning title=kokua-compile diff::no pull request to comment on (KOKUA_DIFF_PR, GITHUB_REPOSITORY); the report is in the job summary"
    else
        id="$("$gh" api --paginate "repos/$repo/issues/$pr/comments" \
            --jq ".[] | select(.body | startswith(\"$marker\")) | .id" 2>/dev/null | head -n 1)" || id=''
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
