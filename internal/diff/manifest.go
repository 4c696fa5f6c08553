package diff

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// The manifest is part of a change. Each side is compiled against its own
// manifest (kokua-compile diff --base reads the one at the base revision,
// --base-manifest names the old side's; a compiled policy carries the
// classes it was compiled with), so what a manifest edit does to an
// agent's answers shows in the agents section like any other change: a
// tool added to a toolset an agent holds is a tool the agent gains. What
// the answers cannot show is listed here, graded by the power it changes:
//
//   - a tool's capability classes changed: classes added to a tool some
//     agent can call are new power (high for exec, write, self-modify or
//     egress, medium for any other); classes removed from such a tool
//     make the gate judge it by less from now on (high). On a tool no
//     agent can call, classes added are info, classes removed medium,
//     since a later change that grants the tool is graded by what is
//     left;
//   - a tool added to or removed from a toolset, a toolset added to or
//     removed from the registry, an MCP server connected or disconnected:
//     graded as the tools it gives the agents that can call them (the
//     same grade their tool changes carry), info when no agent can;
//   - an MCP server's url moved to another host (or scheme, port or user),
//     or its token_env added, changed or removed, or the server added
//     with its url and token_env, for a server some agent can call: high,
//     with both values; a url whose path alone changed: medium (the same
//     host answers); any of these on a server no agent can call: info.
//
// The grading never judges a tool by fewer classes than the old side
// gave it: a change that clears a tool's classes and grants it in the
// same breath is graded, risk paths included, by the classes it cleared
// (judgedBy).

// ManifestChange is what changed between the two sides' manifests and
// MCP servers.
type ManifestChange struct {
	// Old and New are the manifest each side was compiled against, as the
	// policy records it (inputs.manifest).
	Old ManifestFile `json:"old"`
	New ManifestFile `json:"new"`
	// Differs is true when the two manifests' digests differ.
	Differs bool `json:"differs"`
	// Notes say what the comparison could not do, or did otherwise than
	// asked (a manifest not tracked at the base revision).
	Notes    []string          `json:"notes"`
	Tools    []ManifestTool    `json:"tools"`
	Toolsets []ManifestToolset `json:"toolsets"`
	Servers  []ServerChange    `json:"servers"`

	// headNotes is how many of Notes the headline repeats: those the
	// sides carry (Side.ManifestNote).
	headNotes int
}

// ManifestFile is one side's manifest: its name and SHA-256.
type ManifestFile struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// ManifestTool is one tool of a toolset both sides register whose entry
// changed: its classes, or the tool added to or removed from the toolset.
type ManifestTool struct {
	Toolset string `json:"toolset"`
	Tool    string `json:"tool"`
	// Change is "classes", "added" or "removed".
	Change     string        `json:"change"`
	OldClasses []kokua.Class `json:"old_classes"`
	NewClasses []kokua.Class `json:"new_classes"`
	// Callers are the agents that can call the tool (reachable, and
	// answered anything but unavailable): on the new side, or on the old
	// one for a removed tool; composed workers as composed:*.
	Callers []string `json:"callers"`
	// Widened is true when the change gives a caller more power: classes
	// added, or the tool added.
	Widened bool        `json:"widened"`
	At      Place       `json:"at"`
	Grade   reach.Grade `json:"grade"`

	counted bool
}

// ManifestToolset is a toolset added to or removed from the registry, or
// an MCP server connected or disconnected.
type ManifestToolset struct {
	Toolset string `json:"toolset"`
	Kind    string `json:"kind"`
	// Change is "added", "removed", "connected" or "disconnected".
	Change string `json:"change"`
	// Tools are the toolset's tools, with their classes on the side that
	// has them.
	Tools   []ClassedTool `json:"tools"`
	Callers []string      `json:"callers"`
	Widened bool          `json:"widened"`
	At      Place         `json:"at"`
	Grade   reach.Grade   `json:"grade"`

	counted bool
}

// ClassedTool is a tool with its classes.
type ClassedTool struct {
	Tool    string        `json:"tool"`
	Classes []kokua.Class `json:"classes"`
}

