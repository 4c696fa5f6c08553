#!/usr/bin/env bash
# The diff mode of the GitHub Action (action.yml, `mode: diff` or `both`): diffs each config as it
# is at the pull request's base against the checkout (`kokua-compile diff --base`, which reads the
# old side with `git show`), writes the human report to the log and the markdown one to the job
# summary, and fails when a config widens what some agent can do. docs/diff.md and docs/ci.md show
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
#                           widened, --allow-widen or not)
# A shallow checkout that lacks the base commit fetches that one commit from origin (only a
# commit SHA is fetched; any other revision must already be in the clone).
#
# A config that is not at the base, or whose base version has errors (Kokua refuses it, so it
# grants nothing), has nothing to compare with: it is noted in the summary and does not fail.
# Exit: 0 nothing widened (or allowed), 1 something widened or a config has errors, 2 bad inputs
# (a base that cannot be found, an unreadable config or manifest).
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
flags=(--base "$base" "${manifest[@]}")
allow="${KOKUA_DIFF_ALLOW_WIDEN:-false}"
summary="${GITHUB_STEP_SUMMARY:-/dev/stdout}"

status=0
widened=false
for config in "${configs[@]}"; do
    if ! git cat-file -e "$base:./$config" 2>/dev/null; then
        printf '### Policy diff: `%s`\n\nNew file: nothing at the base to compare with.\n\n' "$config" >>"$summary"
        echo "action-diff: $config is new at this revision; nothing to compare"
        continue
    fi
    # The human report to the log, without --allow-widen: exit 1 is a widening or a side with
    # errors, which the markdown run (with --allow-widen) tells apart: it writes a report only
    # when both sides load.
    code=0
    "$compile" diff "${flags[@]}" --format human -- "$config" || code=$?
    if [[ $code -gt 1 ]]; then
        printf '### Policy diff: `%s`\n\nNot compared: kokua-compile exited %d; the log says why.\n\n' "$config" "$code" >>"$summary"
        status=2
        continue
    fi
    report=0
    md="$("$compile" diff "${flags[@]}" --allow-widen --format markdown -- "$config" 2>/dev/null)" || report=$?
    if [[ $report -eq 0 ]]; then
        printf '%s\n\n' "$md" >>"$summary"
        if [[ $code -eq 1 ]]; then
            widened=true
            if [[ "$allow" == "true" ]]; then
                echo "action-diff: $config widens what some agent can do; allowed (allow-widen)"
                code=0
            fi
        fi
    elif "$compile" diff --allow-widen "${manifest[@]}" -- "$config" "$config" >/dev/null 2>&1; then
        # Only the base has errors: Kokua refused it, so there is nothing to compare with.
        printf '### Policy diff: `%s`\n\nThe base version has errors (Kokua refuses it), so there is nothing to compare with.\n\n' "$config" >>"$summary"
        echo "action-diff: $config has errors at the base; nothing to compare"
        code=0
    else
        printf '### Policy diff: `%s`\n\nNot compared: this version has errors; the log lists them.\n\n' "$config" >>"$summary"
        code=1
    fi
    if [[ $code -gt $status ]]; then
        status=$code
    fi
done
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
    echo "widened=$widened" >>"$GITHUB_OUTPUT"
fi
exit "$status"
