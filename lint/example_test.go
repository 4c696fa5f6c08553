package lint_test

import (
	"fmt"
	"os"

	"github.com/kokua-policy/kokua-policy/lint"
)

// A host lints a config held in memory against the embedded default
// install, reads the findings as data, and prints them as kokua-lint
// does.
func ExampleLint() {
	cfg := lint.Source{Name: "config.toml", Data: []byte(`[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = []

[agents.assistant.tools]
available = ["fs", "mcp"]
confirm = ["mcp.add_mcp_servr"]
`)}
	m := lint.DefaultManifest()
	res := lint.Lint(cfg, m)
	fmt.Println("Kokua's config:", res.Kokua, "errors:", res.HasErrors())
	for _, d := range res.Diagnostics {
		fmt.Printf("%s %s at %s, key %s\n", d.Severity, d.Rule, d.Span, d.Key)
	}
	err := lint.Write(os.Stdout, "human", res.Diagnostics, lint.WriteOptions{
		Sources: map[string][]byte{cfg.Name: cfg.Data},
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// Kokua's config: true errors: true
	// error dead-entry at config.toml:10:12, key [agents.assistant.tools].confirm
	// config.toml:10:12: error: [agents.assistant.tools].confirm has an entry that would gate nothing: 'mcp.add_mcp_servr' names no tool the 'mcp' toolset provides. [dead-entry]
	//   10 | confirm = ["mcp.add_mcp_servr"]
	//      |            ^~~~~~~~~~~~~~~~~~~
	//   note: Did you mean 'add_mcp_server' or 'remove_mcp_server'?
	//   note: The call it was written to stop runs with no prompt.
	//   help: write 'mcp.add_mcp_server'
	// 1 error, 0 warnings, 0 info
}

// A manifest read from bytes says whether it follows the format before
// any config is checked against it.
func ExampleLoadManifest() {
	m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: []byte(`{"toolsets": 3}`)})
	fmt.Println(m.Err())
	fmt.Println(len(lint.DefaultManifest().Toolsets()) > 0)
	// Output:
	// manifest.json:1:1: the manifest is missing "manifest_version" (this linter reads version 1)
	// manifest.json:1:14: the manifest.toolsets must be an array, not a number
	// true
}

// A host lists the rules, as kokua-lint --list-rules does: each with its
// severity, when Kokua meets the problem, and the kinds of fix it offers.
func ExampleRules() {
	for _, r := range lint.Rules() {
		switch r.ID {
		case "dead-entry", "unknown-toolset", "no-agents":
			fmt.Println(r.ID, r.Severity, r.Phase, r.Fixes)
		}
	}
	// Output:
	// dead-entry error resolve [safe]
	// no-agents error parse []
	// unknown-toolset error validate [unsafe]
}