// ServerChange is a change to an [[mcp.server]] of the new config: its
// url or its token_env, Old "" for a server the old config does not
// declare. Old and New are the values as written (a url with its
// password hidden); a token's value is never read.
type ServerChange struct {
	Server string `json:"server"`
	// Field is "url" or "token_env".
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
	// Moved says how far a url moved: "host" when another host, port,
	// scheme or user answers, "path" when only the path, query or
	// fragment changed; "" for token_env.
	Moved string `json:"moved"`
	// Callers are the reachable agents whose available names the server on
	// the new side, and composed:* when composed workers can run.
	Callers []string    `json:"callers"`
	At      Place       `json:"at"`
	Grade   reach.Grade `json:"grade"`
}

// empty reports whether nothing but the manifest's digest (and notes)
// changed.
func (m *ManifestChange) empty() bool {
	return m == nil || len(m.Tools)+len(m.Toolsets)+len(m.Servers) == 0
}

// shown reports whether the report has anything to say about the
// manifest: it differs, a note, or a change.
func (m *ManifestChange) shown() bool {
	return m != nil && (m.Differs || len(m.Notes) > 0 || !m.empty())
}

// compareManifest compares the registries of two sides (their policies'
// toolsets, each compiled against its own manifest) and their MCP
// servers. o and n are the sides as loaded; judged is n as the report
// grades it (judgedBy), whose classes grade a tool added.
func compareManifest(o, n, judged *Side) *ManifestChange {
	od, nd := o.Policy.Document(), n.Policy.Document()
	m := &ManifestChange{
		Old:   ManifestFile{File: od.Inputs.Manifest.File, SHA256: od.Inputs.Manifest.SHA256},
		New:   ManifestFile{File: nd.Inputs.Manifest.File, SHA256: nd.Inputs.Manifest.SHA256},
		Notes: []string{}, Tools: []ManifestTool{}, Toolsets: []ManifestToolset{}, Servers: []ServerChange{},
	}
	m.Differs = m.Old != m.New && m.Old.SHA256 != m.New.SHA256
	for _, s := range []*Side{o, n} {
		if s.ManifestNote != "" {
			m.Notes = append(m.Notes, s.ManifestNote)
		}
	}
	m.headNotes = len(m.Notes)
	names := toolsetNames(od, nd)
	for _, name := range names {
		ot, nt := od.Toolsets[name], nd.Toolsets[name]
		switch {
		case ot == nil:
			m.Toolsets = append(m.Toolsets, registryChange(n, judged.Graph, name, "added"))
		case nt == nil:
			m.Toolsets = append(m.Toolsets, registryChange(o, o.Graph, name, "removed"))
		default:
			if (ot.LoadRefusal == "") != (nt.LoadRefusal == "") {
				c := registryChange(n, judged.Graph, name, "connected")
				if nt.LoadRefusal != "" {
					c = registryChange(o, o.Graph, name, "disconnected")
				}
				m.Toolsets = append(m.Toolsets, c)
			}
			m.Tools = append(m.Tools, toolChanges(o, n, judged.Graph, name)...)
		}
	}
	m.Servers = compareServers(o, n)
	if (o.Config == nil) != (n.Config == nil) || o.Config == nil {
		for _, name := range names {
			if t := nd.Toolsets[name]; t != nil && t.Kind == kokua.KindMCP {
				m.Notes = append(m.Notes, "an MCP server's url and token_env are not compared: a compiled policy does not carry them (compare the configs to see them)")
				break
			}
		}
	}
	sort.SliceStable(m.Tools, func(i, j int) bool { return m.Tools[i].Grade > m.Tools[j].Grade })
	sort.SliceStable(m.Toolsets, func(i, j int) bool { return m.Toolsets[i].Grade > m.Toolsets[j].Grade })
	sort.SliceStable(m.Servers, func(i, j int) bool { return m.Servers[i].Grade > m.Servers[j].Grade })
	return m
}

// toolsetNames are the toolsets either side registers, by name.
func toolsetNames(od, nd *policy.Document) []string {
	seen := map[string]bool{}
	for _, d := range []*policy.Document{od, nd} {
		for name := range d.Toolsets {
			seen[name] = true
		}
	}
	return reach.Sorted(seen)
}

