// Package version holds the one version of the kokua-policy tools: the
// version `--version` prints, the SARIF output gives its driver and the
// compiler writes into every policy. A release build carries the version it
// was stamped with (Stamped, set by scripts/build-release.sh and by the
// GitHub Action's build from the ref it was called at); any other build takes
// it from the module's build information, so `go install ...@v1.2.0` says
// its tag, a build from a commit its pseudo-version, and nothing says a
// version it is not.
package version

import (
	"runtime/debug"
	"strings"
)

// Devel is the version of a build that carries no module version: a test
// binary, or a build from a checkout without version control information
// (go build -buildvcs=false).
const Devel = "devel"

// Stamped is the version a build was given at link time, empty otherwise:
//
//	go build -ldflags "-X github.com/kokua-policy/kokua-policy/internal/version.Stamped=v1.2.0" ./cmd/kokua-lint
//
// It is a variable only so that the linker can set it; nothing else writes it.
var Stamped string

// Version is the version of kokua-lint, kokua-compile and kokua-run: Stamped
// when the build was given one, the build information's otherwise.
var Version = resolve(Stamped, FromBuildInfo(debug.ReadBuildInfo()))

// resolve is the stamped version when there is one, the version from build
// information otherwise.
func resolve(stamped, fromBuildInfo string) string {
	if stamped != "" {
		return stamped
	}
	return fromBuildInfo
}

// FromBuildInfo is the version that build information gives: the main
// module's version (a tag such as v1.2.0, or a pseudo-version such as
// v0.0.0-20260102150405-0123456789ab, with +dirty for a modified
// checkout), or Devel when it has none.
func FromBuildInfo(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return Devel
	}
	switch v := info.Main.Version; v {
	case "", "(devel)":
		return Devel
	default:
		return v
	}
}

// Semantic is v as a Semantic Versioning 2.0.0 version, the form SARIF's
// semanticVersion takes: without the leading "v" of a Go module version,
// and ok only when the rest is one (MAJOR.MINOR.PATCH, numbers without
// leading zeros, then an optional -pre-release and +build, each of dotted
// identifiers of [0-9A-Za-z-], a numeric pre-release identifier without
// leading zeros). A pseudo-version is one; Devel, and a stamped version
// that is no version, are not.
func Semantic(v string) (string, bool) {
	s, ok := strings.CutPrefix(v, "v")
	if !ok {
		return "", false
	}
	core, build, hasBuild := strings.Cut(s, "+")
	core, pre, hasPre := strings.Cut(core, "-")
	nums := strings.Split(core, ".")
	if len(nums) != 3 || hasBuild && !identifiers(build, false) || hasPre && !identifiers(pre, true) {
		return "", false
	}
	for _, n := range nums {
		if !number(n) {
			return "", false
		}
	}
	return s, true
}

// identifiers reports whether s is dot-separated identifiers of
// [0-9A-Za-z-], none empty; numeric ones, in a pre-release, without
// leading zeros.
func identifiers(s string, pre bool) bool {
	for _, id := range strings.Split(s, ".") {
		if id == "" || strings.Trim(id, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-") != "" {
			return false
		}
		if pre && strings.Trim(id, "0123456789") == "" && !number(id) {
			return false
		}
	}
	return true
}

// number reports whether s is a decimal number without leading zeros.
func number(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == "" && (s == "0" || s[0] != '0')
}
