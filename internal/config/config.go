// Package config turns config.toml and the registry manifest into a
// positioned model: every key and every list element keeps the file, line,
// column and end it was written at, so that the rules never compute a
// position themselves.
//
// Only the tool-access tables of rules.md R2 are modelled. Other sections
// are accepted as valid TOML without further checks (R22).
package config

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// State says whether the file writes a key, and whether its value has the
// type the key takes. A key written with the wrong type is reported by the
// wrong-type rule; every check that needs its value is then skipped (R204).
type State uint8

// The states of a key.
const (
	// Absent: the file does not write the key.
	Absent State = iota
	// WrongType: the key is written, but its value is not of the type the
	// key takes, so it cannot be read.
	WrongType
	// Present: the key is written with a value of the type it takes.
	Present
)

// Str is a string value from the config and where it was written. When
// State is not Present, Value is the key's default where the model gives
// one (EntryAgent), else empty. Span is where the value is written, of
// whatever type; for a value the file does not write it is zero, or, for
// an item of a Builtin list, where that list applies.
type Str struct {
	Value string
	Span  diag.Span
	State State
}

// List is a list of strings from the config. Items holds the strings when
// State is Present, Kokua's default when the list is Builtin, and nothing
// otherwise.
type List struct {
	// Path is the key path as a config spells it: [agents.coder.tools].confirm.
	Path  string
	State State
	Items []Str
	// Key is where the key is written, Span where its value is.
	Key  diag.Span
	Span diag.Span
	// Builtin marks a list the file does not write (State is Absent) whose
	// items are Kokua's built-in default (R9, R86); their spans, and Key and
	// Span, point at what makes them apply.
	Builtin bool
}

// Values returns the strings of the list.
func (l List) Values() []string {
	out := make([]string, len(l.Items))
	for i, it := range l.Items {
		out[i] = it.Value
	}
	return out
}

// Available is an agent's availability: a list of toolset names or the
// string "all" (R5). Its State is Present for either shape; Items holds a
// list's names and Str a string.
type Available struct {
	List
	// All is true for exactly available = "all".
	All bool
	// Str is the value when it is a string, "all" or not.
	Str Str
	// Usable is false when the key is written but cannot be read as either
	// shape (wrong type, "all" misspelled, another string); availability is
	// then unknown and the checks that need it are skipped.
	Usable bool
}

// AgentTools is an agent's [agents.<name>.tools] table.
type AgentTools struct {
	Span      diag.Span
	Available Available
	Resident  List
	Confirm   List
	Review    List
}

// Agent is one [agents.<name>] table.
type Agent struct {
	Name string
	// Span is the agent's name where its table is first introduced.
	Span        diag.Span
	Path        string // [agents.<name>]
	Description Str
	DelegatesTo List
	Model       Str
	// Tools is nil when the agent has no tools table (R8). A tools key of
	// the pre-split list shape leaves it nil too (R101), and sets OldTools.
	Tools    *AgentTools
	OldTools bool
}

// DeclaresPair reports whether the agent declares its own approval pair,
// which then replaces [assistant.tools] whole (R10, R11).
func (a *Agent) DeclaresPair() bool {
	return a.Tools != nil && (a.Tools.Confirm.State != Absent || a.Tools.Review.State != Absent)
}

// Pair is the default approval pair, [assistant.tools].
type Pair struct {
	// Set is false when the file has no [assistant.tools] table; the pair is
	// then Kokua's built-in default (R9).
	Set     bool
	Span    diag.Span
	Confirm List
	Review  List
}

// AutoApproval is [security.auto_approval].
type AutoApproval struct {
	Span      diag.Span
	Enabled   bool
	EnabledAt diag.Span
	Reviewers List
	// TimeoutSeconds and MaxPerTurn bound the reviewer (10 s, 5 a turn by
	// default).
	TimeoutSeconds float64
	MaxPerTurn     int
}