// toolClasses are a toolset's tools and their classes, by name.
func toolClasses(t *policy.Toolset) map[string][]kokua.Class {
	out := map[string][]kokua.Class{}
	for _, tool := range t.Tools {
		out[tool.Name] = tool.Classes
	}
	return out
}

// toolChanges compares one toolset both sides register, tool by tool.
func toolChanges(o, n *Side, judged *reach.Graph, name string) []ManifestTool {
	oc, nc := toolClasses(o.Policy.Document().Toolsets[name]), toolClasses(n.Policy.Document().Toolsets[name])
	var out []ManifestTool
	for _, tool := range reach.Sorted(oc) {
		if _, ok := nc[tool]; !ok {
			c := ManifestTool{Toolset: name, Tool: tool, Change: "removed", OldClasses: classList(oc[tool]), NewClasses: []kokua.Class{},
				Callers: callers(o.Graph, name, tool), At: o.manifestPlace(name, tool, "")}
			c.Grade = narrowGrade(c.Callers)
			out = append(out, c)
		}
	}
	for _, tool := range reach.Sorted(nc) {
		old, had := oc[tool]
		c := ManifestTool{Toolset: name, Tool: tool, OldClasses: classList(old), NewClasses: classList(nc[tool]),
			Callers: callers(n.Graph, name, tool)}
		switch {
		case !had:
			c.Change, c.Widened, c.At = "added", len(c.Callers) > 0, n.manifestPlace(name, tool, "")
			c.Grade = widenGrade(judged, name, []string{tool}, c.Callers)
		case !slices.Equal(old, nc[tool]):
			c.Change, c.At = "classes", n.manifestPlace(name, tool, "classes")
			c.Grade, c.Widened = classGrade(old, nc[tool], len(c.Callers) > 0)
		default:
			continue
		}
		out = append(out, c)
	}
	return out
}

// classList is a list of classes, never nil (JSON's []).
func classList(cs []kokua.Class) []kokua.Class {
	if cs == nil {
		return []kokua.Class{}
	}
	return cs
}

// classGrade grades a change of a tool's classes: added classes are new
// power for whoever can call it, removed classes make every later
// comparison judge the tool by less. called is whether some agent can
// call the tool on the new side. widened is true for classes added to a
// tool some agent can call.
func classGrade(old, cur []kokua.Class, called bool) (g reach.Grade, widened bool) {
	added, removed := classMinus(cur, old), classMinus(old, cur)
	switch {
	case called && (reach.ToolGrade(added) == reach.High || len(removed) > 0):
		g = reach.High
	case called:
		g = reach.Medium
	case len(removed) > 0:
		g = reach.Medium
	default:
		g = reach.Info
	}
	return g, called && len(added) > 0
}

// classMinus is the classes of a not in b.
func classMinus(a, b []kokua.Class) []kokua.Class {
	var out []kokua.Class
	for _, c := range a {
		if !slices.Contains(b, c) {
			out = append(out, c)
		}
	}
	return out
}

// widenGrade grades tools that some agents can now call as a widened tool
// is graded (toolGrade: high for exec, write, self-modify or egress,
// medium otherwise); info when no agent can call them.
func widenGrade(g *reach.Graph, toolset string, tools []string, callers []string) reach.Grade {
	if len(callers) == 0 {
		return reach.Info
	}
	grade := reach.Medium
	for _, t := range tools {
		grade = max(grade, toolGrade(g, reach.Answer{Toolset: toolset, Tool: t}))
	}
	return grade
}

// narrowGrade grades what some agents can no longer call: a narrowing,
// ungraded, when some could; info when none could.
func narrowGrade(callers []string) reach.Grade {
	if len(callers) > 0 {
		return reach.NoGrade
	}
	return reach.Info
}

