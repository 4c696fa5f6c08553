// Package install reads a live Kokua install into a registry manifest
// (docs/manifest.md): the default install's own toolsets, the plugins a
// manifest carries, the skills folder as Kokua reads it, and every MCP
// server of the config, read over the network with the official MCP Go
// SDK. It also compares a pinned manifest with the live install
// (kokua-compile manifest --check). kokua-lint never imports it: the
// linter stays offline.
package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// Source is an input file: its name as messages print it, and its bytes.
type Source struct {
	Name string
	Data []byte
}

// Options say what install to read.
type Options struct {
	// Config is the config.toml whose [[mcp.server]] tables are read.
	Config Source
	// Skills is the skills folder, "" for none.
	Skills string
	// Plugins is a manifest, or a JSON array of toolsets (a fragment of
	// one), whose plugin toolsets are carried as they are; nil for none.
	Plugins *Source
	// Previous is the manifest being replaced, nil for none: its plugins
	// are carried when Plugins is nil, and the classes its skill and MCP
	// entries write are kept.
	Previous *Source
	// Timeout is how long each server has; DefaultTimeout when zero.
	Timeout time.Duration
	// AllowMissing records a server that cannot be read as not connected
	// (Result.Missing says which and why) instead of failing.
	AllowMissing bool
}

// Result is the manifest of the install and what went into it.
type Result struct {
	// Manifest is the manifest's JSON, indented, ending in a line feed;
	// the same install gives the same bytes.
	Manifest []byte
	// Missing are the servers recorded as not connected (AllowMissing),
	// each with why, in the config's order.
	Missing []*ServerError
	// Count is how many toolsets of each kind, and tools in all, the
	// manifest lists.
	Kokua, Plugins, Skills, Servers, Tools int
}

