package rules

import (
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/model"
)

// TestLoadersNote covers every branch of the "Agents that could load"
// note: agents Kokua builds, none at all, one agent nothing reaches, two,
// "them" for more than one toolset, and composed workers, alone or after
// the agents that hold the toolset.
func TestLoadersNote(t *testing.T) {
	m, problems := manifest.Load(manifest.DefaultManifestName, manifest.DefaultManifest())
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	const config1 = `[assistant]
agent = "assistant"

[agents.assistant.tools]
available = ["time"]

[agents.loner.tools]
available = ["time", "mcp"]
resident = ["time"]

[agents.hermit.tools]
available = ["time", "mcp", "memory"]
resident = ["time"]

[agents.worker.tools]
available = ["time", "web"]
resident = ["time"]
`
	cfg, err := config.Load("config.toml", []byte(config1))
	if err != nil {
		t.Fatal(err)
	}
	w := model.Build(cfg, m)
	for _, c := range []struct {
		toolsets []string
		want     string
	}{
		{[]string{"documents"}, "Agents that could load it: none."},
		{[]string{"documents", "scheduling"}, "Agents that could load them: none."},
		{[]string{"memory"}, "Agents that could load it: none, since Kokua never builds 'hermit', the one agent holding it: no chain of delegates_to from the entry agent reaches it."},
		{[]string{"mcp"}, "Agents that could load it: none, since Kokua never builds 'loner' and 'hermit', the agents holding it: no chain of delegates_to from the entry agent reaches them."},
		{[]string{"mcp", "memory"}, "Agents that could load them: none, since Kokua never builds 'loner' and 'hermit', the agents holding them: no chain of delegates_to from the entry agent reaches them."},
	} {
		if got := loaders(w, c.toolsets...); got != c.want {
			t.Errorf("loaders(%v):\n got %s\nwant %s", c.toolsets, got, c.want)
		}
	}

	// With capabilities held by the entry agent, a composed worker can
	// load any toolset but capabilities itself: alone when no agent holds
	// the toolset, after the agents that do otherwise.
	const config2 = `[assistant]
agent = "assistant"

[agents.assistant.tools]
available = ["time", "capabilities"]
resident = ["time", "capabilities"]
`
	cfg2, err := config.Load("config.toml", []byte(config2))
	if err != nil {
		t.Fatal(err)
	}
	w2 := model.Build(cfg2, m)
	for _, c := range []struct {
		toolsets []string
		want     string
	}{
		{[]string{"documents"}, "Agents that could load it: composed workers."},
		{[]string{"time"}, "Agents that could load it: 'assistant', composed workers."},
		{[]string{"capabilities"}, "Agents that could load it: 'assistant'."},
	} {
		if got := loaders(w2, c.toolsets...); got != c.want {
			t.Errorf("loaders(%v) with capabilities held:\n got %s\nwant %s", c.toolsets, got, c.want)
		}
	}
}
