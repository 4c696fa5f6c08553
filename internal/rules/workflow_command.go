package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// reservedCommands are the entry agent's own slash commands, which no
// workflow may take (R129): stop, diag, and the conversation commands,
// which pre-split Kokua defines as new, conversations and switch (deleting
// and renaming a conversation happen in the web UI only).
var reservedCommands = []string{"stop", "diag", "new", "conversations", "switch"}

// workflow-command: the slash commands of the workflows the entry agent can
// reach collide or are malformed (R129, A24). Availability decides, not
// residency: a command exists whether or not its toolset is loaded. Only
// checked when the manifest carries workflow data.
var workflowCommandRule = &Rule{
	ID:       "workflow-command",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R129", "A24"},
	Summary:  "a workflow command of the entry agent is malformed, reserved or offered twice",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		a := p.World.EntryAgent
		if a == nil || !a.Known {
			return
		}
		key := ""
		if a.Tools != nil {
			key = a.Tools.Available.Path
		}
		taken := map[string]*model.Toolset{}
		for _, t := range a.Avail {
			wf := t.Workflow
			if wf == nil {
				continue
			}
			report := func(format string, args ...any) {
				p.Report(Finding{Span: wf.Span, Key: key, Message: fmt.Sprintf("workflow of toolset %s, on entry agent %s: ", q(t.Name), q(a.Name)) + fmt.Sprintf(format, args...)})
			}
			cmd := wf.Command
			switch {
			case wf.Name != t.Name:
				report("its name %s differs from its toolset's name", q(wf.Name))
			case cmd == "" || cmd != strings.ToLower(cmd) || strings.IndexFunc(cmd, unicode.IsSpace) >= 0:
				// Dispatch lowercases what was typed and matches one token
				// without white space, so only such a command is reachable.
				report("command %s is not one lowercase word without white space", q(cmd))
			case slices.Contains(reservedCommands, cmd):
				report("command /%s is reserved for the entry agent's own commands", printable.Escape(cmd))
			case taken[cmd] != nil:
				report("command /%s is offered by toolset %s too", printable.Escape(cmd), q(taken[cmd].Name))
			default:
				taken[cmd] = t
			}
		}
	},
}