// registryChange is a toolset added to or removed from the registry, or
// connected or disconnected, read on the side that has it (or has it
// connected); g grades its tools.
func registryChange(s *Side, g *reach.Graph, name, change string) ManifestToolset {
	t := s.Policy.Document().Toolsets[name]
	c := ManifestToolset{Toolset: name, Kind: t.Kind, Change: change, Tools: []ClassedTool{}, Callers: []string{}, At: s.toolsetPlace(name)}
	var tools []string
	for _, tool := range t.Tools {
		c.Tools = append(c.Tools, ClassedTool{Tool: tool.Name, Classes: classList(tool.Classes)})
		tools = append(tools, tool.Name)
		for _, a := range callers(s.Graph, name, tool.Name) {
			if !slices.Contains(c.Callers, a) {
				c.Callers = append(c.Callers, a)
			}
		}
	}
	if t.Kind == kokua.KindMCP {
		// A server is called by whoever can reach it, tools listed or not
		// (serverCallers).
		for _, a := range serverCallers(s, name) {
			if !slices.Contains(c.Callers, a) {
				c.Callers = append(c.Callers, a)
			}
		}
	}
	sort.Strings(c.Callers)
	if change == "added" || change == "connected" {
		c.Widened = len(c.Callers) > 0
		c.Grade = widenGrade(g, name, tools, c.Callers)
	} else {
		c.Grade = narrowGrade(c.Callers)
	}
	return c
}

// callers are the agents that can call one tool of one toolset: reachable
// agents (composed workers among them) whose answer for it is anything
// but unavailable, in graph order. Answers are matched by their toolset
// and tool, never by a name built from the two.
func callers(g *reach.Graph, toolset, tool string) []string {
	out := []string{}
	for _, a := range g.Agents {
		if !a.Reachable {
			continue
		}
		for _, ans := range a.Answers {
			if ans.Toolset == toolset && ans.Tool == tool && ans.Level > reach.Unavailable {
				out = append(out, a.Name)
				break
			}
		}
	}
	return out
}

// serverCallers are the agents that can call an MCP server on a side:
// reachable agents whose available names it, and composed workers when
// they can run (they hold the registry). A server the manifest marks not
// connected counts: the url and the credential are what it connects with.
func serverCallers(s *Side, name string) []string {
	out := []string{}
	d := s.Policy.Document()
	for _, a := range s.Graph.Agents {
		switch {
		case !a.Reachable:
		case a.Composed:
			if d.Toolsets[name] != nil {
				out = append(out, a.Name)
			}
		case d.Agents[a.Name] != nil && slices.Contains(d.Agents[a.Name].Available.Expanded, name):
			out = append(out, a.Name)
		}
	}
	return out
}

// compareServers compares the [[mcp.server]] tables of the new config
// with the old one's, by name: url and token_env. A server the old config
// does not declare is compared with one that has neither, so a server
// added shows both, graded by who can call it like any other change, even
// while the manifest lists no tools for it or marks it not connected: the
// url and the credential are what it connects with. A compiled policy
// carries neither, so a policy side compares nothing here (a note says
// so).
func compareServers(o, n *Side) []ServerChange {
	out := []ServerChange{}
	if o.Config == nil || n.Config == nil {
		return out
	}
	for _, ns := range n.Config.MCPServers {
		os, declared := &config.MCPServer{}, false
		for _, s := range o.Config.MCPServers {
			if s.Name.Value == ns.Name.Value {
				os, declared = s, true
				break
			}
		}
		who := serverCallers(n, ns.Name.Value)
		if declared && os.URL.Value == ns.URL.Value && envName(os.TokenEnv) == envName(ns.TokenEnv) {
			out = append(out, newlyCalled(o, n, ns, who)...)
			continue
		}
		if a, b := os.URL.Value, ns.URL.Value; a != b {
			c := ServerChange{Server: ns.Name.Value, Field: "url", Old: shownURL(a), New: shownURL(b), Moved: urlMoved(a, b), Callers: who,
				At: n.serverPlace(ns, "url")}
			switch {
			case len(who) == 0:
				c.Grade = reach.Info
			case c.Moved == "host":
				c.Grade = reach.High
			default:
				c.Grade = reach.Medium
			}
			out = append(out, c)
		}
		if a, b := envName(os.TokenEnv), envName(ns.TokenEnv); a != b {
			c := ServerChange{Server: ns.Name.Value, Field: "token_env", Old: a, New: b, Callers: who, At: n.serverPlace(ns, "token_env"), Grade: reach.Info}
			if len(who) > 0 {
				c.Grade = reach.High
			}
			out = append(out, c)
		}
	}
	return out
}