// Reviewer is one [reviewers.<name>] table.
type Reviewer struct {
	Name          string
	Span          diag.Span
	Model         Str
	SystemMessage Str
	// Thinking is the reviewer's own thinking value, nil when unset.
	Thinking *tomlpos.Node
	// Generation is the reviewer's generation table, nil when unset.
	Generation *tomlpos.Node
}

// ReviewerModel is the model a reviewer runs on: its own, else
// [assistant].model, which a reviewer that sets none inherits (R144),
// with where it comes from. When neither writes one, both run on the
// runtime's default model, which is not in the file: "", kokua.Builtin.
func (c *Config) ReviewerModel(r *Reviewer) (string, kokua.Origin) {
	switch {
	case r.Model.State == Present:
		return r.Model.Value, kokua.Declared
	case c.AssistantModel.State == Present:
		return c.AssistantModel.Value, kokua.Inherited
	}
	return "", kokua.Builtin
}

// ReviewerThinking is the thinking value a reviewer runs with: its own,
// else [assistant].thinking, which a reviewer that sets none inherits
// (R143: "An effort inherited from [assistant].thinking is not an
// error"), with where it comes from; nil and kokua.Builtin when neither
// writes one.
func (c *Config) ReviewerThinking(r *Reviewer) (*tomlpos.Node, kokua.Origin) {
	switch {
	case r.Thinking != nil:
		return r.Thinking, kokua.Declared
	case c.AssistantThinking != nil:
		return c.AssistantThinking, kokua.Inherited
	}
	return nil, kokua.Builtin
}

// MCPServer is one [[mcp.server]] table.
type MCPServer struct {
	Span        diag.Span
	Name        Str
	URL         Str
	TokenEnv    Str
	Description Str
}

// Config is the tool-access model of one config.toml.
type Config struct {
	File   string
	Source []byte
	// Lines converts the byte offsets of Source to positions.
	Lines *lineindex.Index
	Root  *tomlpos.Node

	// EntryAgent is [assistant].agent, "assistant" when unset.
	EntryAgent     Str
	AssistantModel Str
	// AssistantThinking is [assistant].thinking, nil when unset.
	AssistantThinking *tomlpos.Node
	DefaultPair       Pair
	// Agents are in file order.
	Agents []*Agent
	// Unreadable names the keys of [agents] whose value is not a table
	// ([[agents.coder]], coder = 5): wrong-type reports each, and the
	// checks that need to know an agent's tables stay silent about it
	// rather than call it undeclared.
	Unreadable map[string]bool
	byName     map[string]*Agent
	Floor      List
	Auto       AutoApproval
	Reviews    []*Reviewer
	// Comments are the file's comments, in order.
	Comments []tomlpos.Comment
	// MCPServers are in file order, which is their registration and trust
	// order (R165, R166). Every table with a name is listed, even one the
	// mcp-server-shape rule refuses.
	MCPServers []*MCPServer
}

// Agent returns the agent of that name, or nil.
func (c *Config) Agent(name string) *Agent { return c.byName[name] }

// DefaultConfirm and DefaultReview are Kokua's built-in approval pair, used
// when config.toml has no [assistant.tools] table (R9, A2).
var (
	DefaultConfirm = []string{"skills.add_skill_script", "mcp.add_mcp_server", "config.update_config"}
	DefaultReview  = []string{"compute.run_command", "compute.execute_python", "fs_write"}
	// DefaultFloor is [security].never_auto_approve when unset (R2, R86).
	DefaultFloor = []string{"config.update_config", "skills.add_skill_script", "mcp.add_mcp_server"}
)

// The values of the other keys Kokua reads when the file leaves them out
// (R2).
const (
	DefaultEntryAgent     = "assistant" // [assistant].agent
	DefaultTimeoutSeconds = 10          // [security.auto_approval].timeout_seconds
	DefaultMaxPerTurn     = 5           // [security.auto_approval].max_per_turn
)

