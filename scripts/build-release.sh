#!/usr/bin/env bash
# Builds the release binaries of kokua-lint, kokua-compile and kokua-run, the version stamped in,
# and their SHA256SUMS. The release workflow (.github/workflows/release.yml) runs it for every
# platform on a v* tag; .ci/run runs it for the platform it runs on, so that it cannot rot.
#
#   bash scripts/build-release.sh [-o DIR] VERSION [GOOS/GOARCH...]
#
# VERSION is a tag such as v1.2.0 or v1.3.0-rc.1. The platforms default to linux, darwin and
# windows on amd64 and arm64. DIR (default dist, created; it must not hold anything yet) gets one
# file per command and platform, named COMMAND-GOOS-GOARCH (.exe on windows), and SHA256SUMS, in
# sha256sum's format (`sha256sum -c SHA256SUMS` checks them), sorted by name.
#
# Each binary is static (CGO_ENABLED=0), built with -trimpath and without version control
# information (-buildvcs=false), stripped (-s -w), the version stamped with -ldflags into
# internal/version.Stamped, so the same source, Go and VERSION give the same bytes. Then each
# binary's build settings are checked with `go version -m`, and the binaries this machine can run
# are run with --version, which must print VERSION.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
module=github.com/kokua-policy/kokua-policy
commands=(kokua-lint kokua-compile kokua-run)
all_platforms=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)

usage() { echo "usage: bash scripts/build-release.sh [-o DIR] VERSION [GOOS/GOARCH...]" >&2; exit 2; }
fail() { echo "build-release: $*" >&2; exit 1; }

out=dist
while getopts o: opt; do
    case "$opt" in
        o) out="$OPTARG" ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 && -n "$out" ]] || usage
version="$1"
shift
[[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] ||
    { echo "build-release: the version is a tag such as v1.2.0 or v1.3.0-rc.1, not '$version'" >&2; exit 2; }
platforms=("$@")
[[ ${#platforms[@]} -gt 0 ]] || platforms=("${all_platforms[@]}")
for p in "${platforms[@]}"; do
    [[ " ${all_platforms[*]} " == *" $p "* ]] ||
        { echo "build-release: '$p' is not a release platform (${all_platforms[*]})" >&2; exit 2; }
done

if [[ -e "$out" ]] && [[ ! -d "$out" || -n "$(ls -A "$out")" ]]; then
    fail "$out exists and is not an empty folder: nothing is overwritten"
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"

sha256() {
    if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi
}

host="$(go env GOHOSTOS)/$(go env GOHOSTARCH)"
start=$SECONDS
names=()
for p in "${platforms[@]}"; do
    goos="${p%/*}" goarch="${p#*/}"
    ext=''
    [[ "$goos" == windows ]] && ext=.exe
    for c in "${commands[@]}"; do
        name="$c-$goos-$goarch$ext"
        CGO_ENABLED=0 GOOS="$goos" GOARCH="$goarch" go -C "$repo_root" build -trimpath -buildvcs=false \
            -ldflags "-s -w -X $module/internal/version.Stamped=$version" -o "$out/$name" "./cmd/$c"
        # What the binary says of its own build: static, trimmed, for its platform. (-trimpath keeps
        # -ldflags out of it: the stamp is checked by running the binary.)
        info="$(go version -m "$out/$name")"
        for want in $'\tbuild\tCGO_ENABLED=0' $'\tbuild\t-trimpath=true' $'\tbuild\tGOOS='"$goos" $'\tbuild\tGOARCH='"$goarch"; do
            [[ "$info" == *"$want"* ]] || fail "$name: go version -m does not show '${want//$'\t'/ }'"
        done
        if [[ "$p" == "$host" ]]; then
            got="$("$out/$name" --version)"
            [[ "$got" == "$c version $version" ]] || fail "$name --version printed '$got', want '$c version $version'"
        fi
        names+=("$name")
        printf '%-34s %6d KiB\n' "$name" "$(( $(wc -c < "$out/$name") / 1024 ))"
    done
done

mapfile -t sorted < <(printf '%s\n' "${names[@]}" | LC_ALL=C sort)
(cd "$out" && sha256 -- "${sorted[@]}" > SHA256SUMS && sha256 -c --quiet SHA256SUMS) || fail "SHA256SUMS does not check"
checked=''
[[ " ${platforms[*]} " == *" $host "* ]] && checked=", those for $host run with --version"
echo "build-release: ${#names[@]} binaries of $version and SHA256SUMS in $out ($((SECONDS - start))s$checked)"
