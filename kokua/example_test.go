package kokua_test

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/kokua"
)

// A host reads approval entries as Kokua does: a toolset's tool, a whole
// toolset, a core tool, and whether two entries gate a tool in common.
func ExampleParseEntry() {
	for _, text := range []string{"compute.run_command", "compute", "core.spawn_subagent"} {
		e := kokua.ParseEntry(text)
		fmt.Printf("%s: toolset %q tool %q whole %v core %v\n", e.Text, e.Toolset, e.Tool, e.Whole(), e.IsCore())
	}
	fmt.Println(kokua.EntriesOverlap(kokua.ParseEntry("compute"), kokua.ParseEntry("compute.run_command")))
	// Output:
	// compute.run_command: toolset "compute" tool "run_command" whole false core false
	// compute: toolset "compute" tool "" whole true core false
	// core.spawn_subagent: toolset "core" tool "spawn_subagent" whole false core true
	// true
}

// A host checks a toolset name against the names Kokua reserves, and
// lists the core tools in the order Kokua presents them.
func ExampleReserved() {
	for _, name := range []string{"core", "all", "web"} {
		if why, reserved := kokua.Reserved(name); reserved {
			fmt.Printf("%s: reserved: %s\n", name, why)
		} else {
			fmt.Printf("%s: free\n", name)
		}
	}
	fmt.Println(kokua.CoreTools())
	// Output:
	// core: reserved: it is the approval prefix for the tools no toolset provides
	// all: reserved: it is the keyword of available = "all"
	// web: free
	// [spawn_subagent activate_skill available_tools load_tools]
}
