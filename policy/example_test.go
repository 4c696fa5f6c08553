package policy_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/policy"
)

// config is the config the examples compile: the coder's run_command
// goes to review, and its MCP admin toolset is not resident: it loads on
// demand.
const config = `[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = []

[agents.assistant]
delegates_to = ["coder"]

[agents.assistant.tools]
available = ["time", "fs"]

[agents.coder.tools]
available = ["compute", "fs", "time", "mcp"]
resident = ["compute", "fs", "time"]
review = ["compute.run_command"]
`

// A host loads the policy file kokua-compile wrote and asks whether an
// agent may call a tool, and why.
func ExamplePolicy_Decide() {
	doc, _, err := compile.Compile([]byte(config), nil, compile.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := compile.Write(doc, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "policy-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = os.RemoveAll(dir) }()
	path := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fmt.Println(err)
		return
	}

	p, err := policy.Load(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range []struct{ agent, tool string }{
		{"coder", "compute.run_command"},
		{"coder", "read_file"},
		{"assistant", "compute.run_command"},
	} {
		a := p.Decide(q.agent, q.tool, policy.Turn{})
		fmt.Printf("%s %s: %s (%s)\n", q.agent, q.tool, a.Decision, a.Reason.Summary)
	}
	fmt.Println(p.Decide("coder", "compute.run_command", policy.Turn{Unattended: true}).Decision)
	// Output:
	// coder compute.run_command: review (the call goes to review: entry "compute.run_command" in [agents.coder.tools].review (declared))
	// coder read_file: run (the call runs: no entry of the agent's confirm or review list names it)
	// assistant compute.run_command: unavailable (the agent can never call it: no toolset it declares provides it)
	// denied
}

// A session follows one conversation: a deferred toolset's tools become
// callable once the model loads it.
func ExamplePolicy_NewSession() {
	doc, _, err := compile.Compile([]byte(config), nil, compile.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := compile.Write(doc, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := policy.Parse("policy.json", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := p.NewSession("coder")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("loadable:", s.Loadable())
	fmt.Println(s.Decide("mcp.add_mcp_server", policy.Turn{}).Decision)
	fmt.Println("load:", s.Load("mcp").Added)
	fmt.Println(s.Decide("mcp.add_mcp_server", policy.Turn{}).Decision)
	// Output:
	// loadable: [mcp]
	// not_loaded
	// load: [add_mcp_server remove_mcp_server]
	// run
}
