package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// mcp-server-shape: a [[mcp.server]] table without the string url and the
// non-empty string name Kokua requires (R113). Wrong types and unknown keys
// in the table are wrong-type and unknown-key findings.
var mcpServerShapeRule = &Rule{
	ID:       "mcp-server-shape",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R113"},
	Summary:  "a [[mcp.server]] table lacks its url or a non-empty name",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		servers := p.Config.Root.Lookup("mcp", "server")
		if servers == nil || !config.TypeTables.Accepts(servers) {
			return
		}
		for _, t := range servers.Items {
			url := t.Get("url")
			if url == nil {
				what := ""
				if name := t.Get("name"); name != nil && name.Kind == tomlpos.KindString && name.Str != "" {
					what = " (server " + q(name.Str) + ")"
				}
				p.Report(Finding{Span: t.Span(), Key: "[[mcp.server]].url",
					Message:    "[[mcp.server]] requires a string 'url'" + what + ": Kokua connects to the server there",
					Suggestion: "add url = \"https://...\", the address of the MCP server"})
			}
			where := "(server without a url)"
			if url != nil && url.Kind == tomlpos.KindString {
				where = fmt.Sprintf("(server %s)", printable.Escape(url.Str))
			}
			switch name := t.Get("name"); {
			case name == nil:
				p.Report(Finding{Span: t.Span(), Key: "[[mcp.server]].name",
					Message:    "[[mcp.server]] requires a string 'name' " + where + ": an agent names the server in its available list",
					Suggestion: "add name = \"...\", the toolset name agents declare"})
			case name.Kind == tomlpos.KindString && name.Str == "":
				p.Report(Finding{Span: name.Span(), Key: "[[mcp.server]].name",
					Message: "[[mcp.server]] requires a non-empty 'name' " + where + ": an agent names the server in its available list"})
			}
		}
	},
}
