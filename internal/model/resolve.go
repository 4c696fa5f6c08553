package model

import (
	"slices"

	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// Status says what an approval entry names, against the registry.
type Status uint8

// The outcomes of resolving an entry. The first four are shape faults
// (R122, phase validate); the next three make the entry dead (R120, R121).
const (
	// Matched: the entry names at least one tool.
	Matched Status = iota
	// BadGrammar: the text breaks R29 (see Resolution.Entry.Fault).
	BadGrammar
	// BareTool: a bare word that is no toolset but a tool's name (R30).
	BareTool
	// UnknownToolset: the first segment names no registered toolset (R31).
	UnknownToolset
	// NoSuchTool: the toolset provides no tool of that name (R32); when
	// Homes is not empty the tool is filed under the wrong toolset.
	NoSuchTool
	// NoTools: the toolset (or core) provides no tools at all (R33, R40).
	NoTools
	// Disconnected: an MCP server that is not connected builds empty; what
	// the entry names is unknown until it connects (R132, R149).
	Disconnected
)

// Resolution is what one approval entry names.
type Resolution struct {
	Entry  kokua.Entry
	Status Status
	// Toolset is the named toolset; nil for core and for unknown names.
	Toolset *Toolset
	// Tools are the tool names the entry holds once its toolset is built.
	Tools []string
	// Pending is true when the toolset is not built at startup (R79): the
	// entry is resolved by the toolset's first build.
	Pending bool
	// Homes are the prefixed forms a bare or misfiled tool name should take
	// ("compute.execute_python"), or, for a bare name close to no toolset,
	// those of the tools it is close to (a misspelled bare tool name).
	Homes []string
	// Close are "did you mean" candidates (R208): toolset names for an
	// unknown toolset, tool names for a missing tool.
	Close []string
}

// When is when Kokua finds a fault of approval entries: a dead entry, or
// two entries that would hold one tool in lists that may not share it.
type When uint8

// The two times.
const (
	// AtStartup: Kokua refuses to start (phase resolve). An entry naming a
	// toolset startup builds, or core, is resolved at startup (R78), and an
	// overlap the entries' text settles is refused there too (R87).
	AtStartup When = iota
	// AtBuild: Kokua starts, then refuses the first build of a toolset it
	// does not build at startup, and every later one (phase build; R81,
	// R88, R146-R148).
	AtBuild
)

// Resolved says when Kokua resolves the entry: at startup, or, for a
// pending entry, at its toolset's first build (R78, R79).
func (r Resolution) Resolved() When {
	if r.Pending {
		return AtBuild
	}
	return AtStartup
}

// Shape reports a fault of the entry's own shape, found at validate.
func (r Resolution) Shape() bool {
	return r.Status == BadGrammar || r.Status == BareTool || r.Status == UnknownToolset
}

// Dead reports an entry that matches no tool (R120, R121).
func (r Resolution) Dead() bool {
	return r.Status == NoSuchTool || r.Status == NoTools
}

// Resolve says what one entry's text names (R28-R33, R39-R41). Results are
// remembered: several checks ask about the same entries.
func (w *World) Resolve(text string) Resolution {
	if r, ok := w.resolved[text]; ok {
		return r
	}
	r := w.resolve(text)
	if w.resolved == nil {
		w.resolved = map[string]Resolution{}
	}
	w.resolved[text] = r
	return r
}

func (w *World) resolve(text string) Resolution {
	e := kokua.ParseEntry(text)
	r := Resolution{Entry: e}
	if e.Fault != kokua.EntryOK {
		r.Status = BadGrammar
		return r
	}
	if e.IsCore() {
		return w.resolveCore(r)
	}
	t := w.toolsets[e.Toolset]
	if t == nil {
		if homes := w.homesOf(e.Toolset); e.Whole() && len(homes) > 0 && !isStar(text) {
			r.Status = BareTool
			r.Homes = prefixed(homes, e.Toolset)
			return r
		}
		r.Status = UnknownToolset
		r.Close = w.suggest(e.Toolset, nameList{}, w.toolsetNames)
		// A core tool's name is no typo, even where the tool does not
		// exist in this config.
		if len(r.Close) == 0 && e.Whole() && !isStar(text) && !kokua.IsCoreTool(e.Toolset) {
			for _, tool := range w.suggest(e.Toolset, nameList{allTools: true}, w.toolNames) {
				r.Homes = append(r.Homes, prefixed(w.homesOf(tool), tool)...)
			}
		}
		return r
	}
	r.Toolset = t
	r.Pending = !w.Built[t.Name]
	switch {
	case !t.Connected:
		r.Status = Disconnected
	case e.Whole() && len(t.Tools) == 0:
		r.Status = NoTools
	case e.Whole():
		r.Tools = t.Tools
	case t.Has(e.Tool):
		r.Tools = []string{e.Tool}
	default:
		r.Status = NoSuchTool
		if homes := w.homesOf(e.Tool); len(homes) > 0 {
			r.Homes = prefixed(homes, e.Tool)
		} else {
			r.Close = w.suggest(e.Tool, nameList{tools: t}, func() []string { return t.Tools })
		}
	}
	return r
}

func (w *World) resolveCore(r Resolution) Resolution {
	e := r.Entry
	switch {
	case e.Whole() && len(w.CoreTools) == 0:
		r.Status = NoTools
	case e.Whole():
		r.Tools = w.CoreTools
	case w.CoreExists(e.Tool):
		r.Tools = []string{e.Tool}
	default:
		r.Status = NoSuchTool
		homes := w.homesOf(e.Tool)
		for _, h := range homes {
			if h != kokua.Core {
				r.Homes = append(r.Homes, h+"."+e.Tool)
			}
		}
		if len(r.Homes) == 0 {
			r.Close = w.suggest(e.Tool, nameList{core: true}, func() []string { return w.CoreTools }) // only core tools that exist
		}
	}
	return r
}

func isStar(text string) bool { return len(text) >= 2 && text[len(text)-2:] == ".*" }

func prefixed(homes []string, tool string) []string {
	out := make([]string, len(homes))
	for i, h := range homes {
		out[i] = h + "." + tool
	}
	return out
}

// nameList names a list Resolve suggests from: the toolset names (the
// zero value), the core tools, or the tools of one toolset.
type nameList struct {
	core  bool
	tools *Toolset
	// allTools is every tool's name, core's included.
	allTools bool
}

// suggest returns the "did you mean" candidates for word among a list of
// names (R208), from the list's index: each list is indexed once, so that
// a config with many near misses costs far less than comparing each with
// every name.
func (w *World) suggest(word string, list nameList, names func() []string) []string {
	ix := w.indexes[list]
	if ix == nil {
		ix = similar.NewIndex(names())
		if w.indexes == nil {
			w.indexes = map[nameList]*similar.Index{}
		}
		w.indexes[list] = ix
	}
	return ix.Suggest(word)
}

// toolNames are the names of every tool, each once.
func (w *World) toolNames() []string {
	w.homesOnce.Do(w.homes)
	names := make([]string, 0, len(w.toolHome))
	for name := range w.toolHome {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func (w *World) toolsetNames() []string {
	names := make([]string, 0, len(w.Toolsets)+1)
	for _, t := range w.Toolsets {
		names = append(names, t.Name)
	}
	return append(names, kokua.Core)
}
