#!/usr/bin/env bash
# Prints the release notes of a tag: the body of its entry in CHANGELOG.md (`## [1.2.0] - DATE`),
# which must be the latest released entry, so that a tag cannot be pushed before its changelog
# entry, nor for a version older than the one the docs pin. The release workflow
# (.github/workflows/release.yml) runs it before building.
#
#   bash scripts/release-notes.sh v1.2.0 > notes.md
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "release-notes: $*" >&2; exit 1; }

[[ $# -eq 1 ]] || { echo "usage: bash scripts/release-notes.sh TAG" >&2; exit 2; }
tag="$1"
[[ "$tag" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] ||
    { echo "release-notes: a release tag is v1.2.0 or v1.3.0-rc.1, not '$tag'" >&2; exit 2; }
version="${tag#v}"
changelog="$repo_root/CHANGELOG.md"

# The version of the first released entry, the newest one.
latest="$(sed -n -E 's/^## \[([0-9][^]]*)\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$/\1/p' "$changelog" | head -1)"
[[ -n "$latest" ]] || fail "CHANGELOG.md has no released entry (## [$version] - YYYY-MM-DD): give the Unreleased section this version and a date first"
[[ "$latest" == "$version" ]] || fail "CHANGELOG.md's latest released entry is $latest, not $version: the tag and the changelog disagree"

awk -v head="## [$version] - " '
    index($0, head) == 1 { inside = 1; next }
    inside && /^## / { exit }
    inside { print }
' "$changelog" | sed -e '/./,$!d'
