package migrate_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/migrate"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/lint"
)

// approvalTools are the bare tool names the generated approval lists use,
// each with the one entry the migration writes for it.
var approvalTools = map[string]string{
	"execute_python": "compute.execute_python", "run_command": "compute.run_command", "calculate": "compute.calculate",
	"write_file": "fs_write.write_file", "edit_file": "fs_write.edit_file", "update_config": "config.update_config",
	"read_file": "fs.read_file", "web_search": "web.web_search", "echo": "misc.echo",
}

// commented is a generated pre-split config whose lists hold comments in
// every place a list can, and the entry each comment written after an
// item sits by, as the migration should write it.
type commented struct {
	config []byte
	// by is, for a comment after an item on its line, the entry the
	// output should hold on that comment's line or right below it; ""
	// when the item leaves the list it was in.
	by map[string]string
}

// commentGen writes one commented config.
type commentGen struct {
	r   *rand.Rand
	n   int
	out commented
}

// comment is a new comment, its text unique, and awkward on purpose:
// what looks like TOML inside a comment is still a comment.
func (g *commentGen) comment() string {
	g.n++
	tails := []string{"", ` ["x", # y]`, ` "quoted", 'single'`, " = not a key", " #twice", ", a, b,"}
	return fmt.Sprintf("# c%d%s", g.n, tails[g.r.IntN(len(tails))])
}

