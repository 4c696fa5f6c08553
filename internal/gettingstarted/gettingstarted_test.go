//go:build unix

package gettingstarted

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

var update = flag.Bool("update", false, "rewrite the outputs docs/getting-started.md shows from what the commands print")

const page = "../../docs/getting-started.md"

// A block is one fenced block of the page that the walk-through acts on:
// a file to write (the fence follows a line <!-- file: NAME -->), an edit
// to make (a ```diff after <!-- edit: NAME -->), or a ```console session
// to run. from and to are the bytes of its content in the page.
type block struct {
	kind, name, body string
	line             int
	from, to         int
}

// command is one "$ " line of a console block and the output the page
// shows below it.
type command struct {
	line, output string
}

func blocks(t *testing.T, doc string) []block {
	t.Helper()
	var out []block
	marker := ""
	at := 0
	lines := strings.SplitAfter(doc, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSuffix(lines[i], "\n")
		at += len(lines[i])
		if strings.HasPrefix(line, "<!-- file: ") || strings.HasPrefix(line, "<!-- edit: ") {
			marker = line
			continue
		}
		info, fence := strings.CutPrefix(line, "```")
		if !fence {
			if strings.TrimSpace(line) != "" {
				marker = ""
			}
			continue
		}
		from, first := at, i+1
		for i++; i < len(lines) && strings.TrimSuffix(lines[i], "\n") != "```"; i++ {
			at += len(lines[i])
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: a fenced block that does not end", page, first)
		}
		b := block{body: doc[from:at], line: first + 1, from: from, to: at}
		at += len(lines[i])
		switch {
		case strings.HasPrefix(marker, "<!-- file: "):
			b.kind, b.name = "file", strings.TrimSuffix(strings.TrimPrefix(marker, "<!-- file: "), " -->")
		case strings.HasPrefix(marker, "<!-- edit: "):
			if info != "diff" {
				t.Fatalf("%s:%d: an edit is written as a ```diff block", page, first)
			}
			b.kind, b.name = "edit", strings.TrimSuffix(strings.TrimPrefix(marker, "<!-- edit: "), " -->")
		case info == "console":
			b.kind = "console"
		default:
			marker = ""
			continue
		}
		marker = ""
		out = append(out, b)
	}
	return out
}

// commands splits a console block into its commands, each with the output
// shown below it.
func commands(t *testing.T, b block) []command {
	t.Helper()
	var out []command
	for n, line := range strings.SplitAfter(b.body, "\n") {
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			out = append(out, command{line: strings.TrimSuffix(cmd, "\n")})
			continue
		}
		if len(out) == 0 {
			t.Fatalf("%s:%d: a console block starts with output, not a $ command", page, b.line+n)
		}
		out[len(out)-1].output += line
	}
	return out
}