// newlyCalled grades a server whose url and token_env did not change but
// that agents now reach which could not before, when the manifest lists
// none of its tools they can call: nothing else in the report shows that
// they now connect to the url with the credential, so both are shown,
// unchanged, and graded by who can call it (high). A server whose tools
// the agents gain is graded by those tools, under each agent.
func newlyCalled(o, n *Side, ns *config.MCPServer, who []string) []ServerChange {
	name := ns.Name.Value
	before := serverCallers(o, name)
	t := n.Policy.Document().Toolsets[name]
	unseen := false
	for _, a := range who {
		if slices.Contains(before, a) {
			continue
		}
		seen := false
		for _, tool := range t.Tools {
			seen = seen || slices.Contains(callers(n.Graph, name, tool.Name), a)
		}
		unseen = unseen || !seen
	}
	if !unseen {
		return nil
	}
	url := shownURL(ns.URL.Value)
	out := []ServerChange{{Server: name, Field: "url", Old: url, New: url, Callers: who, At: n.serverPlace(ns, "url"), Grade: reach.High}}
	if env := envName(ns.TokenEnv); env != "" {
		out = append(out, ServerChange{Server: name, Field: "token_env", Old: env, New: env, Callers: who, At: n.serverPlace(ns, "token_env"), Grade: reach.High})
	}
	return out
}

// envName is token_env's value, "" when unset: the name of a variable,
// whose value is never read.
func envName(s config.Str) string {
	if s.State != config.Present {
		return ""
	}
	return s.Value
}

// urlMoved says how far a url moved: "host" when the two differ in
// scheme, user, host or port, or either does not parse as an absolute
// url; "path" when only the path, query or fragment changed, so the same
// host answers.
func urlMoved(a, b string) string {
	ua, ea := url.Parse(a)
	ub, eb := url.Parse(b)
	if ea != nil || eb != nil || ua.Host == "" || ub.Host == "" || !strings.EqualFold(ua.Scheme, ub.Scheme) ||
		!strings.EqualFold(ua.Host, ub.Host) || ua.User.String() != ub.User.String() {
		return "host"
	}
	return "path"
}

// shownURL is a url as a report shows it: with a password hidden.
func shownURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		return u.Redacted()
	}
	return s
}

// manifestPlace is where a side's manifest describes a tool: the file
// the policy records and the key (a manifest's lines are not recorded).
func (s *Side) manifestPlace(toolset, tool, key string) Place {
	k := "toolsets[" + strconv.Quote(toolset) + "]"
	if tool != "" {
		k += ".tools[" + strconv.Quote(tool) + "]"
	}
	if key != "" {
		k += "." + key
	}
	return Place{File: s.manifestFile(), Key: k}
}

// toolsetPlace is where a toolset is registered: the [[mcp.server]]
// table of a config that declares it, or the manifest.
func (s *Side) toolsetPlace(name string) Place {
	if s.Config != nil {
		for _, srv := range s.Config.MCPServers {
			if srv.Name.Value == name {
				return s.place("[[mcp.server]]", srv.Span)
			}
		}
	}
	return s.manifestPlace(name, "", "")
}

// serverPlace is a key of one [[mcp.server]] table: the key's line, or
// the table's when the key is not written.
func (s *Side) serverPlace(srv *config.MCPServer, key string) Place {
	span := srv.Span
	v := srv.URL
	if key == "token_env" {
		v = srv.TokenEnv
	}
	if v.State == config.Present && !v.Span.IsZero() {
		span = v.Span
	}
	return s.place("[[mcp.server]]."+key, span)
}

