// Package version holds the one version of the kokua-policy tools: the
// version `--version` prints, the SARIF output gives its driver and the
// compiler writes into every policy. It comes from the module's build
// information, so a release build says its tag, a build from a commit its
// pseudo-version, and nothing says a version it is not.
package version

import "runtime/debug"

// Devel is the version of a build that carries no module version: a test
// binary, or a build from a checkout without version control information
// (go build -buildvcs=false).
const Devel = "devel"

// Version is the version of kokua-lint, kokua-compile and kokua-run, read
// once from the running binary's build information.
var Version = FromBuildInfo(debug.ReadBuildInfo())

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