// edit makes a ```diff block's change: the lines it keeps and removes,
// in order, must be in the file exactly once, and become the lines it
// keeps and adds.
func edit(t *testing.T, dir string, b block) {
	t.Helper()
	path := filepath.Join(dir, b.name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s:%d: %v", page, b.line, err)
	}
	var old, made strings.Builder
	for _, line := range strings.SplitAfter(b.body, "\n") {
		if line == "" {
			continue
		}
		switch line[0] {
		case ' ':
			old.WriteString(line[1:])
			made.WriteString(line[1:])
		case '-':
			old.WriteString(line[1:])
		case '+':
			made.WriteString(line[1:])
		default:
			t.Fatalf("%s:%d: a diff line that starts with neither a space, - nor +: %q", page, b.line, line)
		}
	}
	if n := strings.Count(string(data), old.String()); n != 1 {
		t.Fatalf("%s:%d: the lines the edit changes are in %s %d times, want once:\n%s", page, b.line, b.name, n, old.String())
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old.String(), made.String(), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The one thing the test changes in what the page says to type: the
// server listens on a free port rather than 8181, which another test or
// program may hold, and the commands ask that port. Outputs are compared
// with the port written back as 8181.
const docPort = "8181"

// script is the console block as one bash script, so that `echo $?` sees
// the command before it and a server started with & stays up for the
// commands after it. A line \x1e<n> before each command, which no command
// prints, splits the output. After a command run in the background the
// script waits until the port answers, as a person typing the next line
// does without thinking about it.
func script(cmds []command, port string) string {
	var s strings.Builder
	s.WriteString("status=0\n")
	for i, c := range cmds {
		line := strings.ReplaceAll(c.line, "127.0.0.1:"+docPort, "127.0.0.1:"+port)
		if rest, ok := strings.CutPrefix(line, "kokua-run serve "); ok {
			line = "kokua-run serve --addr 127.0.0.1:" + port + " " + rest
		}
		fmt.Fprintf(&s, "printf '\\036%d\\n'\n(exit $status)\n%s\nstatus=$?\n", i, line)
		if strings.HasSuffix(line, "&") {
			fmt.Fprintf(&s, "for i in $(seq 1 200); do (: </dev/tcp/127.0.0.1/%s) 2>/dev/null && break; sleep 0.05; done\n", port)
		}
	}
	return s.String()
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// run runs a console block's commands in dir and returns what each
// printed, standard output and standard error together, in the order they
// were written, as a terminal shows them.
func run(t *testing.T, dir, bin string, b block, cmds []command) []string {
	t.Helper()
	port := freePort(t)
	out, err := os.CreateTemp(t.TempDir(), "output")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = out.Close() }()
	sh := exec.Command("bash", "-c", script(cmds, port))
	sh.Dir = dir
	sh.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8"}
	sh.Stdout, sh.Stderr = out, out
	// Its own process group, so that a server it started in the
	// background is stopped with it.
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = sh.Run()
	_ = syscall.Kill(-sh.Process.Pid, syscall.SIGKILL)
	if err != nil {
		t.Fatalf("%s:%d: the console block did not run: %v", page, b.line, err)
	}
	data, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(cmds))
	for i, part := range strings.Split(string(data), "\x1e")[1:] {
		n, text, _ := strings.Cut(part, "\n")
		k, err := strconv.Atoi(n)
		if err != nil || k != i || k >= len(cmds) {
			t.Fatalf("%s:%d: the output is out of order at command %d: %q", page, b.line, i, part)
		}
		got[k] = strings.ReplaceAll(text, "127.0.0.1:"+port, "127.0.0.1:"+docPort)
	}
	return got
}

// The steps of the page's walk-through that the issue asks for, each of
// which must stay on the page: lint, fix, compile, diff and serve.
var steps = []string{
	"kokua-lint config.toml",
	"kokua-lint --fix config.toml",
	"kokua-compile agents config.toml",
	"kokua-compile -o policy.json config.toml",
	"kokua-run decide ",
	"kokua-compile diff policy.json config.toml",
	"kokua-compile --check ",
	"kokua-run serve policy.json",
	"curl ",
}

// TestGettingStarted runs docs/getting-started.md in an empty folder: it
// writes the files the page writes, makes the edits it makes and runs each
// command it shows with kokua-lint, kokua-compile and kokua-run built from
// this checkout first on PATH (in place of the page's go install of a
// release, which no module proxy here holds), and compares what each
// prints with the page, byte for byte. With -update it writes what they
// print into the page instead.
func TestGettingStarted(t *testing.T) {
	needs.Program(t, "bash", "Debian's bash")
	needs.Program(t, "curl", "Debian's curl")
	goCmd := needs.Program(t, "go", "the Go toolchain")
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	bin := t.TempDir()
	build := exec.Command(goCmd, "build", "-o", bin, "./cmd/kokua-lint", "./cmd/kokua-compile", "./cmd/kokua-run")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	var ran []string
	type rewrite struct {
		from, to int
		text     string
	}
	var rewrites []rewrite
	for _, b := range blocks(t, doc) {
		switch b.kind {
		case "file":
			if err := os.WriteFile(filepath.Join(dir, b.name), []byte(b.body), 0o644); err != nil {
				t.Fatal(err)
			}
		case "edit":
			edit(t, dir, b)
		case "console":
			cmds := commands(t, b)
			got := run(t, dir, bin, b, cmds)
			var text strings.Builder
			for i, c := range cmds {
				ran = append(ran, c.line)
				if got[i] != "" && !strings.HasSuffix(got[i], "\n") {
					t.Errorf("%s:%d: `%s` prints output that does not end in a line feed, which the page cannot show: %q", page, b.line, c.line, got[i])
				}
				if got[i] != c.output && !*update {
					t.Errorf("%s:%d: `%s` prints something else than the page shows:\n--- printed\n%s--- on the page\n%s", page, b.line, c.line, got[i], c.output)
				}
				text.WriteString("$ " + c.line + "\n" + got[i])
			}
			rewrites = append(rewrites, rewrite{b.from, b.to, text.String()})
		}
	}
	for _, step := range steps {
		found := false
		for _, line := range ran {
			found = found || strings.HasPrefix(line, step)
		}
		if !found {
			t.Errorf("%s runs no command starting %q: the walk-through lost a step", page, step)
		}
	}
	if *update {
		for i := len(rewrites) - 1; i >= 0; i-- {
			r := rewrites[i]
			doc = doc[:r.from] + r.text + doc[r.to:]
		}
		if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
