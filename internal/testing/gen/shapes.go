package gen

import (
	"bytes"
	"fmt"
)

// The shapes of issue 18 (item 2): inputs whose findings once cost the
// square of their size, each a config checked against the default install
// (NearMissManifest also brings its manifest). Each takes n, the number of
// findings it gives; 3,000 is the size the issue measured.

// UnknownDelegates is a config of n agents besides the entry agent, each
// delegating to one agent nobody declares: n unknown-delegate findings,
// each of which once listed every agent in a note.
func UnknownDelegates(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant]\ndelegates_to = [")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"a%d\"", i)
	}
	b.WriteString("]\n\n[agents.assistant.tools]\navailable = [\"time\"]\n")
	for i := range n {
		fmt.Fprintf(&b, "\n[agents.a%d]\ndelegates_to = [\"ghost%d\"]\n", i, i)
	}
	return b.Bytes()
}

// PendingDeadEntries is a config whose entry agent delegates to agents
// agents, each holding the deferred 'mcp' toolset, and whose confirm list
// holds entries entries under 'mcp' that name no tool of it, one a line:
// entries pending-dead-entry findings, each of which once named every
// agent that could load 'mcp'.
func PendingDeadEntries(agents, entries int) []byte {
	var b bytes.Buffer
	b.WriteString("[assistant.tools]\nconfirm = [\n")
	for i := range entries {
		fmt.Fprintf(&b, "  \"mcp.nope%d\",\n", i)
	}
	b.WriteString("]\n\n[agents.assistant]\ndelegates_to = [")
	for i := range agents {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"w%d\"", i)
	}
	b.WriteString("]\n\n[agents.assistant.tools]\navailable = [\"time\"]\n")
	for i := range agents {
		fmt.Fprintf(&b, "\n[agents.w%d.tools]\navailable = [\"mcp\"]\nresident = []\n", i)
	}
	return b.Bytes()
}

// DeadLine is a config whose confirm list holds n entries under the
// resident 'time' toolset that name no tool of it, all on one line: n
// dead-entry findings on one line of about 13 bytes an entry.
func DeadLine(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[assistant.tools]\nconfirm = [")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"time.x%d\"", i)
	}
	b.WriteString("]\n\n[agents.assistant.tools]\navailable = [\"time\"]\n")
	return b.Bytes()
}

// NearMissManifest is a manifest of one resident toolset 'p' of n
// tools, and a config whose confirm list names each of them misspelt (a
// letter added), one a line: n dead-entry findings, each of which looks
// for the closest of the n tool names.
func NearMissManifest(n int) (config, manifest []byte) {
	var m bytes.Buffer
	m.WriteString("{\n  \"manifest_version\": 1,\n  \"toolsets\": [\n    {\"name\": \"p\", \"kind\": \"kokua\", \"description\": \"Generated.\", \"tools\": [\n")
	for i := range n {
		if i > 0 {
			m.WriteString(",\n")
		}
		fmt.Fprintf(&m, "      {\"name\": \"tool_%d\"}", i)
	}
	m.WriteString("\n    ]}\n  ]\n}\n")
	var c bytes.Buffer
	c.WriteString("[assistant.tools]\nconfirm = [\n")
	for i := range n {
		fmt.Fprintf(&c, "  \"p.tool_%dx\",\n", i)
	}
	c.WriteString("]\n\n[agents.assistant.tools]\navailable = [\"p\"]\n")
	return c.Bytes(), m.Bytes()
}

// DelegationChain is a config of a chain of n agents, each delegating to
// the next and back to the first: n delegation cycles, the i-th of i
// agents, whose messages once named every agent of their cycle.
func DelegationChain(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant]\ndelegates_to = [\"c0\"]\n\n[agents.assistant.tools]\navailable = [\"time\"]\n")
	for i := range n {
		fmt.Fprintf(&b, "\n[agents.c%d]\ndelegates_to = [", i)
		if i+1 < n {
			fmt.Fprintf(&b, "\"c%d\", ", i+1)
		}
		b.WriteString("\"c0\"]\n")
	}
	return b.Bytes()
}

// BareEntries is a config whose review list holds n bare "run_command"
// entries, one a line: n entry-shape findings, each with one safe fix
// ("compute.run_command"). The shape of issue 37 (item 1) whose findings
// with a fix once cost the square of their number, each looking at the
// whole file for its line ends, and whose --fix and --diff compared each
// fix with every fix taken before it.
func BareEntries(n int) []byte {
	var b bytes.Buffer
	b.Grow(80 + 16*n)
	b.WriteString("[assistant.tools]\nconfirm = []\nreview = [\n")
	for range n {
		b.WriteString("  \"run_command\",\n")
	}
	b.WriteString("]\n\n[agents.assistant.tools]\navailable = [\"compute\", \"time\"]\n")
	return b.Bytes()
}

// The shapes of issue 37 (item 2): delegation deep enough that listing
// each agent's view and every hop of each path once cost the square of
// the depth. Each is a config of the default install.

// RiskChain is a config of a chain of n agents, c0 delegating to c1, c1
// to c2 and so on, after the entry agent: c0 reads the web, the last agent
// holds compute, and the agents between hold only time, passing the work
// on; with everywhere, every agent of the chain reads the web too. Each
// agent's view is the rest of the chain, and c0's path to compute crosses
// all of it.
func RiskChain(n int, everywhere bool) []byte {
	var b bytes.Buffer
	b.WriteString("[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant]\ndelegates_to = [\"c0\"]\n\n[agents.assistant.tools]\navailable = [\"time\"]\n")
	for i := range n {
		fmt.Fprintf(&b, "\n[agents.c%d]\ndelegates_to = [", i)
		if i+1 < n {
			fmt.Fprintf(&b, "\"c%d\"", i+1)
		}
		b.WriteString("]\n\n")
		avail := `"time"`
		if i == 0 || everywhere {
			avail = `"web"`
		}
		if i == n-1 {
			avail += `, "compute"`
		}
		fmt.Fprintf(&b, "[agents.c%d.tools]\navailable = [%s]\n", i, avail)
	}
	return b.Bytes()
}

// RiskDiamond is a config of depth levels of two agents each, every agent
// delegating to both agents of the next level, after the entry agent: the
// first level reads the web and the last holds compute. Each agent's view
// is every level below it, reached by 2 to the depth ways.
func RiskDiamond(depth int) []byte {
	var b bytes.Buffer
	b.WriteString("[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant]\ndelegates_to = [\"d0a\", \"d0b\"]\n\n[agents.assistant.tools]\navailable = [\"time\"]\n")
	for i := range depth {
		for _, side := range []string{"a", "b"} {
			fmt.Fprintf(&b, "\n[agents.d%d%s]\ndelegates_to = [", i, side)
			if i+1 < depth {
				fmt.Fprintf(&b, "\"d%da\", \"d%db\"", i+1, i+1)
			}
			b.WriteString("]\n\n")
			avail := `"time"`
			if i == 0 {
				avail = `"web"`
			}
			if i == depth-1 {
				avail += `, "compute"`
			}
			fmt.Fprintf(&b, "[agents.d%d%s.tools]\navailable = [%s]\n", i, side, avail)
		}
	}
	return b.Bytes()
}
