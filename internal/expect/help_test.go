package expect_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/expect"
)

// TestFailureHelp (issue 38): each failing pair says what would make it
// hold, the least change first, and always that the claim itself may be
// what is wrong; each selector that matches nothing says what to write.
func TestFailureHelp(t *testing.T) {
	side := shipped(t)
	for _, tc := range []struct{ name, claim, help string }{
		{"ungated, wanted asking", `agent = "coder"` + "\n" + `tool = "compute.calculate"` + "\n" + `decision = "asks"`,
			"add 'compute.calculate' to confirm or review in [assistant.tools]"},
		{"ungated, wanted confirm, inherited pair", `agent = "researcher"` + "\n" + `tool = "web.web_search"` + "\n" + `decision = "confirm"`,
			"add 'web.web_search' to confirm in [assistant.tools]"},
		{"held, wanted unavailable", `agent = "coder"` + "\n" + `tool = "compute.calculate"` + "\n" + `decision = "unavailable"`,
			"drop 'compute' from [agents.coder.tools].available"},
		{"gated, wanted run", `agent = "coder"` + "\n" + `tool = "compute.run_command"` + "\n" + `decision = "run"`,
			"remove the entry 'compute.run_command' in [assistant.tools].review, which gates it"},
		{"review, wanted confirm", `agent = "coder"` + "\n" + `tool = "compute.run_command"` + "\n" + `decision = "confirm"`,
			"move the entry 'compute.run_command' in [assistant.tools].review to confirm"},
		{"gated, wanted denied, attended", `agent = "coder"` + "\n" + `tool = "compute.run_command"` + "\n" + `decision = "denied"`,
			"write unattended = true in the claim"},
		{"unattended and ungated, wanted denied", `agent = "coder"` + "\n" + `tool = "compute.calculate"` + "\n" + `decision = "denied"` + "\n" + `unattended = true`,
			"add 'compute.calculate' to confirm or review in [assistant.tools]: an unattended turn denies every gated call"},
		{"unavailable, wanted run", `agent = "researcher"` + "\n" + `tool = "compute.calculate"` + "\n" + `decision = "run"`,
			"the agent does not hold 'compute': add it to [agents.researcher.tools].available"},
		{"not loaded in the claim's session", `agent = "assistant"` + "\n" + `tool = "mcp.add_mcp_server"` + "\n" + `decision = "confirm"` + "\n" + `loaded = []`,
			"'mcp' is deferred, and the claim's session has not loaded it: add it to the claim's loaded list"},
		{"reached through delegation", `agent = "assistant"` + "\n" + `tool = "compute.calculate"` + "\n" + `decision = "not run"` + "\n" + `reach = true`,
			"; or drop 'coder' from delegates_to of 'assistant', so that 'assistant' no longer reaches it"},
		{"a composed worker, wanted asking", `agent = "composed"` + "\n" + `tool = "compute.calculate"` + "\n" + `decision = "asks"`,
			"composed workers get [assistant.tools]'s pair: add 'compute.calculate' to its confirm or review"},
	} {
		r := one(t, side, tc.claim)
		if r.Passed || len(r.Failures) == 0 {
			t.Errorf("%s: the claim holds", tc.name)
			continue
		}
		h := r.Failures[0].Help
		if !strings.Contains(h, tc.help) || !strings.HasSuffix(h, "; or change the claim, if it is what is wrong") {
			t.Errorf("%s: help %q; want it to say %q", tc.name, h, tc.help)
		}
		if rep := (&expect.Report{Results: []expect.Result{r}}).Results[0].Explain(); !strings.Contains(rep, "  help: "+h) {
			t.Errorf("%s: the explanation has no help: line:\n%s", tc.name, rep)
		}
	}
}

// TestEveryFailingClaimHasHelp: over every agent of the shipped config
// (and composed workers), every toolset and every decision word, with and
// without reach and unattended, each failing pair has a help, and each
// selector that matches nothing (misspelled agents and tools among them)
// a suggestion: no failing claim is left without a help: line.
func TestEveryFailingClaimHasHelp(t *testing.T) {
	side := shipped(t)
	agents := []string{"assistant", "researcher", "coder", "introspector", "composed", "*", "reseacher", "nobody"}
	tools := []string{"compute", "compute.run_command", "fs_write", "fs", "web", "mcp", "skills.add_skill_script", "core.load_tools", "config", "time", "nosuch.tool", "comput", "run_command", "*"}
	words := []string{"run", "confirm", "review", "not_loaded", "unavailable", "denied", "asks", "not run"}
	failed := 0
	for _, a := range agents {
		for _, tool := range tools {
			for _, w := range words {
				for _, extra := range []string{"", "\nreach = true", "\nunattended = true", "\nloaded = []"} {
					if a == "composed" && extra == "\nloaded = []" || strings.Contains(extra, "reach") && a == "composed" {
						continue
					}
					claim := fmt.Sprintf("agent = %q\ntool = %q\ndecision = %q%s", a, tool, w, extra)
					r := one(t, side, claim)
					if r.Passed {
						continue
					}
					failed++
					for _, f := range r.Failures {
						if f.Help == "" {
							t.Errorf("%q: %s %s fails with no help", claim, f.Agent, f.Tool)
						}
					}
					for _, d := range r.Problems {
						if d.Suggestion == "" {
							t.Errorf("%q: %s has no help", claim, d.Message)
						}
					}
				}
			}
		}
	}
	if failed < 500 {
		t.Errorf("only %d claims failed; the sweep checks too little", failed)
	}
}
