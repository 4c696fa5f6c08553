package diag_test

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
)

// A fix is data: edits in byte offsets of the file. Apply makes the edits
// of the fixes it can take together and says which it made (their
// indices); a fix that
// overlaps one taken before it is left for the next run.
func ExampleApply() {
	src := []byte(`confirm = ["mcp.add_mcp_servr"]` + "\n")
	start := len(`confirm = ["`)
	end := start + len("mcp.add_mcp_servr")
	fixes := []diag.Fix{
		{Title: "Write 'mcp.add_mcp_server'", Safe: true,
			Edits: []diag.Edit{{Start: start, End: end, New: "mcp.add_mcp_server"}}},
		{Title: "Write 'mcp.remove_mcp_server'", Safe: true,
			Edits: []diag.Edit{{Start: start, End: end, New: "mcp.remove_mcp_server"}}},
	}
	out, made := diag.Apply(src, fixes)
	fmt.Print(string(out))
	for _, i := range made {
		fmt.Println("made:", fixes[i].Title)
	}
	// Output:
	// confirm = ["mcp.add_mcp_server"]
	// made: Write 'mcp.add_mcp_server'
}
