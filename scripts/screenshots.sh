#!/usr/bin/env bash
# Takes the policy explorer's screenshots for docs/explorer.md and README.md into docs/img/ with
# tools/screenshots, in Debian's Chromium (apt-get install chromium). Run from anywhere:
# bash scripts/screenshots.sh, then commit the PNGs it lists.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v chromium >/dev/null || { echo "screenshots: chromium is not on PATH (apt-get install chromium)" >&2; exit 1; }
mkdir -p docs/img
go run ./tools/screenshots docs/img
