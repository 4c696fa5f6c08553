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

// TestSemantic: the versions SARIF's semanticVersion may carry, as
// Semantic Versioning 2.0.0 defines them, and those it may not.
func TestSemantic(t *testing.T) {
	for v, want := range map[string]string{
		"v1.2.0":                             "1.2.0",
		"v0.1.0-rc.1":                        "0.1.0-rc.1",
		"v0.0.0-20261202184502-a2e2ad5b1a0a": "0.0.0-20261202184502-a2e2ad5b1a0a",
		"v0.0.0-20261202184502-a2e2ad5b1a0a+dirty": "0.0.0-20261202184502-a2e2ad5b1a0a+dirty",
		"v1.2.3-0.20261202184502-a2e2ad5b1a0a":     "1.2.3-0.20261202184502-a2e2ad5b1a0a",
		"v10.20.30+build.7":                        "10.20.30+build.7",
		Devel:                                      "",
		"1.2.0":                                    "",
		"v1.2":                                     "",
		"v01.2.0":                                  "",
		"v1.2.0-01":                                "",
		"v1.2.0-":                                  "",
		"v1.2.0+":                                  "",
		"v1.2.0-a..b":                              "",
		"v1.2.0-a_b":                               "",
		"vx.y.z":                                   "",
		"":                                         "",
	} {
		got, ok := Semantic(v)
		if got != want || ok != (want != "") {
			t.Errorf("Semantic(%q) = %q, %v; want %q, %v", v, got, ok, want, want != "")
		}
	}
}