// Load parses config.toml. Invalid TOML is returned as a *SyntaxError; any
// other problem is left in the tree for the rules to report.
func Load(file string, data []byte) (*Config, error) {
	root, err := tomlpos.Parse(file, data)
	if err != nil {
		return nil, err
	}
	c := &Config{File: file, Source: data, Root: root, byName: map[string]*Agent{}}
	c.Lines = root.Lines() // the reader's own, made from the same file and bytes
	c.Comments = tomlpos.Comments(c.Lines)
	c.decode()
	return c, nil
}

func (c *Config) fileStart() diag.Span {
	return diag.Span{File: c.File, Start: diag.Position{Line: 1, Column: 1}, End: diag.Position{Line: 1, Column: 1}}
}

func (c *Config) decode() {
	assistant := table(c.Root.Get("assistant"))
	c.EntryAgent = str(assistant.Get("agent"))
	if c.EntryAgent.State != Present {
		c.EntryAgent.Value = DefaultEntryAgent
	}
	c.AssistantModel = str(assistant.Get("model"))
	c.AssistantThinking = assistant.Get("thinking")

	builtinAt := c.fileStart()
	if assistant != nil {
		builtinAt = assistant.Span()
	}
	if t := table(assistant.Get("tools")); t != nil {
		c.DefaultPair = Pair{Set: true, Span: t.Span(),
			Confirm: list(t, "confirm"), Review: list(t, "review")}
	} else {
		c.DefaultPair = Pair{Span: builtinAt,
			Confirm: builtin([]string{"assistant", "tools"}, "confirm", DefaultConfirm, builtinAt),
			Review:  builtin([]string{"assistant", "tools"}, "review", DefaultReview, builtinAt)}
	}

	if agents := table(c.Root.Get("agents")); agents != nil {
		for _, f := range agents.Fields {
			if a := decodeAgent(f); a != nil {
				c.Agents = append(c.Agents, a)
				c.byName[a.Name] = a
			} else {
				if c.Unreadable == nil {
					c.Unreadable = map[string]bool{}
				}
				c.Unreadable[f.Name] = true
			}
		}
	}

	security := table(c.Root.Get("security"))
	auto := table(security.Get("auto_approval"))
	c.Auto.TimeoutSeconds, c.Auto.MaxPerTurn = DefaultTimeoutSeconds, DefaultMaxPerTurn
	if auto != nil {
		switch t := auto.Get("timeout_seconds"); {
		case t == nil:
		case t.Kind == tomlpos.KindInteger:
			c.Auto.TimeoutSeconds = float64(t.Int)
		case t.Kind == tomlpos.KindFloat:
			c.Auto.TimeoutSeconds = t.Float
		}
		if m := auto.Get("max_per_turn"); m != nil && m.Kind == tomlpos.KindInteger {
			c.Auto.MaxPerTurn = int(m.Int)
		}
		c.Auto.Span = auto.Span()
		if e := auto.Get("enabled"); e != nil && e.Kind == tomlpos.KindBool {
			c.Auto.Enabled, c.Auto.EnabledAt = e.Bool, e.Span()
		}
		c.Auto.Reviewers = list(auto, "reviewers")
	}
	c.Floor = list(security, "never_auto_approve")
	if security.Get("never_auto_approve") == nil {
		at := c.Auto.EnabledAt
		if at.IsZero() {
			at = c.fileStart()
		}
		c.Floor = builtin([]string{"security"}, "never_auto_approve", DefaultFloor, at)
	}

	if reviewers := table(c.Root.Get("reviewers")); reviewers != nil {
		for _, f := range reviewers.Fields {
			t := table(f.Value)
			if t == nil {
				continue
			}
			r := &Reviewer{Name: f.Name, Span: f.Value.Key(), Model: str(t.Get("model")),
				SystemMessage: str(t.Get("system_message")), Thinking: t.Get("thinking"), Generation: t.Get("generation")}
			c.Reviews = append(c.Reviews, r)
		}
	}
	c.decodeMCP()
}

