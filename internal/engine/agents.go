package engine

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// WriteAgents writes the human view of each agent of a world, in the
// spirit of Kokua's `kokua agents` (R96): what it can reach, what it holds
// from the start, what it loads on demand, and which tools ask first and
// where that policy comes from. It is what kokua-compile agents prints.
func WriteAgents(out io.Writer, w *model.World) error {
	var b bytes.Buffer
	for i, a := range w.Agents {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeAgent(&b, w, a)
	}
	if w.Composes {
		b.WriteByte('\n')
		line(&b, "composed workers (%s<label>, built by compose_subagent)", kokua.ComposedPrefix)
		line(&b, "  available: the whole registry but capabilities and entry-point-only toolsets, built when composed")
		line(&b, "  confirm: %s (default tier, always)", composedGated(w, w.Default.Confirm.Values()))
		line(&b, "  review: %s (default tier, always)", composedGated(w, w.Default.Review.Values()))
	}
	_, err := out.Write(b.Bytes())
	return err
}

// WriteAgent writes the human view of one agent of a world: the block
// WriteAgents writes for it.
func WriteAgent(out io.Writer, w *model.World, a *model.Agent) error {
	var b bytes.Buffer
	writeAgent(&b, w, a)
	_, err := out.Write(b.Bytes())
	return err
}

// line writes one line of the view. The names in it come from the config
// and the manifest, so the whole line goes through printable.String: no
// control or bidirectional character of a name reaches the terminal, and
// a line feed in one cannot start a line of its own.
func line(b *bytes.Buffer, format string, args ...any) {
	b.WriteString(printable.String(fmt.Sprintf(format, args...)))
	b.WriteByte('\n')
}

func writeAgent(b *bytes.Buffer, w *model.World, a *model.Agent) {
	title := a.Name
	switch {
	case a.Entry:
		title += " (entry agent)"
	case !a.Reachable:
		title += " (not reachable from the entry agent)"
	}
	line(b, "%s", title)
	avail := strings.Join(names(a.Avail), ", ")
	if a.All {
		avail = fmt.Sprintf("all (%d): %s", len(a.Avail), avail)
	}
	if avail == "" {
		avail = "nothing"
	}
	line(b, "  available: %s", avail)
	resident := "every available toolset"
	if a.Tools != nil && a.Tools.Resident.State == config.Present {
		resident = orNone(names(a.Resident))
	}
	line(b, "  resident: %s", resident)
	line(b, "  loads on demand: %s", orNone(names(a.Deferred)))
	if len(a.Skills) > 0 {
		line(b, "  skills (through SkillAgent): %s", strings.Join(names(a.Skills), ", "))
	}
	if len(a.DelegatesTo.Items) > 0 {
		line(b, "  delegates to: %s", strings.Join(a.DelegatesTo.Values(), ", "))
	}
	source := "declared in " + a.Policy.Table()
	if a.Policy.Agent == nil {
		source = "inherited from " + kokua.DefaultTierLabel
	}
	line(b, "  confirm: %s (%s)", gated(w, a, a.Policy.Confirm.Values()), source)
	line(b, "  review: %s (%s)", gated(w, a, a.Policy.Review.Values()), source)
}

// composedGated lists what the default tier gates for a composed worker,
// which builds everything it is composed from (R64).
func composedGated(w *model.World, entries []string) string {
	var out []string
	for _, e := range entries {
		r := w.Resolve(e)
		if r.Toolset != nil && (r.Toolset.EntryPointOnly || r.Toolset.Name == kokua.Capabilities) {
			continue
		}
		for _, t := range r.Tools {
			// A composed worker neither delegates nor defers; of the core
			// tools it can hold only activate_skill.
			if r.Toolset == nil && t != kokua.ActivateSkill {
				continue
			}
			out = append(out, t)
		}
	}
	return orNone(out)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// gated lists the tools a list gates for this agent: the ones it can reach,
// with "when <toolset> loads" for those a pending entry holds back.
func gated(w *model.World, a *model.Agent, entries []string) string {
	var out []string
	for _, e := range entries {
		r := w.Resolve(e)
		if r.Toolset != nil && !a.Holds(r.Toolset.Name) {
			continue // an inherited entry inert for this agent (R76)
		}
		for _, t := range r.Tools {
			if r.Toolset == nil && !a.HoldsCore(t) {
				continue
			}
			if r.Toolset != nil && r.Pending {
				t += " (when " + r.Toolset.Name + " loads)"
			}
			out = append(out, t)
		}
	}
	return orNone(out)
}