// list writes items as a TOML list in one of many layouts; want maps each
// item to the entry the migration writes for it, "" when it leaves the
// list.
func (g *commentGen) list(items []string, want func(string) string) string {
	r := g.r
	q := tomlpos.BasicString
	if r.IntN(5) == 0 { // on one line: no comment fits inside
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = q(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	var b strings.Builder
	b.WriteString("[")
	if r.IntN(2) == 0 {
		b.WriteString(" " + g.comment())
	}
	b.WriteString("\n")
	for i, it := range items {
		if r.IntN(4) == 0 {
			b.WriteString("\n")
		}
		for range r.IntN(3) {
			b.WriteString("  " + g.comment() + "\n")
		}
		b.WriteString("  " + q(it))
		if i < len(items)-1 || r.IntN(2) == 0 {
			b.WriteString(",")
		}
		if i < len(items)-1 && r.IntN(4) == 0 { // the next item on this line
			b.WriteString(" ")
			continue
		}
		if r.IntN(2) == 0 {
			c := g.comment()
			b.WriteString(strings.Repeat(" ", 1+r.IntN(3)) + c)
			g.out.by[c] = want(it)
		}
		b.WriteString("\n")
	}
	for range r.IntN(2) {
		b.WriteString("  " + g.comment() + "\n")
	}
	b.WriteString("]")
	return b.String()
}

// key writes key = list, with a comment after it on its line or not.
func (g *commentGen) key(b *strings.Builder, key, list string) {
	b.WriteString(key + " = " + list)
	if g.r.IntN(2) == 0 {
		b.WriteString("  " + g.comment())
	}
	b.WriteString("\n")
}

// pick is 1 to n names of pool, repeats allowed.
func (g *commentGen) pick(pool []string, n int) []string {
	out := make([]string, 1+g.r.IntN(n))
	for i := range out {
		out[i] = pool[g.r.IntN(len(pool))]
	}
	return out
}

func generateCommented(seed uint64) commented {
	r := rand.New(rand.NewPCG(seed, 29))
	g := &commentGen{r: r, out: commented{by: map[string]string{}}}
	var b strings.Builder
	b.WriteString("# generated pre-split config with comments\n[assistant]\nagent = \"assistant\"\n")
	if r.IntN(3) == 0 {
		b.WriteString("memory = true  " + g.comment() + "\n")
	}
	b.WriteString("\n")

	toolsets := []string{"web", "fs", "fs_write", "compute", "time", "misc", "config", "mcp-admin"}
	same := func(s string) string {
		if s == "mcp-admin" {
			return "mcp"
		}
		return s
	}
	// Now and then no agent at all: a place of the whole file, marked at
	// its first line.
	for _, agent := range []string{"assistant", "worker"}[:min(2, r.IntN(6))] {
		fmt.Fprintf(&b, "[agents.%s]\ndescription = \"The %s.\"\n", agent, agent)
		g.key(&b, "tools", g.list(g.pick(toolsets, 6), same))
		if r.IntN(2) == 0 {
			g.key(&b, "groups", g.list(g.pick(toolsets[:6], 3), same))
		}
		if r.IntN(3) == 0 {
			g.key(&b, "tool_packs", g.list(g.pick([]string{"github_backup", "time"}, 2), same))
		}
		b.WriteString("\n")
	}

	bare := slices.Sorted(func(yield func(string) bool) {
		for k := range approvalTools {
			if !yield(k) {
				return
			}
		}
	})
	qualify := func(s string) string {
		if q, ok := approvalTools[s]; ok {
			return q
		}
		return s
	}
	entries := append(slices.Clone(bare), "compute.run_command", "fs_write.write_file")
	confirm := g.pick(entries, 7)
	var review []string
	for _, e := range confirm {
		if r.IntN(3) == 0 {
			review = append(review, e) // in both old lists: it moves to review
		}
	}
	if r.IntN(3) == 0 {
		review = append(review, g.pick(entries, 2)...) // in review alone
	}
	reviewed := map[string]bool{}
	for _, e := range review {
		reviewed[qualify(e)] = true
	}
	b.WriteString("[security]\n")
	g.key(&b, "confirm_tools", g.list(confirm, func(e string) string {
		if reviewed[qualify(e)] {
			return ""
		}
		return qualify(e)
	}))
	if r.IntN(2) == 0 {
		g.key(&b, "never_auto_approve", g.list(g.pick([]string{"config.update_config", "mcp.add_mcp_server"}, 2), func(e string) string { return e }))
	}
	if len(review) > 0 {
		b.WriteString("\n[security.auto_approval]\nenabled = false\n")
		g.key(&b, "tools", g.list(review, qualify))
	}
	text := b.String()
	if r.IntN(4) == 0 {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	g.out.config = []byte(text)
	return g.out
}

// arraySpans are the byte ranges of every list of a parsed document.
func arraySpans(root *tomlpos.Node) [][2]int {
	var out [][2]int
	var walk func(n *tomlpos.Node)
	walk = func(n *tomlpos.Node) {
		switch {
		case n.Kind == tomlpos.KindArray && !n.ArrayOfTables:
			from, to := n.Offsets()
			out = append(out, [2]int{from, to})
		case n.Kind == tomlpos.KindTable || n.ArrayOfTables:
			for _, f := range n.Fields {
				walk(f.Value)
			}
			for _, it := range n.Items {
				walk(it)
			}
		}
	}
	walk(root)
	return out
}

// TestCommentsKept: for generated configs whose old lists hold comments
// in every place (on the key's line, after '[', above, after and between
// entries, on the closing line), with entries in both old lists, in one,
// twice, and several on a line, the migration keeps every comment's text;
// a comment after an entry that stays is on that entry's line or right
// above it; a comment no longer in a list or after a key is named by a
// change; and the output is valid TOML that migrates to itself.
func TestCommentsKept(t *testing.T) {
	moved := 0
	for seed := range uint64(400) {
		in := generateCommented(seed)
		name := fmt.Sprintf("commented-%d", seed)
		res, err := migrate.Migrate(lint.Source{Name: "config.toml", Data: in.config}, lint.DefaultManifest(), migrate.Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, in.config)
		}
		out := res.Output
		root, err := tomlpos.Parse("config.toml", out)
		if err != nil {
			t.Fatalf("%s: the output is not valid TOML: %v\n%s", name, err, out)
		}
		again, err := migrate.Migrate(lint.Source{Name: "config.toml", Data: out}, lint.DefaultManifest(), migrate.Options{})
		if err != nil || string(again.Output) != string(out) {
			t.Errorf("%s: a second migration changes the output (%v):\n%s", name, err, migrate.Diff("config.toml", out, again.Output))
		}

		before := commentLines(in.config)
		have := commentLines(out)
		for text, n := range before {
			if have[text] < n {
				t.Errorf("%s: the comment %q is lost:\n%s\n--- migrated\n%s", name, text, in.config, out)
			}
		}

		lines := lineindex.New("config.toml", out)
		arrays := arraySpans(root)
		outLines := strings.Split(strings.ReplaceAll(string(out), "\r\n", "\n"), "\n")
		var said strings.Builder
		for _, ch := range res.Changes {
			said.WriteString(ch.Message + "\n")
		}
		for _, c := range tomlpos.Comments(lines) {
			if before[c.Text] == 0 || !strings.HasPrefix(c.Text, "# c") {
				continue // a marker, or the generator's first line
			}
			at := c.Span.Start.Offset
			inList := slices.ContainsFunc(arrays, func(s [2]int) bool { return at > s[0] && at < s[1] })
			if c.Alone && !inList && !strings.Contains(said.String(), strconv.Quote(c.Text)) {
				t.Errorf("%s: the comment %q now stands alone outside any list, and no change says so:\n%s\n--- migrated\n%s", name, c.Text, in.config, out)
			}
			if !c.Alone && !inList && strings.HasPrefix(strings.TrimSpace(outLines[c.Span.Start.Line-1]), "[") {
				t.Errorf("%s: the comment %q ended up after a header", name, c.Text)
			}
			entry, ok := in.by[c.Text]
			if !ok || entry == "" {
				continue
			}
			// On the entry's line, or in the comment lines right above it.
			i := c.Span.Start.Line - 1
			for c.Alone && i < len(outLines) && strings.HasPrefix(strings.TrimSpace(outLines[i]), "#") {
				i++
			}
			if i >= len(outLines) || !strings.Contains(outLines[i], tomlpos.BasicString(entry)) {
				t.Errorf("%s: the comment %q by %q is not by it:\n%s\n--- migrated\n%s", name, c.Text, entry, in.config, out)
			}
		}
		for _, ch := range res.Changes {
			if strings.HasPrefix(ch.Message, "the comment ") {
				moved++
			}
		}
	}
	if moved < 100 {
		t.Errorf("only %d comments moved in all: the generator does not exercise moves", moved)
	}
	t.Logf("%d comments moved, each with a change saying so", moved)
}