func (c *Config) decodeMCP() {
	servers := table(c.Root.Get("mcp")).Get("server")
	if servers == nil {
		return
	}
	tables := servers.Items
	switch {
	case servers.Kind == tomlpos.KindTable: // [mcp.server] written once, not [[mcp.server]]
		tables = []*tomlpos.Node{servers}
	case !TypeTables.Accepts(servers):
		return
	}
	for _, t := range tables {
		s := &MCPServer{Span: t.Span(), Name: str(t.Get("name")), URL: str(t.Get("url")),
			TokenEnv: str(t.Get("token_env")), Description: str(t.Get("description"))}
		// A server without a usable url still registers its name, so that
		// agents naming it are not also told the name is unknown (R204).
		if s.Name.State != Present || s.Name.Value == "" {
			continue
		}
		c.MCPServers = append(c.MCPServers, s)
	}
}

func decodeAgent(f tomlpos.Field) *Agent {
	t := table(f.Value)
	if t == nil {
		return nil
	}
	path := []string{"agents", f.Name}
	a := &Agent{
		Name:        f.Name,
		Span:        f.Value.Key(),
		Path:        TablePath(path),
		Description: str(t.Get("description")),
		DelegatesTo: list(t, "delegates_to"),
		Model:       str(t.Get("model")),
	}
	a.OldTools = t.Get("tools") != nil && table(t.Get("tools")) == nil
	if tt := table(t.Get("tools")); tt != nil {
		a.Tools = &AgentTools{
			Span:     tt.Span(),
			Resident: list(tt, "resident"),
			Confirm:  list(tt, "confirm"),
			Review:   list(tt, "review"),
		}
		a.Tools.Available = available(tt)
	}
	return a
}

func available(t *tomlpos.Node) Available {
	n := t.Get("available")
	av := Available{List: list(t, "available")}
	if n == nil {
		av.Usable = true // absent: holds nothing (R8)
		return av
	}
	switch {
	case n.Kind == tomlpos.KindString:
		av.Str = Str{Value: n.Str, Span: n.Span(), State: Present}
		av.State = Present
		av.All = n.Str == "all"
		av.Usable = av.All
	case av.State == Present:
		av.Usable = true
		for _, it := range av.Items {
			if isAllWord(it.Value) {
				av.Usable = false
			}
		}
	}
	return av
}

// isAllWord reports "all" in any casing, the word R47 refuses inside a list
// or in another casing.
func isAllWord(s string) bool {
	return len(s) == 3 && (s[0]|0x20) == 'a' && (s[1]|0x20) == 'l' && (s[2]|0x20) == 'l'
}

// IsAllWord reports whether s is "all" in any casing.
func IsAllWord(s string) bool { return isAllWord(s) }

func table(n *tomlpos.Node) *tomlpos.Node {
	if n == nil || n.Kind != tomlpos.KindTable {
		return nil
	}
	return n
}

func str(n *tomlpos.Node) Str {
	switch {
	case n == nil:
		return Str{}
	case n.Kind != tomlpos.KindString:
		return Str{Span: n.Span(), State: WrongType}
	}
	return Str{Value: n.Str, Span: n.Span(), State: Present}
}

func list(t *tomlpos.Node, key string) List {
	l := List{}
	if t != nil {
		var room [8]string
		l.Path = KeyPath(t.AppendPath(room[:0]), key)
	}
	n := t.Get(key)
	if n == nil {
		return l
	}
	l.Key, l.Span = n.Key(), n.Span()
	if !isStrings(n) {
		l.State = WrongType
		return l
	}
	l.State = Present
	l.Items = make([]Str, len(n.Items))
	for i, it := range n.Items {
		l.Items[i] = Str{Value: it.Str, Span: it.Span(), State: Present}
	}
	return l
}

func builtin(table []string, key string, values []string, at diag.Span) List {
	l := List{Path: KeyPath(table, key), Builtin: true, Key: at, Span: at}
	for _, v := range values {
		l.Items = append(l.Items, Str{Value: v, Span: at})
	}
	return l
}
