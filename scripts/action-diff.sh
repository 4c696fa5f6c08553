#!/usr/bin/env bash
# The pull-request mode of the GitHub Action: diffs each config as it is at the pull request's base
# against its head (`kokua-compile diff --base`, which reads the old side with `git show`), writes
# the markdown report to the job summary and the human one to the log, and fails when a config
# widens what some agent can do. docs/diff.md shows how action.yml calls it.
#
# Every input comes from the environment, never from the script's text:
#   KOKUA_DIFF_BASE         the base revision (the pull request's base SHA); required
#   KOKUA_DIFF_CONFIGS      the configs to compare, one path a line (or separated by spaces)
#   KOKUA_DIFF_MANIFEST     a registry manifest, optional
#   KOKUA_DIFF_ALLOW_WIDEN  "true" to report a widening without failing
#   KOKUA_COMPILE           the kokua-compile binary (default: kokua-compile on PATH)
#   GITHUB_STEP_SUMMARY     the job summary file; without it the markdown goes to stdout
# A shallow checkout that lacks the base commit fetches it (one commit) from origin.
# Exit: 0 nothing widened (or allowed), 1 something widened, 2 bad inputs, or kokua-compile's
# own code (1 for a config with errors, 2 for an unreadable input).
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
    echo "action-diff: fetching $base from origin"
    git fetch --quiet --no-tags --depth=1 origin "$base"
fi

flags=(--base "$base")
if [[ -n "${KOKUA_DIFF_MANIFEST:-}" ]]; then
    flags+=(--manifest "$KOKUA_DIFF_MANIFEST")
fi
if [[ "${KOKUA_DIFF_ALLOW_WIDEN:-false}" == "true" ]]; then
    flags+=(--allow-widen)
fi
summary="${GITHUB_STEP_SUMMARY:-/dev/stdout}"

status=0
for config in "${configs[@]}"; do
    if ! git cat-file -e "$base:./$config" 2>/dev/null; then
        printf '### Policy diff: `%s`\n\nNew file: nothing at the base to compare with.\n\n' "$config" >>"$summary"
        echo "action-diff: $config is new at this revision; nothing to compare"
        continue
    fi
    code=0
    "$compile" diff "${flags[@]}" --format human -- "$config" || code=$?
    if [[ $code -le 1 ]]; then
        # The same comparison again, as markdown for the summary; its exit code is the one above.
        "$compile" diff "${flags[@]}" --format markdown -- "$config" >>"$summary" || true
        printf '\n' >>"$summary"
    fi
    if [[ $code -gt $status ]]; then
        status=$code
    fi
done
exit "$status"
