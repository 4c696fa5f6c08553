package migrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/lint"
)

// Loss is a gate the migrated config drops: the input wrote no
// [assistant.tools], so Kokua's built-in pair applied to it (R9, A2), and
// the [assistant.tools] the migration wrote replaces that pair whole
// (R10), without this entry's tools, which the agents that inherit it (and
// composed workers) now call unasked. The migration is right to write
// what the old keys said; what the team loses against today's default is
// theirs to decide, so it is said, not undone.
type Loss struct {
	// Entry is the built-in pair's entry, and List its list there
	// (confirm or review).
	Entry, List string
	// Tools are its tools the migrated pair leaves ungated, toolset.tool.
	Tools []string
	// Agents call them unasked: the agents that inherit the pair and hold
	// the toolset, and "composed workers" when they can build it.
	Agents []string
}

// Message is the note migrate prints for the loss: the tools, who calls
// them unasked, and the entry that keeps their gate.
func (l Loss) Message() string {
	what := "its tools " + strings.Join(l.Tools, ", ") + " run"
	if len(l.Tools) == 1 {
		what = l.Tools[0] + " runs"
	}
	return fmt.Sprintf("Kokua's built-in pair %s %q, and the [assistant.tools] written here replaces that pair without it, so %s unasked for %s; to keep the gate, add %q to [assistant.tools].%s",
		verb(l.List), l.Entry, what, strings.Join(l.Agents, ", "), l.Entry, l.List)
}

func verb(list string) string {
	if list == "review" {
		return "reviews"
	}
	return "confirms"
}

// losses are the gates the migrated output drops against Kokua's built-in
// pair, in the built-in pair's order: none unless the input had no
// [assistant.tools] and the output writes one, and the output lints with
// a model to ask.
func losses(in *config.Config, out *engine.Linted) []Loss {
	if in == nil || !in.DefaultPair.Confirm.Builtin || out == nil || out.World == nil || out.Config == nil || out.Config.DefaultPair.Confirm.Builtin {
		return nil
	}
	w := out.World
	gated := map[string]bool{}
	for _, l := range []config.List{w.Default.Confirm, w.Default.Review} {
		for _, it := range l.Items {
			for _, t := range w.Resolve(it.Value).Tools {
				gated[t] = true
			}
		}
	}
	var lost []Loss
	for _, l := range []struct {
		name    string
		entries []string
	}{{"confirm", config.DefaultConfirm}, {"review", config.DefaultReview}} {
		for _, e := range l.entries {
			r := w.Resolve(e)
			if r.Toolset == nil {
				continue
			}
			ts := r.Toolset.Name
			var agents []string
			for _, a := range w.Agents {
				if a.Known && a.Policy != nil && a.Policy.Agent == nil && a.Holds(ts) {
					agents = append(agents, fmt.Sprintf("%q", a.Name))
				}
			}
			if w.Composable(ts) {
				agents = append(agents, "composed workers")
			}
			var tools []string
			for _, t := range r.Tools {
				if !gated[t] {
					tools = append(tools, ts+"."+t)
				}
			}
			if len(tools) > 0 && len(agents) > 0 {
				lost = append(lost, Loss{Entry: e, List: l.name, Tools: slices.Clip(tools), Agents: agents})
			}
		}
	}
	return lost
}

// LostGates are the gates of Kokua's built-in pair that after drops
// against before: what kokua-lint --fix says when moving the removed
// approval lists writes an [assistant.tools] into a file that had none,
// as migrate says it of its own output (docs/migrate.md). None when
// before writes an [assistant.tools], or either side cannot be read.
func LostGates(before, after lint.Source, m *lint.Manifest) []Loss {
	in, err := config.Load(before.Name, before.Data)
	if err != nil || !in.DefaultPair.Confirm.Builtin {
		return nil
	}
	return losses(in, engine.Run(after, m))
}