// addManifest compares the two sides' manifests and servers into the
// report, and counts what it widens and grades. A tool change is counted
// as widened only when some caller's widening of it is not already listed
// among that agent's tool changes: a tool added to a toolset an agent
// holds is counted once, as the agent's.
func (r *Report) addManifest(o, n, judged *Side) {
	m := compareManifest(o, n, judged)
	r.Manifest = m
	listed := map[[3]string]bool{}
	for _, a := range r.Agents {
		for _, t := range a.Widened {
			listed[[3]string{a.Agent, t.New.Toolset, t.New.Tool}] = true
		}
	}
	unlisted := func(toolset string, tools, who []string) bool {
		for _, a := range who {
			for _, t := range tools {
				if !listed[[3]string{a, toolset, t}] {
					return true
				}
			}
		}
		return false
	}
	count := func(g reach.Grade) {
		r.Grades.add(g)
		r.Grade = max(r.Grade, g)
	}
	for i := range m.Tools {
		c := &m.Tools[i]
		switch c.Change {
		case "classes":
			c.counted = c.Widened
		case "added":
			c.counted = c.Widened && unlisted(c.Toolset, []string{c.Tool}, c.Callers)
		}
		if c.counted {
			r.WidenedCount++
		}
		count(c.Grade)
	}
	for i := range m.Toolsets {
		c := &m.Toolsets[i]
		if c.Widened {
			// Each tool is asked of its own callers: a caller of one tool
			// of the toolset need not reach the others.
			for _, t := range c.Tools {
				c.counted = c.counted || unlisted(c.Toolset, []string{t.Tool}, callers(judged.Graph, c.Toolset, t.Tool))
			}
		}
		if c.counted {
			r.WidenedCount++
		}
		count(c.Grade)
	}
	for _, c := range m.Servers {
		count(c.Grade)
	}
	r.placeManifestTools(o, n)
}

// placeManifestTools points the tool changes a manifest edit caused at
// the manifest: a tool an agent gains or loses while its available holds
// the toolset on both sides came or went with the toolset's entry (a tool
// added or removed, the server connected or disconnected), not with
// available.
func (r *Report) placeManifestTools(o, n *Side) {
	od, nd := o.Policy.Document(), n.Policy.Document()
	held := func(agent, toolset string) bool {
		oa, na := od.Agents[agent], nd.Agents[agent]
		if agent == reach.ComposedNode {
			return od.Toolsets[toolset] != nil && nd.Toolsets[toolset] != nil
		}
		return oa != nil && na != nil && slices.Contains(oa.Available.Expanded, toolset) && slices.Contains(na.Available.Expanded, toolset)
	}
	fix := func(agent string, t *ToolChange) {
		gained := t.Old.Level == reach.Unavailable
		a := t.New
		s, verb := n, "now"
		if !gained {
			a, s, verb = t.Old, o, "no longer"
		}
		if a.Toolset == "" || a.Toolset == kokua.Core || !held(agent, a.Toolset) {
			return
		}
		ot, nt := od.Toolsets[a.Toolset], nd.Toolsets[a.Toolset]
		_, inOld := toolClasses(ot)[a.Tool]
		_, inNew := toolClasses(nt)[a.Tool]
		switch {
		case gained && ot.LoadRefusal != "" && nt.LoadRefusal == "":
			t.Because, t.At = fmt.Sprintf("the MCP server %q is now connected (the manifest)", a.Toolset), n.manifestPlace(a.Toolset, "", "connected")
		case !gained && ot.LoadRefusal == "" && nt.LoadRefusal != "":
			t.Because, t.At = fmt.Sprintf("the MCP server %q is no longer connected (the manifest)", a.Toolset), n.manifestPlace(a.Toolset, "", "connected")
		case inOld != inNew:
			t.Because, t.At = fmt.Sprintf("the manifest %s lists %q in toolset %q", verb, a.Tool, a.Toolset), s.manifestPlace(a.Toolset, a.Tool, "")
		}
	}
	for i := range r.Agents {
		for j := range r.Agents[i].Widened {
			if r.Agents[i].Widened[j].Old.Level == reach.Unavailable {
				fix(r.Agents[i].Agent, &r.Agents[i].Widened[j])
			}
		}
		for j := range r.Agents[i].Narrowed {
			if r.Agents[i].Narrowed[j].New.Level == reach.Unavailable {
				fix(r.Agents[i].Agent, &r.Agents[i].Narrowed[j])
			}
		}
	}
}

