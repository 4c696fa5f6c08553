#!/usr/bin/env bash
# The policy explorer of the GitHub Action (action.yml, with `mode: diff` or `both`): writes
# `kokua-compile report` of each config, compared with its version at the base (--base, which
# reads the old side with `git show`), into one folder the action uploads as an artifact. A config
# that is not at the base, or whose base version has errors, gets its page without the comparison;
# a config with errors gets none (the diff step has said why). docs/explorer.md and docs/ci.md
# show how to use it.
#
# Every input comes from the environment, never from the script's text:
#   KOKUA_REPORT_DIR       the folder to write the pages into; required
#   KOKUA_REPORT_BASE      the base revision (the pull request's base SHA), or empty
#   KOKUA_REPORT_CONFIGS   the configs, one path a line (or separated by spaces)
#   KOKUA_REPORT_MANIFEST  a registry manifest, optional
#   KOKUA_COMPILE          the kokua-compile binary (default: kokua-compile on PATH)
#   GITHUB_OUTPUT          when set, gets count=N, the pages written
# Each page is named after its config's path, with / written as __: config.toml.html,
# agents__team.toml.html. Exit: 0 (pages written or not), 2 bad inputs or a page that could not
# be written.
set -euo pipefail

dir="${KOKUA_REPORT_DIR:-}"
compile="${KOKUA_COMPILE:-kokua-compile}"
base="${KOKUA_REPORT_BASE:-}"
if [[ -z "$dir" ]]; then
    echo "action-report: KOKUA_REPORT_DIR is empty: give the folder to write the pages into" >&2
    exit 2
fi
if [[ "$base" == -* ]]; then
    echo "action-report: KOKUA_REPORT_BASE is not a revision: $base" >&2
    exit 2
fi
mapfile -t configs < <(printf '%s\n' "${KOKUA_REPORT_CONFIGS:-config.toml}" | tr ' ' '\n' | sed '/^$/d')
manifest=()
if [[ -n "${KOKUA_REPORT_MANIFEST:-}" ]]; then
    manifest=(--manifest "$KOKUA_REPORT_MANIFEST")
fi
mkdir -p "$dir"
# kokua-compile report's findings (a config with errors) quote the config: they reach the log
# through log_inert, which stops the runner's workflow commands around them.
# shellcheck source=scripts/action-log.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/action-log.sh"
errs="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/kokua-report-stderr.XXXXXX")"
trap 'rm -f "$errs"' EXIT
count=0
for config in "${configs[@]}"; do
    page="$dir/${config//\//__}.html"
    code=1
    # At the base, the config's symbolic links are followed as kokua-compile report --base follows
    # them (git cat-file --follow-symlinks); one that leads nowhere is not "no base" but an error.
    at_base=''
    if [[ -n "$base" ]]; then
        at_base="$(printf '%s:./%s\n' "$base" "$config" | git cat-file --batch-check --follow-symlinks 2>/dev/null)" || at_base=''
    fi
    if [[ -n "$at_base" && "$at_base" != "$base:./$config missing" ]]; then
        code=0
        "$compile" report --base "$base" "${manifest[@]}" -o "$page" -- "$config" >"$errs" 2>&1 || code=$?
        log_inert "$errs"
    fi
    if [[ $code -eq 1 ]]; then
        # No base to compare with, or a base with errors: the page of the config alone.
        code=0
        "$compile" report "${manifest[@]}" -o "$page" -- "$config" >"$errs" 2>&1 || code=$?
        log_inert "$errs"
    fi
    case $code in
        0) echo "action-report: wrote $page"; count=$((count + 1)) ;;
        1) echo "action-report: $config has errors; no page" ;;
        *) echo "action-report: kokua-compile report exited $code for $config" >&2; exit 2 ;;
    esac
done
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
    echo "count=$count" >>"$GITHUB_OUTPUT"
fi
