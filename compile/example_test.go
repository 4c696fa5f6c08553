package compile_test

import (
	"errors"
	"fmt"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/policy"
)

// A host compiles a config's bytes against the embedded default install
// (a nil manifest), seals the document as kokua-compile writes it, and
// loads it as the runtime does.
func ExampleCompile() {
	config := []byte(`[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = []

[agents.assistant.tools]
available = ["fs", "compute"]
review = ["compute.run_command"]
`)
	doc, diagnostics, err := compile.Compile(config, nil, compile.Options{ConfigName: "config.toml"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(diagnostics), "findings; inputs:", doc.Inputs.Config.File, doc.Inputs.Manifest.File)
	fmt.Println("entry agent:", doc.EntryAgent, "available:", doc.Agents["assistant"].Available.Expanded)

	data, err := compile.Write(doc, nil) // nil: unsigned
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := policy.Parse("policy.json", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Decide("assistant", "compute.run_command", policy.Turn{}).Decision)
	// Output:
	// 0 findings; inputs: config.toml <default install>
	// entry agent: assistant available: [fs compute]
	// review
}

// A config with an error finding gives no document: the error wraps
// ErrFindings, and the diagnostics say what is wrong, where.
func ExampleCompile_findings() {
	config := []byte(`[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = []

[agents.assistant.tools]
available = ["fs", "compute"]
review = ["compute.run_comand"]
`)
	doc, diagnostics, err := compile.Compile(config, nil, compile.Options{ConfigName: "config.toml"})
	fmt.Println(doc == nil, errors.Is(err, compile.ErrFindings))
	for _, d := range diagnostics {
		fmt.Printf("%s %s %s: %s\n", d.Span, d.Severity, d.Rule, d.Message)
		fmt.Println("help:", d.Suggestion)
	}
	// Output:
	// true true
	// config.toml:10:11 error dead-entry: [agents.assistant.tools].review has an entry that would gate nothing: 'compute.run_comand' names no tool the 'compute' toolset provides.
	// help: write 'compute.run_command'
}
