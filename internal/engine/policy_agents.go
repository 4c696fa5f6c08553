package engine

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// WritePolicyAgents writes the human view of each agent of a compiled
// policy, as WriteAgents writes it of a config: what each agent can reach,
// holds from the start and loads on demand, whom it delegates to, and
// which tools of what it holds each list of its pair gates, with where the
// pair comes from. A policy keeps its agents by name, not in the config's
// order, so the entry agent comes first and the others follow by name; a
// composed worker's block says only that it gets the default tier.
func WritePolicyAgents(out io.Writer, doc *policy.Document) error {
	var names []string
	for name := range doc.Agents {
		if name != doc.EntryAgent {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if _, ok := doc.Agents[doc.EntryAgent]; ok {
		names = append([]string{doc.EntryAgent}, names...)
	}
	var b bytes.Buffer
	for i, name := range names {
		if i > 0 {
			b.WriteByte('\n')
		}
		writePolicyAgent(&b, doc, name, doc.Agents[name])
	}
	if doc.Composed.Possible {
		b.WriteByte('\n')
		line(&b, "composed workers (%s<label>, built by compose_subagent)", kokua.ComposedPrefix)
		line(&b, "  available: the whole registry but capabilities and entry-point-only toolsets, built when composed")
		line(&b, "  confirm: %s (default tier, always)", composedPolicyGated(doc, &doc.DefaultTier.Confirm))
		line(&b, "  review: %s (default tier, always)", composedPolicyGated(doc, &doc.DefaultTier.Review))
	}
	_, err := out.Write(b.Bytes())
	return err
}

func writePolicyAgent(b *bytes.Buffer, doc *policy.Document, name string, a *policy.Agent) {
	title := name
	switch {
	case a.Entry:
		title += " (entry agent)"
	case !a.Reachable:
		title += " (not reachable from the entry agent)"
	}
	line(b, "%s", title)
	avail := strings.Join(a.Available.Expanded, ", ")
	if a.Available.All {
		avail = fmt.Sprintf("all (%d): %s", len(a.Available.Expanded), avail)
	}
	if avail == "" {
		avail = "nothing"
	}
	line(b, "  available: %s", avail)
	resident := "every available toolset"
	if a.ResidentDeclared {
		resident = orNone(a.Resident)
	}
	line(b, "  resident: %s", resident)
	line(b, "  loads on demand: %s", orNone(a.Deferred))
	if len(a.Skills) > 0 {
		line(b, "  skills (through SkillAgent): %s", strings.Join(a.Skills, ", "))
	}
	if len(a.DelegatesTo) > 0 {
		line(b, "  delegates to: %s", strings.Join(a.DelegatesTo, ", "))
	}
	confirm, review, source := &doc.DefaultTier.Confirm, &doc.DefaultTier.Review, "inherited from "+kokua.DefaultTierLabel
	if a.Approval.Source == kokua.Declared && a.Approval.Confirm != nil && a.Approval.Review != nil {
		confirm, review, source = a.Approval.Confirm, a.Approval.Review, "declared in "+a.Approval.Table
	}
	line(b, "  confirm: %s (%s)", policyGated(a, confirm), source)
	line(b, "  review: %s (%s)", policyGated(a, review), source)
}

// policyGated lists the tools a list gates for an agent, as gated does: an
// entry on a toolset the agent does not hold (in its availability, or a
// skill the entry agent holds through SkillAgent) is inert for it (R76), a core
// tool counts when the agent holds it, and a pending entry's tools are
// gated when their toolset loads.
func policyGated(a *policy.Agent, l *policy.List) string {
	var out []string
	for _, e := range l.Entries {
		if e.Status == policy.StatusInactive {
			continue
		}
		if e.Toolset != "" && e.Toolset != kokua.Core && !slices.Contains(a.Available.Expanded, e.Toolset) && !slices.Contains(a.Skills, e.Toolset) {
			continue
		}
		if e.Status == policy.StatusPending {
			for _, t := range e.ToolsWhenBuilt {
				out = append(out, t+" (when "+e.Toolset+" loads)")
			}
			continue
		}
		for _, t := range e.Tools {
			if (e.Toolset == "" || e.Toolset == kokua.Core) && !slices.Contains(a.CoreTools, t) {
				continue
			}
			out = append(out, t)
		}
	}
	return orNone(out)
}

// composedPolicyGated lists what a default-tier list gates for a composed
// worker, as composedGated does: it builds everything it is composed from,
// so a pending entry gates its tools from the start, but never an
// entry-point-only toolset or capabilities, and of the core tools it can
// hold only activate_skill.
func composedPolicyGated(doc *policy.Document, l *policy.List) string {
	var out []string
	for _, e := range l.Entries {
		if e.Status == policy.StatusInactive {
			continue
		}
		core := e.Toolset == "" || e.Toolset == kokua.Core
		if !core {
			if t := doc.Toolsets[e.Toolset]; e.Toolset == kokua.Capabilities || t != nil && t.EntryPointOnly {
				continue
			}
		}
		for _, t := range append(slices.Clip(e.Tools), e.ToolsWhenBuilt...) {
			if core && t != kokua.ActivateSkill {
				continue
			}
			out = append(out, t)
		}
	}
	return orNone(out)
}
