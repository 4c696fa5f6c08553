package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	for _, c := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, Devel},
		{&debug.BuildInfo{}, true, Devel},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, Devel},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, true, "v1.2.0"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20260102150405-0123456789ab+dirty"}}, true, "v0.0.0-20260102150405-0123456789ab+dirty"},
	} {
		if got := FromBuildInfo(c.info, c.ok); got != c.want {
			t.Errorf("%+v: %q, want %q", c.info, got, c.want)
		}
	}
}

// TestVersionOfThisBinary: a test binary carries no module version.
func TestVersionOfThisBinary(t *testing.T) {
	if Version != Devel {
		t.Errorf("Version is %q in a test binary, want %q", Version, Devel)
	}
}

func TestResolve(t *testing.T) {
	for _, c := range []struct{ stamped, info, want string }{
		{"", Devel, Devel},
		{"", "v1.2.0", "v1.2.0"},
		{"v1.3.0", Devel, "v1.3.0"},
		{"v1.3.0", "v0.0.0-20260102150405-0123456789ab", "v1.3.0"},
	} {
		if got := resolve(c.stamped, c.info); got != c.want {
			t.Errorf("resolve(%q, %q) = %q, want %q", c.stamped, c.info, got, c.want)
		}
	}
}
