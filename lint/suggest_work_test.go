package lint

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
)

// TestNearMissSuggestionsCostFarBelowNSquared lints n near-miss names of
// each kind that gets a did-you-mean from a long list (tools of a
// toolset, agents, toolsets) and counts the candidates the suggestions
// compared a name with (not a clock): comparing each name with every
// candidate, as the rules once did, compares n² of them (issue 18: 3,000
// near-miss tool names took 9 s). Each list is indexed once per lint.
func TestNearMissSuggestionsCostFarBelowNSquared(t *testing.T) {
	const n = 1500
	tools, toolsManifest := gen.NearMissManifest(n)
	cases := []struct {
		name             string
		config, manifest []byte
		want             string // a did-you-mean the findings must hold
	}{
		{"dead entries near tools", tools, toolsManifest, "'tool_1234'"},
		{"unknown delegates near agents", nearMissDelegates(n), nil, "'agent_1234'"},
		{"unknown toolsets near toolsets", nearMissToolsets(n), toolsetsManifest(n), "'ts_1234'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := DefaultManifest()
			if tc.manifest != nil {
				if m = LoadManifest(Source{Name: "manifest.json", Data: tc.manifest}); engine.ManifestOf(m).Manifest == nil {
					t.Fatalf("the generated manifest does not load: %v", engine.ManifestOf(m).Problems)
				}
			}
			before := similar.Compared()
			res := Lint(Source{Name: "config.toml", Data: tc.config}, m)
			work := similar.Compared() - before
			found := false
			for _, d := range res.Diagnostics {
				found = found || strings.Contains(d.Message+strings.Join(d.Notes, "\n")+d.Suggestion, tc.want)
			}
			if !found {
				t.Fatalf("no finding suggests %s among %d findings", tc.want, len(res.Diagnostics))
			}
			t.Logf("%d near misses: %d candidates compared", n, work)
			if limit := int64(n * n / 20); work > limit {
				t.Errorf("%d near misses compared %d candidates for their suggestions, want at most %d (n²/20)", n, work, limit)
			}
		})
	}
}

// nearMissDelegates declares n agents and has each delegate to its own
// name with one rune too many: n unknown delegates.
func nearMissDelegates(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[assistant]\nagent = \"agent_0\"\n\n")
	for i := range n {
		fmt.Fprintf(&b, "[agents.agent_%d]\ndescription = \"a\"\ndelegates_to = [\"agent_%dx\"]\n\n", i, i)
	}
	return b.Bytes()
}

// toolsetsManifest registers n toolsets ts_0, ts_1, ... of one tool, of
// kind kokua (a manifest with none of that kind describes no install).
func toolsetsManifest(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"manifest_version":1,"toolsets":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"ts_%d","kind":"kokua","description":"d","tools":[{"name":"x%d"}]}`, i, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// nearMissToolsets makes the entry agent's available list name each
// toolset of toolsetsManifest with one rune too many.
func nearMissToolsets(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[assistant]\nagent = \"assistant\"\n\n[agents.assistant]\ndescription = \"a\"\n\n[agents.assistant.tools]\navailable = [\n")
	for i := range n {
		fmt.Fprintf(&b, "  \"ts_%dx\",\n", i)
	}
	b.WriteString("]\n")
	return b.Bytes()
}