// Read reads the install: an input that cannot be read (the config, the
// skills folder, a plugin fragment) or, without AllowMissing, a server
// that cannot be read is an error, every one of them joined, and no
// manifest.
func Read(ctx context.Context, o Options) (*Result, error) {
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	servers, configured, err := serversOf(o.Config)
	if err != nil {
		return nil, err
	}
	out := &file{ManifestVersion: 1, Toolsets: []*toolsetJSON{}}
	def, err := decode(manifest.DefaultManifest())
	if err != nil {
		return nil, fmt.Errorf("the embedded default install: %w", err)
	}
	out.Toolsets = append(out.Toolsets, def.Toolsets...)
	out.CoreTools = def.CoreTools
	var previous *file
	if o.Previous != nil {
		if previous, err = readManifest(*o.Previous, false); err != nil {
			return nil, errors.Join(err, fmt.Errorf("%s is the manifest being replaced, whose plugins and classes are kept: fix it, or move it away", o.Previous.Name))
		}
	}
	var errs []error
	switch {
	case o.Plugins != nil:
		plugins, err := readManifest(*o.Plugins, true)
		if err != nil {
			errs = append(errs, err)
		} else {
			out.Toolsets = append(out.Toolsets, plugins.Toolsets...)
		}
	case previous != nil:
		for _, t := range previous.Toolsets {
			if t.Kind == kokua.KindPlugin {
				out.Toolsets = append(out.Toolsets, t)
			}
		}
	}
	if o.Skills != "" {
		skills, err := ReadSkills(o.Skills)
		if err != nil {
			errs = append(errs, err)
		}
		for _, s := range skills {
			t := &toolsetJSON{Name: s.Name, Kind: kokua.KindSkill, Description: s.Description, Tools: []*toolJSON{}}
			for _, name := range s.Tools {
				t.Tools = append(t.Tools, &toolJSON{Name: name})
			}
			out.Toolsets = append(out.Toolsets, t)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	tools, serverErrs := ReadServers(ctx, servers, o.Timeout)
	res := &Result{}
	for i, s := range servers {
		t := &toolsetJSON{Name: s.Name, Kind: kokua.KindMCP, Description: configured[i], Tools: []*toolJSON{}}
		if serverErrs != nil && serverErrs[i] != nil {
			var se *ServerError
			if !o.AllowMissing || !errors.As(serverErrs[i], &se) {
				errs = append(errs, serverErrs[i])
				continue
			}
			res.Missing = append(res.Missing, se)
			no := false
			t.Connected = &no
			out.Toolsets = append(out.Toolsets, t)
			continue
		}
		pairs := make([]manifest.ToolDigest, len(tools[i]))
		for j, tool := range tools[i] {
			n := tool.SpecBytes
			t.Tools = append(t.Tools, &toolJSON{Name: tool.Name, Spec: tool.Spec, SpecBytes: &n, Digest: tool.Digest})
			pairs[j] = manifest.ToolDigest{Name: tool.Name, Digest: tool.Digest}
		}
		t.Digest = manifest.ToolsetDigest(pairs)
		out.Toolsets = append(out.Toolsets, t)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	keepClasses(out, previous)
	for _, t := range out.Toolsets {
		switch t.Kind {
		case kokua.KindKokua:
			res.Kokua++
		case kokua.KindPlugin:
			res.Plugins++
		case kokua.KindSkill:
			res.Skills++
		case kokua.KindMCP:
			res.Servers++
		}
		res.Tools += len(t.Tools)
	}
	out.Source = source(o, res)
	if res.Manifest, err = out.marshal(); err != nil {
		return nil, err
	}
	return res, nil
}

// source is the manifest's "source": what it was read from, the same
// for the same inputs.
func source(o Options, r *Result) string {
	parts := []string{fmt.Sprintf("Kokua's own toolsets: %d (the default install)", r.Kokua)}
	switch {
	case o.Plugins != nil:
		parts = append(parts, fmt.Sprintf("plugin toolsets: %d, from %s", r.Plugins, o.Plugins.Name))
	case r.Plugins > 0:
		parts = append(parts, fmt.Sprintf("plugin toolsets: %d, kept from the manifest it replaced", r.Plugins))
	}
	if o.Skills != "" {
		parts = append(parts, fmt.Sprintf("skills: %d, from %s", r.Skills, o.Skills))
	}
	parts = append(parts, fmt.Sprintf("MCP servers: %d, read live (not connected: %d)", r.Servers, len(r.Missing)))
	return "kokua-compile manifest of " + o.Config.Name + "; " + strings.Join(parts, "; ")
}

// serversOf reads the config's [[mcp.server]] tables, in order, with the
// description each toolset gets (R166). A table Kokua would refuse is an
// error naming it.
func serversOf(src Source) ([]Server, []string, error) {
	cfg, err := config.Load(src.Name, src.Data)
	if err != nil {
		return nil, nil, err
	}
	var servers []Server
	var descs []string
	var errs []error
	seen := map[string]bool{}
	for _, s := range cfg.MCPServers {
		name := s.Name.Value
		switch {
		case seen[name]:
			errs = append(errs, fmt.Errorf("%s: two [[mcp.server]] tables are named %s; kokua-lint reports it (duplicate-toolset)", s.Span, printable.Quote(name)))
			continue
		case s.URL.State != config.Present || s.URL.Value == "":
			errs = append(errs, fmt.Errorf("%s: the [[mcp.server]] %s has no url; kokua-lint reports it (mcp-server-shape)", s.Span, printable.Quote(name)))
			continue
		case s.TokenEnv.State == config.WrongType:
			errs = append(errs, fmt.Errorf("%s: the [[mcp.server]] %s has a token_env that is not a string; kokua-lint reports it (wrong-type)", s.Span, printable.Quote(name)))
			continue
		}
		seen[name] = true
		tokenEnv := ""
		if s.TokenEnv.State == config.Present {
			tokenEnv = s.TokenEnv.Value
		}
		servers = append(servers, Server{Name: name, URL: s.URL.Value, TokenEnv: tokenEnv})
		desc := "Tools from the MCP server at " + plainURL(s.URL.Value) + "."
		if s.Description.State == config.Present {
			desc = s.Description.Value
		}
		descs = append(descs, desc)
	}
	return servers, descs, errors.Join(errs...)
}

// plainURL is a url without what may be secret in it (a user and a
// password, a query, a fragment), for the description a manifest writes.
func plainURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "an address that does not parse"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// readManifest reads a manifest, or with fragment a JSON array of
// toolsets too, whose plugin toolsets it returns (with fragment, any
// other kind is an error: skills come from the skills folder and MCP
// servers from the config). A manifest that does not follow the format is
// an error at the position of each problem.
func readManifest(src Source, fragment bool) (*file, error) {
	data := src.Data
	const prefix = `{"manifest_version": 1, "toolsets": `
	wrapped := fragment && bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("["))
	if wrapped {
		data = slices.Concat([]byte(prefix), data, []byte("}"))
	}
	if _, problems := manifest.Load(src.Name, data); len(problems) > 0 {
		lines := lineindex.New(src.Name, src.Data)
		var errs []error
		for _, p := range problems {
			span := p.Span
			if wrapped {
				from := min(max(span.Start.Offset-len(prefix), 0), len(src.Data))
				to := min(max(span.End.Offset-len(prefix), from), len(src.Data))
				span = lines.Span(from, to)
			}
			errs = append(errs, fmt.Errorf("%s: %s", span, p.Message))
		}
		return nil, errors.Join(errs...)
	}
	f, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	if !fragment {
		return f, nil
	}
	kept := &file{}
	for _, t := range f.Toolsets {
		if t.Kind != kokua.KindPlugin {
			return nil, fmt.Errorf("%s: the toolset %s is of kind %s; --plugins carries plugins only (skills are read from --skills, MCP servers from the config)",
				src.Name, printable.Quote(t.Name), t.Kind)
		}
		kept.Toolsets = append(kept.Toolsets, t)
	}
	return kept, nil
}

// keepClasses keeps the classes a previous manifest's skill and MCP
// entries write, on the toolset of the same name and kind and on its
// tools of the same name: tags a person added survive the next read.
func keepClasses(out, previous *file) {
	if previous == nil {
		return
	}
	for _, t := range out.Toolsets {
		if t.Kind != kokua.KindSkill && t.Kind != kokua.KindMCP {
			continue
		}
		i := slices.IndexFunc(previous.Toolsets, func(p *toolsetJSON) bool { return p.Name == t.Name && p.Kind == t.Kind })
		if i < 0 {
			continue
		}
		p := previous.Toolsets[i]
		t.Classes = p.Classes
		for _, tool := range t.Tools {
			if j := slices.IndexFunc(p.Tools, func(q *toolJSON) bool { return q.Name == tool.Name }); j >= 0 {
				tool.Classes = p.Tools[j].Classes
			}
		}
	}
}

// file is a manifest as it is written: its fields in the order
// docs/manifest.md gives them.
type file struct {
	ManifestVersion int            `json:"manifest_version"`
	Source          string         `json:"source"`
	Toolsets        []*toolsetJSON `json:"toolsets"`
	CoreTools       []*toolJSON    `json:"core_tools,omitempty"`
}

type toolsetJSON struct {
	Name           string          `json:"name"`
	Kind           string          `json:"kind"`
	Provider       string          `json:"provider,omitempty"`
	Description    string          `json:"description"`
	Guidance       string          `json:"guidance,omitempty"`
	EntryPointOnly bool            `json:"entry_point_only,omitempty"`
	CrossCutting   bool            `json:"cross_cutting,omitempty"`
	Workflow       json.RawMessage `json:"workflow,omitempty"`
	Settings       json.RawMessage `json:"settings,omitempty"`
	Connected      *bool           `json:"connected,omitempty"`
	Classes        json.RawMessage `json:"classes,omitempty"`
	Digest         string          `json:"digest,omitempty"`
	Tools          []*toolJSON     `json:"tools"`
}

type toolJSON struct {
	Name      string          `json:"name"`
	Spec      json.RawMessage `json:"spec,omitempty"`
	SpecBytes *int            `json:"spec_bytes,omitempty"`
	Digest    string          `json:"digest,omitempty"`
	Classes   json.RawMessage `json:"classes,omitempty"`
}

// decode reads a manifest that follows the format (manifest.Load has
// said so) into the form it is written in.
func decode(data []byte) (*file, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	for _, t := range f.Toolsets {
		if t.Tools == nil {
			t.Tools = []*toolJSON{}
		}
	}
	return &f, nil
}

// marshal writes the manifest: indented by two spaces, without HTML
// escapes, and with every rune printable.JSON escapes written as a \u
// escape, so that a description that holds a control or bidirectional
// character reaches no terminal raw when the file is shown.
func (f *file) marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return printable.JSON(b.Bytes()), nil
}
