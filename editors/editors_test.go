// Package editors holds the tests of the editor setups docs/editor.md gives
// for `kokua-lint lsp`: the VS Code extension's choice of files, run in
// Node with VS Code's API stood in for, and the command lines the Helix
// configuration and the Zed extension start, each run as a language server
// and asked for a broken config's diagnostics. (The Neovim setup runs in a
// real Neovim: scripts/test-neovim.sh.) It has no code of its own.
package editors

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
)

// docBlock returns the code block of docs/editor.md marked
// <!-- test: name -->.
func docBlock(t *testing.T, name, lang string) string {
	t.Helper()
	page, err := os.ReadFile(filepath.Join("..", "docs", "editor.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- test: " + regexp.QuoteMeta(name) + " -->\n```" + lang + "\n(.*?)```").FindSubmatch(page)
	if m == nil {
		t.Fatalf("docs/editor.md has no ```%s block after <!-- test: %s -->", lang, name)
	}
	return string(m[1])
}

// vscodeHarness loads extension.js in Node with stand-ins for the vscode
// module and the language client, activates it, and prints what it asked
// the client for, with package.json's activation events.
const vscodeHarness = `
const Module = require("module");
const dir = process.argv[1];
const seen = {};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") {
    const settings = { manifest: "kokua.manifest.json", path: "" };
    return { workspace: { getConfiguration: (section) => ({ get: (key) => section === "kokuaLint" ? settings[key] : undefined }) } };
  }
  if (request === "vscode-languageclient/node") {
    return { LanguageClient: class {
      constructor(id, name, server, options) { Object.assign(seen, { id, server, options }); }
      start() { seen.started = true; return Promise.resolve(); }
      stop() { return Promise.resolve(); }
    } };
  }
  return load.apply(this, arguments);
};
const context = { subscriptions: [] };
Promise.resolve(require(dir + "/extension.js").activate(context)).then(() => {
  seen.subscribed = context.subscriptions.length;
  seen.activationEvents = require(dir + "/package.json").activationEvents;
  process.stdout.write(JSON.stringify(seen));
});
`

// TestVSCodeSelectsConfigByName runs editors/vscode/extension.js in Node,
// with VS Code's API stood in for (no VS Code runs here), and checks that
// it starts `kokua-lint lsp --manifest ...` for files named config.toml by
// pattern, so that no TOML extension is needed, and that it activates
// without a TOML language too.
func TestVSCodeSelectsConfigByName(t *testing.T) {
	node := needs.Program(t, "node", "apt-get install nodejs")
	dir, err := filepath.Abs("vscode")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, "-e", vscodeHarness, dir).Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var seen struct {
		ID     string
		Server struct {
			Command string
			Args    []string
		}
		Options struct {
			DocumentSelector []map[string]string
		}
		Started          bool
		Subscribed       int
		ActivationEvents []string
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if seen.Server.Command != "kokua-lint" || !slices.Equal(seen.Server.Args, []string{"lsp", "--manifest", "kokua.manifest.json"}) {
		t.Errorf("the extension starts %q %q, want kokua-lint lsp --manifest kokua.manifest.json", seen.Server.Command, seen.Server.Args)
	}
	if !seen.Started || seen.Subscribed != 1 {
		t.Errorf("the client was not started and handed to the context: %+v", seen)
	}
	// A config and a policy test file (docs/policy-tests.md), each by
	// its name alone.
	for _, pattern := range []string{"**/config.toml", "**/*.test.toml"} {
		byName := false
		for _, f := range seen.Options.DocumentSelector {
			if f["pattern"] == pattern && f["language"] == "" && f["scheme"] == "file" {
				byName = true
			}
		}
		if !byName {
			t.Errorf("no document filter selects %s by name alone (a language needs a TOML extension): %v", pattern, seen.Options.DocumentSelector)
		}
	}
	for _, e := range []string{"workspaceContains:**/config.toml", "workspaceContains:**/kokua.test.toml", "onStartupFinished"} {
		if !slices.Contains(seen.ActivationEvents, e) {
			t.Errorf("package.json's activationEvents %q lack %q, which fires without a TOML language", seen.ActivationEvents, e)
		}
	}
}

// commandLine is how an editor starts the server.
type commandLine struct {
	command string
	args    []string
	init    any // initializationOptions
}

// helixCommand reads docs/editor.md's Helix configuration as Helix would:
// the kokua-lint language server, and the toml language using it.
func helixCommand(t *testing.T) commandLine {
	var cfg struct {
		LanguageServer map[string]struct {
			Command string
			Args    []string
		} `toml:"language-server"`
		Language []struct {
			Name            string
			LanguageServers []string `toml:"language-servers"`
		}
	}
	if err := toml.Unmarshal([]byte(docBlock(t, "helix", "toml")), &cfg); err != nil {
		t.Fatalf("the Helix block of docs/editor.md is not valid TOML: %v", err)
	}
	server, ok := cfg.LanguageServer["kokua-lint"]
	if !ok {
		t.Fatalf("the Helix block declares no [language-server.kokua-lint]")
	}
	if len(cfg.Language) != 1 || cfg.Language[0].Name != "toml" || !slices.Contains(cfg.Language[0].LanguageServers, "kokua-lint") {
		t.Errorf("the Helix block does not give the toml language the kokua-lint server: %+v", cfg.Language)
	}
	return commandLine{command: server.Command, args: server.Args}
}

// zedCommand reads editors/zed: the server its extension.toml registers for
// TOML, the command and arguments its src/lib.rs starts by default, and the
// initialization options of docs/editor.md's Zed settings.
func zedCommand(t *testing.T) commandLine {
	var ext struct {
		ID              string
		SchemaVersion   int `toml:"schema_version"`
		LanguageServers map[string]struct {
			Name      string
			Languages []string
		} `toml:"language_servers"`
	}
	raw, err := os.ReadFile(filepath.Join("zed", "extension.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal(raw, &ext); err != nil {
		t.Fatalf("editors/zed/extension.toml: %v", err)
	}
	if s, ok := ext.LanguageServers["kokua-lint"]; !ok || !slices.Equal(s.Languages, []string{"TOML"}) || ext.SchemaVersion != 1 {
		t.Errorf("editors/zed/extension.toml does not register kokua-lint for TOML: %+v", ext)
	}
	src, err := os.ReadFile(filepath.Join("zed", "src", "lib.rs"))
	if err != nil {
		t.Fatal(err)
	}
	command := regexp.MustCompile(`const COMMAND: &str = "([^"]+)";`).FindSubmatch(src)
	args := regexp.MustCompile(`unwrap_or_else\(\|\| vec!\["([^"]+)"\.to_string\(\)\]\)`).FindSubmatch(src)
	if command == nil || args == nil || !bytes.Contains(src, []byte("worktree.which(COMMAND)")) {
		t.Fatalf("editors/zed/src/lib.rs: cannot find the command it looks up on PATH and its default arguments")
	}
	var settings struct {
		LSP map[string]struct {
			InitializationOptions map[string]any `json:"initialization_options"`
		} `json:"lsp"`
	}
	if err := json.Unmarshal([]byte(docBlock(t, "zed", "json")), &settings); err != nil {
		t.Fatalf("the Zed settings of docs/editor.md are not JSON: %v", err)
	}
	server, ok := settings.LSP[string(command[1])]
	if !ok || server.InitializationOptions["manifest"] == nil {
		t.Fatalf("the Zed settings of docs/editor.md give no initialization_options.manifest for %s", command[1])
	}
	return commandLine{command: string(command[1]), args: []string{string(args[1])}, init: server.InitializationOptions}
}

// TestEditorCommandsServe starts the server as the Helix configuration and
// the Zed extension would (Helix and Zed do not run here: no Debian
// package has them, and the Zed extension's Rust needs a crate registry
// this machine cannot reach), with a kokua-lint built from this checkout
// first on PATH, and checks that each answers a broken config with its
// finding.
func TestEditorCommandsServe(t *testing.T) {
	lines := map[string]commandLine{"helix": helixCommand(t), "zed": zedCommand(t)}
	goCmd := needs.Program(t, "go", "the Go toolchain")
	bin := t.TempDir()
	build := exec.Command(goCmd, "build", "-o", filepath.Join(bin, "kokua-lint"), "./cmd/kokua-lint")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	shipped, err := os.ReadFile(filepath.Join("..", "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(shipped, []byte(`available = ["web", "misc"`), []byte(`available = ["webb", "misc"`), 1)
	if bytes.Equal(broken, shipped) {
		t.Fatal("the typo was not written into the config")
	}
	for _, editor := range []string{"helix", "zed"} {
		t.Run(editor, func(t *testing.T) {
			line := lines[editor]
			root := t.TempDir()
			if line.init != nil {
				// The manifest the initialization options name, from the
				// workspace root: the embedded one, written out.
				manifest := exec.Command(filepath.Join(bin, "kokua-lint"), "manifest")
				out, err := manifest.Output()
				if err != nil {
					t.Fatalf("kokua-lint manifest: %v", err)
				}
				name, _ := line.init.(map[string]any)["manifest"].(string)
				if err := os.WriteFile(filepath.Join(root, name), out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			diags := serve(t, bin, root, line, broken)
			if len(diags) != 1 || diags[0].Code != "unknown-toolset" || !strings.Contains(diags[0].Message, "'webb'") {
				t.Errorf("%s's command %s %q answered %+v, want one unknown-toolset finding on 'webb'", editor, line.command, line.args, diags)
			}
		})
	}
}

type diagnostic struct {
	Code    string
	Message string
}

// serve runs one session of the server as line starts it, in root, with
// bin first on PATH: initialize, open config.toml, wait for its
// diagnostics, shut down.
func serve(t *testing.T, bin, root string, line commandLine, config []byte) []diagnostic {
	t.Helper()
	if strings.ContainsRune(line.command, filepath.Separator) {
		t.Fatalf("the command %q is a path; an editor setup names the command, found on PATH", line.command)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd := exec.Command(line.command, line.args...)
	if cmd.Err != nil || filepath.Dir(cmd.Path) != bin {
		t.Fatalf("the command %q is not the kokua-lint built from this checkout (%s, %v)", line.command, cmd.Path, cmd.Err)
	}
	cmd.Dir = root
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the server exited with %v; stderr:\n%s", err, stderr.String())
			}
		case <-patience.After(t, 10*time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("the server did not exit after exit; stderr:\n%s", stderr.String())
		}
	}()
	rootURI := (&url.URL{Scheme: "file", Path: root}).String()
	docURI := (&url.URL{Scheme: "file", Path: filepath.Join(root, "config.toml")}).String()
	send := func(msg map[string]any) {
		msg["jsonrpc"] = "2.0"
		body, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
			t.Fatalf("writing to the server: %v; stderr:\n%s", err, stderr.String())
		}
	}
	msgs := make(chan map[string]any, 1024)
	go read(out, msgs)
	await := func(what string, match func(map[string]any) bool) map[string]any {
		timeout := patience.After(t, 60*time.Second)
		for {
			select {
			case m, ok := <-msgs:
				if !ok {
					t.Fatalf("the server closed its output before %s; stderr:\n%s", what, stderr.String())
				}
				if match(m) {
					return m
				}
			case <-timeout:
				t.Fatalf("no %s within a minute; stderr:\n%s", what, stderr.String())
			}
		}
	}
	init := map[string]any{"processId": os.Getpid(), "rootUri": rootURI, "capabilities": map[string]any{}}
	if line.init != nil {
		init["initializationOptions"] = line.init
	}
	send(map[string]any{"id": 1, "method": "initialize", "params": init})
	await("answer to initialize", func(m map[string]any) bool { return m["id"] == float64(1) })
	send(map[string]any{"method": "initialized", "params": map[string]any{}})
	send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": docURI, "languageId": "toml", "version": 1, "text": string(config)}}})
	m := await("diagnostics of config.toml", func(m map[string]any) bool {
		p, _ := m["params"].(map[string]any)
		return m["method"] == "textDocument/publishDiagnostics" && p["uri"] == docURI
	})
	var params struct{ Diagnostics []diagnostic }
	raw, _ := json.Marshal(m["params"])
	if err := json.Unmarshal(raw, &params); err != nil {
		t.Fatal(err)
	}
	send(map[string]any{"id": 2, "method": "shutdown"})
	await("answer to shutdown", func(m map[string]any) bool { return m["id"] == float64(2) })
	send(map[string]any{"method": "exit"})
	return params.Diagnostics
}

// read delivers the server's messages until its output ends.
func read(r io.Reader, msgs chan<- map[string]any) {
	defer close(msgs)
	br := bufio.NewReader(r)
	for {
		length := -1
		for {
			h, err := br.ReadString('\n')
			if err != nil {
				return
			}
			h = strings.TrimSpace(h)
			if h == "" {
				break
			}
			if v, ok := strings.CutPrefix(strings.ToLower(h), "content-length:"); ok {
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if length < 0 {
			return
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(br, body); err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			msgs <- m
		}
	}
}