// judgedBy is the new side n as the report grades it: every tool both
// sides register keeps the classes the old side gave it as well as its
// own, so that a change cannot lower the grade of what it grants by
// clearing the classes in the same breath. n itself when no tool lost a
// class (the usual case); answers and places are n's either way.
func judgedBy(n, o *Side) *Side {
	od, nd := o.Policy.Document(), n.Policy.Document()
	lost := false
	for name, nt := range nd.Toolsets {
		if ot := od.Toolsets[name]; ot != nil {
			oc := toolClasses(ot)
			for _, t := range nt.Tools {
				lost = lost || len(classMinus(oc[t.Name], t.Classes)) > 0
			}
		}
	}
	if !lost {
		return n
	}
	raw, err := json.Marshal(nd)
	if err != nil {
		return n
	}
	var doc policy.Document
	if err := json.Unmarshal(raw, &doc); err != nil {
		return n
	}
	for name, nt := range doc.Toolsets {
		if ot := od.Toolsets[name]; ot != nil {
			oc := toolClasses(ot)
			for i, t := range nt.Tools {
				nt.Tools[i].Classes = classUnion(t.Classes, oc[t.Name])
			}
		}
	}
	data, err := policy.Marshal(&doc)
	if err != nil {
		return n
	}
	p, err := policy.Parse(n.Name, data)
	if err != nil {
		return n
	}
	j := *n
	j.Policy, j.Graph = p, reach.New(p)
	return &j
}

// classUnion is the classes of a and b, in kokua.Classes order, or nil.
func classUnion(a, b []kokua.Class) []kokua.Class {
	var out []kokua.Class
	for _, c := range kokua.Classes() {
		if slices.Contains(a, c) || slices.Contains(b, c) {
			out = append(out, c)
		}
	}
	return out
}

// ManifestLines are the manifest and MCP server changes graded medium or
// above, one stable line each, without places: what a reviewer accepts
// with them, for the acceptance digest. A line names the toolset and
// tool (or server), what changed from what to what, the agents that can
// call it, and the grade:
//
//	manifest-change "github" "read_issue" classes untrusted-input,egress -> - callers ["coder"] high
//	manifest-change "github" "delete_repo" added exec callers ["coder"] high
//	manifest-toolset "wiki" connected callers ["assistant"] medium
//	mcp-server "github" url "https://a.example/mcp" -> "https://b.example/mcp" callers ["coder"] high
//	mcp-server "github" token_env "" -> "GITHUB_TOKEN" callers ["coder"] high
func (r *Report) ManifestLines() []string {
	m := r.Manifest
	if m == nil {
		return nil
	}
	var out []string
	add := func(g reach.Grade, format string, args ...any) {
		if g >= reach.Medium {
			out = append(out, fmt.Sprintf(format, args...)+" "+g.String())
		}
	}
	for _, c := range m.Tools {
		switch c.Change {
		case "classes":
			add(c.Grade, "manifest-change %q %q classes %s -> %s callers %q", c.Toolset, c.Tool, classWords(c.OldClasses), classWords(c.NewClasses), c.Callers)
		default:
			cs := c.NewClasses
			if c.Change == "removed" {
				cs = c.OldClasses
			}
			add(c.Grade, "manifest-change %q %q %s %s callers %q", c.Toolset, c.Tool, c.Change, classWords(cs), c.Callers)
		}
	}
	for _, c := range m.Toolsets {
		add(c.Grade, "manifest-toolset %q %s callers %q", c.Toolset, c.Change, c.Callers)
	}
	for _, c := range m.Servers {
		add(c.Grade, "mcp-server %q %s %q -> %q callers %q", c.Server, c.Field, c.Old, c.New, c.Callers)
	}
	slices.Sort(out)
	return out
}

// classWords writes classes as a digest line does: comma-separated, "-"
// for none.
func classWords(cs []kokua.Class) string {
	if len(cs) == 0 {
		return "-"
	}
	words := make([]string, len(cs))
	for i, c := range cs {
		words[i] = string(c)
	}
	return strings.Join(words, ",")
}
