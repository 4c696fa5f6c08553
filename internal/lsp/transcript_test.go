package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
)

// TestTranscript: a scripted session, twice (UTF-16, then UTF-8
// positions), and every message the server writes, one a line, compared
// with testdata/lsp/transcript/want.txt (-update rewrites it), the second
// session by the lines that differ from the first (transcript). Each
// frame's header is checked as it is read. The session
// goes through every method the server takes, with a config holding
// errors, a warning and characters JSON escapes, a policy test file and
// a TOML file that is not Kokua's, then through ids and members of every
// kind a client may get wrong. After each message the client sends a
// hover of its own and reads up to its answer, so that the output's
// order is the server's alone. It keeps what the server writes byte for
// byte as it was on go.lsp.dev (doc.go).
func TestTranscript(t *testing.T) {
	// The folder is not on disk: the test file's config is the open one.
	dir := "/kokua-transcript"
	cfgText := strings.Replace(shipped(t), `available = ["web", "misc"`, `available = ["🦀", "a<b&c>", "webz", "misc"`, 1) + "\n[github_backup]\nrepo = \"me/state\"\n"
	var sessions []string
	for _, enc := range []string{`[]`, `["utf-8"]`} {
		var log strings.Builder
		ours, theirs := net.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- serve(ctx, newFrames(theirs, maxFrame), Options{}) }()
		in := bufio.NewReader(ours)
		n := 0
		frames := make(chan string, 1<<12)
		go func() {
			defer close(frames)
			for {
				line, err := in.ReadString('\n')
				if err != nil {
					return
				}
				l, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "Content-Length: "), "\r\n"))
				blank, _ := in.ReadString('\n')
				body := make([]byte, l)
				_, _ = io.ReadFull(in, body)
				// The frame's header is checked here and the body logged:
				// a header other than the one go.lsp.dev wrote is logged
				// whole.
				if line != fmt.Sprintf("Content-Length: %d\r\n", len(body)) || blank != "\r\n" {
					frames <- fmt.Sprintf("FRAME %q%q%s", line, blank, body)
					continue
				}
				frames <- string(body)
			}
		}()
		readUntil := func(id string) {
			timeout := patience.After(t, 20*time.Second)
			for {
				var f string
				var ok bool
				select {
				case f, ok = <-frames:
				case <-timeout:
					fmt.Fprintf(&log, "TIMEOUT\n")
					return
				}
				if !ok {
					fmt.Fprintf(&log, "READ END\n")
					return
				}
				var m struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				_ = json.Unmarshal([]byte(f), &m)
				// The answer to the client's own hover is logged only when
				// it is not the null it must be.
				if m.Method == "" && string(m.ID) == id {
					if f != `{"jsonrpc":"2.0","result":null,"id":`+id+`}` {
						fmt.Fprintf(&log, "< %s\n", shown(f))
					}
					return
				}
				fmt.Fprintf(&log, "< %s\n", shown(f))
			}
		}
		// msg sends one message, framed, and logs it.
		msg := func(body string) {
			n++
			fmt.Fprintf(&log, "> %s\n", shown(body))
			id := fmt.Sprintf(`"sync%d"`, n)
			_, _ = io.WriteString(ours, frame(body)+frame(ping(id)))
			readUntil(id)
		}
		call := func(id, method string, params any) {
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
			msg(string(b))
		}
		note := func(method string, params any) {
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
			msg(string(b))
		}
		cfg := "file://" + dir + "/config.toml"
		tf := "file://" + dir + "/kokua.test.toml"
		pos := func(s, needle string, skip int) map[string]any {
			p := newText(s).protocolPos(strings.Index(s, needle)+skip, UTF16)
			if enc != "[]" {
				p = newText(s).protocolPos(strings.Index(s, needle)+skip, UTF8)
			}
			return map[string]any{"line": p.Line, "character": p.Character}
		}
		td := func(u string) map[string]any { return map[string]any{"uri": u} }
		call("0", "textDocument/hover", map[string]any{"textDocument": td(cfg), "position": map[string]any{"line": 0, "character": 0}})
		msg(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":1,"rootUri":"file://` + dir + `","capabilities":{"general":{"positionEncodings":` + enc + `}}}}`)
		msg(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
		msg(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}`)
		note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": cfg, "languageId": "toml", "version": 1, "text": cfgText}})
		note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///tmp/Cargo.toml", "languageId": "toml", "version": 1, "text": "[package]\nname='x'\n"}})
		note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": tf, "languageId": "toml", "version": 1, "text": "[[expect]]\nagent = \"reseacher\"\ntool = \"c\"\ndecision = [\"\"]\nloaded = [\"\"]\n\n"}})
		call("3", "textDocument/hover", map[string]any{"textDocument": td(cfg), "position": pos(cfgText, "available", 3)})
		call("4", "textDocument/hover", map[string]any{"textDocument": td(cfg), "position": pos(cfgText, `"misc"`, 2)})
		call("5", "textDocument/hover", map[string]any{"textDocument": td(cfg), "position": pos(cfgText, `"coder"`, 2)})
		call("6", "textDocument/hover", map[string]any{"textDocument": td(cfg), "position": pos(cfgText, `# Kokua`, 2)})
		call("7", "textDocument/completion", map[string]any{"textDocument": td(cfg), "position": pos(cfgText, `"webz"`, 2)})
		call("8", "textDocument/completion", map[string]any{"textDocument": td(cfg), "position": pos(cfgText, `[agents.coder.tools]`, len("[agents.coder.tools]\n"))})
		call("9", "textDocument/completion", map[string]any{"textDocument": td(tf), "position": pos("[[expect]]\nagent = \"reseacher\"\ntool = \"c\"\n", `tool = "c`, 9)})
		call("10", "textDocument/codeAction", map[string]any{"textDocument": td(cfg), "range": map[string]any{"start": pos(cfgText, "webz", 0), "end": pos(cfgText, "webz", 2)}, "context": map[string]any{"diagnostics": []any{}}})
		call("11", "textDocument/codeAction", map[string]any{"textDocument": td(cfg), "range": map[string]any{"start": pos(cfgText, "[github_backup]", 0), "end": pos(cfgText, "[github_backup]", 2)}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"source"}}})
		call("12", "textDocument/codeAction", map[string]any{"textDocument": td(cfg), "range": map[string]any{"start": pos(cfgText, "[github_backup]", 0), "end": pos(cfgText, "[github_backup]", 2)}, "context": map[string]any{"diagnostics": []any{}}})
		call("13", "textDocument/definition", map[string]any{"textDocument": td(cfg), "position": pos(cfgText, `"coder"`, 2)})
		call("14", "textDocument/definition", map[string]any{"textDocument": td(cfg), "position": pos(cfgText, `# Kokua`, 2)})
		note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": cfg, "version": 2}, "contentChanges": []any{map[string]any{"range": map[string]any{"start": pos(cfgText, "webz", 4), "end": pos(cfgText, "webz", 4)}, "text": "<é>"}}})
		note("textDocument/didSave", map[string]any{"textDocument": td(cfg)})
		note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": cfg, "version": 3}, "contentChanges": []any{map[string]any{"text": "[agents.x]\n"}}})
		note("textDocument/didClose", map[string]any{"textDocument": td(tf)})
		call(`"str"`, "x/unknown", nil)
		call(`-7`, "x/unknown", map[string]any{})
		note("x/unknown", 5)
		note("$/cancelRequest", map[string]any{"id": 3})
		call("15", "textDocument/hover", map[string]any{"textDocument": "nope"})
		call("16", "textDocument/completion", []int{1})
		note("textDocument/didOpen", "nope")
		msg(`{"jsonrpc":"2.0","id":17,"method":"textDocument/hover","params":null}`)
		msg(`{"jsonrpc":"2.0","id":18,"method":"textDocument/hover"}`)
		msg(`{"id":19,"method":"textDocument/hover"}`)
		msg(`{"jsonrpc":"2.0","id":2147483648,"method":"shutdown"}`)
		msg(`{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}`)
		msg(`{"jsonrpc":"2.0","id":"","method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":null,"method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":true,"method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":-2147483648,"method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":20,"result":null}`)
		msg(`{"jsonrpc":"2.0","id":21,"error":{"code":1,"message":"m"}}`)
		msg(`{"jsonrpc":"2.0","method":""}`)
		msg(`{"jsonrpc":"2.0","id":22,"method":""}`)
		msg(`{"jsonrpc":"2.0"}`)
		msg(`{"jsonrpc":"2.0","id":23,"method":5}`)
		msg(`{"jsonrpc":"2.0","id":24,"method":"x","params":5}`)
		msg(`{"jsonrpc":"2.0","id":25,"method":"x","extra":{"a":[1,2]}}`)
		msg(`{"jsonrpc":"2.0","id":26,"Method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":27,"method":"x","method":"shutdown2"}`)
		msg(`{"jsonrpc":2,"id":28,"method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":"a\u00e9\"<","method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":29,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a\u0000b"},"position":{"line":-1,"character":1e3}}}`)
		msg(`{"jsonrpc":"2.0","id":30,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a"},"position":{"line":1.5,"character":0}}}`)
		msg("{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"x\xff\"}")
		msg(`{"jsonrpc":null,"id":40,"method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":1.0,"method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":1e2,"method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":"41","method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":-0,"method":"x"}`)
		msg(`{"jsonrpc":"2.0","id":42,"method":"x","params":{"a":1},"result":5}`)
		msg(`{"jsonrpc":"2.0","id":43,"method":"x","error":5}`)
		msg(`{"jsonrpc":"2.0","id":44,"method":"x","error":{"code":"a"}}`)
		msg(`{"jsonrpc":"2.0","id":45,"method":"textDocument/hover","params":[]}`)
		msg(`{"jsonrpc":"2.0","id":46,"method":"x"} `)
		msg(`{"jsonrpc":"2.0","id":47,"method":"x"}{"a":1}`)
		msg(`{"jsonrpc":"2.0","id":48,"method":"x","id":49}`)
		msg(`{"jsonrpc":"2.0","id":50,"method":"x","jsonrpc":"1.0"}`)
		msg(`{"jsonrpc":"2.0","ID":51,"METHOD":"x"}`)
		note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///tmp/ws2/config.toml", "languageId": "toml", "version": -3, "text": "[agents.a]\n[agents.a.tools]\navailable = [\"a\u2028b\u2029\\u0001<x>&\"]\n"}})
		msg(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/ws3/config.toml","version":2147483648,"text":""}}}`)
		msg(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/ws3/config.toml","version":7,"text":"[agents.b]\n[agents.b.tools]\navailable = [\"\ud83e\", \"z\u0000\"]\n"}}}`)
		msg(`{"jsonrpc":"2.0","id":32,"method":"shutdown","params":[]}`)
		msg(`{"jsonrpc":"2.0","id":33,"method":"initialize","params":{}}`)
		_, _ = io.WriteString(ours, frame(`{"jsonrpc":"2.0","method":"exit"}`))
		select {
		case err := <-done:
			fmt.Fprintf(&log, "SERVE %v\n", err)
		case <-patience.After(t, 10*time.Second):
			fmt.Fprintf(&log, "SERVE did not return\n")
		}
		cancel()
		_ = ours.Close()
		sessions = append(sessions, log.String())
	}
	golden.Check(t, filepath.Join(golden.Root(t), "testdata", "lsp", "transcript", "want.txt"), []byte(transcript(sessions[0], sessions[1])))
}

// shown is a message as the transcript shows it: as it is, or quoted when
// it is not UTF-8 or holds a character that would break its line.
func shown(body string) string {
	if utf8.ValidString(body) && !strings.ContainsFunc(body, func(r rune) bool {
		return r < 0x20 || r == 0x7f || r == 0x85 || r == '\u2028' || r == '\u2029'
	}) {
		return body
	}
	return fmt.Sprintf("(quoted) %q", body)
}

// transcript is the UTF-16 session whole, then the lines of the UTF-8
// session that differ from the UTF-16 session's line in the same place,
// by that line's number in the file: of the same message, the members
// that differ, otherwise the whole line.
func transcript(utf16, utf8 string) string {
	var b strings.Builder
	b.WriteString("# positions in UTF-16 code units\n")
	b.WriteString(utf16)
	b.WriteString("# positions in UTF-8 bytes: the session again, where it differs from the line of the number given\n")
	one, two := strings.Split(utf16, "\n"), strings.Split(utf8, "\n")
	for i, line := range two {
		switch {
		case i < len(one) && one[i] == line:
		case i < len(one) && line[:min(2, len(line))] == one[i][:min(2, len(one[i]))]:
			// The same message with other members: its members that
			// differ, each with the UTF-16 session's value.
			var x, y any
			if json.Unmarshal([]byte(one[i][min(2, len(one[i])):]), &x) == nil && json.Unmarshal([]byte(line[2:]), &y) == nil {
				if ds := jsonDiff("", x, y); len(ds) > 0 {
					for _, d := range ds {
						fmt.Fprintf(&b, "%d: %s %s\n", i+2, line[:1], d)
					}
					continue
				}
			}
			fallthrough
		default:
			fmt.Fprintf(&b, "%d: %s\n", i+2, line)
		}
	}
	return b.String()
}

// jsonDiff lists the members that differ between two JSON values, as
// "path: new (was old)".
func jsonDiff(path string, was, now any) []string {
	switch o := was.(type) {
	case map[string]any:
		if n, ok := now.(map[string]any); ok {
			keys := map[string]bool{}
			for k := range o {
				keys[k] = true
			}
			for k := range n {
				keys[k] = true
			}
			var out []string
			for _, k := range slices.Sorted(maps.Keys(keys)) {
				out = append(out, jsonDiff(path+"."+k, o[k], n[k])...)
			}
			return out
		}
	case []any:
		if n, ok := now.([]any); ok && len(n) == len(o) {
			var out []string
			for i := range o {
				out = append(out, jsonDiff(fmt.Sprintf("%s[%d]", path, i), o[i], n[i])...)
			}
			return out
		}
	}
	a, _ := json.Marshal(was)
	b, _ := json.Marshal(now)
	if bytes.Equal(a, b) {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s (was %s)", path, b, a)}
}
