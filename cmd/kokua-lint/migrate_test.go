package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/migrate"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	testneeds "github.com/kokua-policy/kokua-policy/internal/testing/needs"
	"github.com/kokua-policy/kokua-policy/lint"
)

// migrateCase copies one case of testdata/migrate into a fresh folder and
// returns the folder and the command line's flags: --manifest when the
// case has a manifest.json, and those of its args file.
func migrateCase(t *testing.T, dir string) (string, []string) {
	t.Helper()
	work := t.TempDir()
	var flags []string
	for _, name := range []string{"config.toml", "manifest.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if name == "manifest.json" {
			flags = append(flags, "--manifest", "manifest.json")
		}
	}
	if args, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
		flags = append(flags, strings.Fields(string(args))...)
	}
	return work, flags
}

// TestMigrateGolden runs kokua-lint migrate on every case of
// testdata/migrate: want.toml is what it prints, want.diff what --diff
// prints, and want.txt its stderr and exit status. Then it runs again on
// its own output, which must come back unchanged with the same status
// (R19, R20: migrating a migrated config changes nothing).
func TestMigrateGolden(t *testing.T) {
	// The cases that exit 1, leaving something for a person to decide or
	// refusing the file; every other case exits 0. Stated here so that
	// -update cannot accept another exit code.
	exitsOne := map[string]bool{
		"agents-empty-inline": true, "agents-not-a-table": true, "ambiguous-tool-name": true,
		"beyond-limits": true, "comments-in-joined-lists": true, "comments-in-roles": true,
		"comments-in-top-level-tools": true, "fix": true, "invalid-toml": true,
		"marker-above-multiline-string": true, "memory-with-inline-tools": true, "no-agents": true,
		"overlap-tool-in-reviewed-toolset": true, "overlap-whole-and-tool": true,
		"roles-subtables": true, "roles": true, "subagents-concurrent-conflict": true,
		"subagents-concurrent-only": true, "subagents-role-stays": true, "tools-all": true,
		"top-level-tools": true, "lean-supervisor-off": true,
	}
	for _, dir := range golden.Cases(t, "migrate") {
		dir, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			work, flags := migrateCase(t, dir)
			out := clitest.RunIn(t, Main, "kokua-lint", work, nil, "", append(append([]string{"migrate"}, flags...), "config.toml")...)
			golden.Check(t, filepath.Join(dir, "want.toml"), []byte(out.Stdout))
			golden.Check(t, filepath.Join(dir, "want.txt"), []byte(fmt.Sprintf("%sexit %d\n", out.Stderr, out.Code)))
			if want := map[bool]int{false: 0, true: 1}[exitsOne[filepath.Base(dir)]]; out.Code != want {
				t.Errorf("exit %d, want %d", out.Code, want)
			}
			diff := clitest.RunIn(t, Main, "kokua-lint", work, nil, "", append(append([]string{"migrate", "--diff"}, flags...), "config.toml")...)
			golden.Check(t, filepath.Join(dir, "want.diff"), []byte(diff.Stdout))
			if diff.Code != out.Code {
				t.Errorf("--diff exits %d, the plain run %d", diff.Code, out.Code)
			}
			if out.Stdout == "" {
				return // not migrated at all: invalid TOML
			}
			if err := os.WriteFile(filepath.Join(work, "config.toml"), []byte(out.Stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			again := clitest.RunIn(t, Main, "kokua-lint", work, nil, "", append(append([]string{"migrate"}, flags...), "config.toml")...)
			if again.Stdout != out.Stdout {
				t.Errorf("migrating the output again changes it:\n%s", diffOf(out.Stdout, again.Stdout))
			}
			if again.Code != out.Code {
				t.Errorf("migrating the output again exits %d, the first run %d", again.Code, out.Code)
			}
		})
	}
}

// diffOf shows two texts' first differing line.
func diffOf(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("one is longer: %d lines against %d", len(al), len(bl))
}

// oldConfig is a small pre-split config that migrates clean.
const oldConfig = `# keep me
[agents.assistant]
description = "The assistant the user talks to."
tools = ["compute", "time"]

[security]
confirm_tools = ["execute_python"]  # asks you
`

// TestMigrateWrite: --write replaces the file atomically with the
// migrated config, keeps the original as CONFIG.bak with the file's mode,
// and prints nothing on stdout; a second --write changes nothing and
// leaves the backup alone.
func TestMigrateWrite(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": oldConfig})
	path := filepath.Join(dir, "config.toml")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	printed := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "config.toml")
	wantCode(t, printed, cli.ExitOK)

	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml")
	wantCode(t, r, cli.ExitOK)
	if r.Stdout != "" {
		t.Errorf("--write printed on stdout:\n%s", r.Stdout)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != printed.Stdout {
		t.Errorf("--write wrote\n%s\nbut migrate prints\n%s", got, printed.Stdout)
	}
	bak, err := os.ReadFile(path + ".bak")
	if err != nil || string(bak) != oldConfig {
		t.Errorf("CONFIG.bak is %q (%v), want the original", bak, err)
	}
	for _, p := range []string{path, path + ".bak"} {
		if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v (%v), want the original's 0600", filepath.Base(p), info.Mode().Perm(), err)
		}
	}

	again := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml")
	wantCode(t, again, cli.ExitOK)
	if bak2, _ := os.ReadFile(path + ".bak"); string(bak2) != oldConfig {
		t.Error("a second --write, which had nothing to do, replaced the backup")
	}
	if !strings.Contains(again.Stderr, "needs no migration") {
		t.Errorf("a second --write should say there was nothing to do:\n%s", again.Stderr)
	}
}

// otherConfig is a second pre-split config, unlike oldConfig.
const otherConfig = `[agents.assistant]
tools = ["web", "config", "time"]

[security]
confirm_tools = ["update_config"]
`

// readOr is a file's text, or "" when it cannot be read.
func readOr(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(data)
}

// TestMigrateWriteKeepsEveryOriginal: --write never replaces a backup.
// CONFIG.bak is written when there is none, left alone when it holds the
// very bytes that would be kept, and otherwise the original goes to
// CONFIG.bak.1, then .2, each with the config's mode; a second --write on
// its own output writes nothing. The steps and what --write says of each
// are the transcript docs/migrate.md shows.
func TestMigrateWriteKeepsEveryOriginal(t *testing.T) {
	third := strings.Replace(oldConfig, "# keep me", "# keep me too", 1)
	dir := files(t, map[string]string{"config.toml": oldConfig, "first.toml": oldConfig, "other.toml": otherConfig, "third.toml": third})
	path := filepath.Join(dir, "config.toml")
	var transcript strings.Builder
	// step copies a config over config.toml, as cp would, unless from is
	// "", then runs --write and writes both to the transcript with what
	// it says of the write.
	step := func(from string) clitest.Result {
		t.Helper()
		if from != "" {
			if err := os.WriteFile(path, []byte(readOr(filepath.Join(dir, from))), 0o600); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&transcript, "$ cp %s config.toml\n", from)
		}
		if err := os.Chmod(path, 0o600); err != nil {
			t.Fatal(err)
		}
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml")
		wantCode(t, r, cli.ExitOK)
		// Everything it prints, stdout and stderr (issue 38).
		transcript.WriteString("$ kokua-lint migrate --write config.toml\n" + r.Stdout + r.Stderr)
		return r
	}
	wantKept := func(r clitest.Result, name string, backups map[string]string) {
		t.Helper()
		if name != "" && !strings.Contains(r.Stderr, "the original is "+name+"\n") {
			t.Errorf("--write should name %s as the original:\n%s", name, r.Stderr)
		}
		for n, want := range backups {
			if got := readOr(filepath.Join(dir, n)); got != want {
				t.Errorf("%s holds %q, want %q", n, got, want)
			}
			if info, err := os.Stat(filepath.Join(dir, n)); err == nil && info.Mode().Perm() != 0o600 {
				t.Errorf("%s: mode %v, want the config's 0600", n, info.Mode().Perm())
			}
		}
		names, _ := filepath.Glob(filepath.Join(dir, "config.toml.bak*"))
		if len(names) != len(backups) {
			t.Errorf("backups %v, want %d of them", names, len(backups))
		}
		if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*")); len(leftovers) > 0 {
			t.Errorf("temporary files left behind: %v", leftovers)
		}
	}

	r := step("")
	wantKept(r, "config.toml.bak", map[string]string{"config.toml.bak": oldConfig})
	migrated := readOr(path)
	r = step("") // its own output: nothing to do
	wantKept(r, "", map[string]string{"config.toml.bak": oldConfig})
	if got := readOr(path); got != migrated {
		t.Errorf("a second --write changed the config:\n%s", diffOf(migrated, got))
	}
	r = step("other.toml") // another original: the first backup stays
	wantKept(r, "config.toml.bak.1", map[string]string{"config.toml.bak": oldConfig, "config.toml.bak.1": otherConfig})
	r = step("first.toml") // the first original again: its backup is there already
	wantKept(r, "config.toml.bak", map[string]string{"config.toml.bak": oldConfig, "config.toml.bak.1": otherConfig})
	r = step("third.toml")
	wantKept(r, "config.toml.bak.2", map[string]string{"config.toml.bak": oldConfig, "config.toml.bak.1": otherConfig, "config.toml.bak.2": third})
	golden.Check(t, filepath.Join(root, "cmd", "kokua-lint", "testdata", "migrate-backups.txt"), []byte(transcript.String()))
}

// TestMigrateWriteTwiceUnfinished: a config the migration cannot finish
// (here: no agent at all) is written once; a second --write on that
// output changes no byte of it, adds no marker and leaves the backup, the
// original, as it was.
func TestMigrateWriteTwiceUnfinished(t *testing.T) {
	original := "# only a gate\n[security]\nconfirm_tools = [\"execute_python\"]\n"
	dir := files(t, map[string]string{"config.toml": original})
	path := filepath.Join(dir, "config.toml")
	first := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml")
	wantCode(t, first, cli.ExitFindings)
	written := readOr(path)
	if written == original || !strings.Contains(written, "# kokua-lint migrate: no-agents") {
		t.Fatalf("the first --write wrote:\n%s", written)
	}
	second := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml")
	wantCode(t, second, cli.ExitFindings)
	if got := readOr(path); got != written {
		t.Errorf("a second --write changed the config:\n%s", diffOf(written, got))
	}
	if strings.Contains(second.Stderr, "wrote") {
		t.Errorf("a second --write says it wrote:\n%s", second.Stderr)
	}
	if got := readOr(path + ".bak"); got != original {
		t.Errorf("config.toml.bak holds %q, want the original", got)
	}
	if _, err := os.Lstat(path + ".bak.1"); err == nil {
		t.Error("a second --write kept a second backup")
	}
}

// TestMigrateWriteBackupFallback: where a hard link cannot be made (a
// file system without them), the backup is still written, whole, under a
// name nothing holds, and never over an existing file.
func TestMigrateWriteBackupFallback(t *testing.T) {
	link := linkFile
	t.Cleanup(func() { linkFile = link })
	linkFile = func(string, string) error { return &os.LinkError{Op: "link", Err: errors.ErrUnsupported} }
	dir := files(t, map[string]string{"config.toml": oldConfig, "config.toml.bak": otherConfig})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml")
	wantCode(t, r, cli.ExitOK)
	if got := readOr(filepath.Join(dir, "config.toml.bak")); got != otherConfig {
		t.Errorf("config.toml.bak was replaced: %q", got)
	}
	if got := readOr(filepath.Join(dir, "config.toml.bak.1")); got != oldConfig {
		t.Errorf("config.toml.bak.1 holds %q, want the original", got)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*")); len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestMigrateWriteThroughSymlink: --write replaces the file a symlink
// names and keeps the link; the backup sits beside the file.
func TestMigrateWriteThroughSymlink(t *testing.T) {
	dir := files(t, map[string]string{"real/config.toml": oldConfig})
	if err := os.Symlink(filepath.Join("real", "config.toml"), filepath.Join(dir, "config.toml")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml")
	wantCode(t, r, cli.ExitOK)
	if info, err := os.Lstat(filepath.Join(dir, "config.toml")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced (%v)", err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "real", "config.toml"))
	if !strings.Contains(string(got), "[agents.assistant.tools]") {
		t.Errorf("the link's target was not migrated:\n%s", got)
	}
	if bak, err := os.ReadFile(filepath.Join(dir, "real", "config.toml.bak")); err != nil || string(bak) != oldConfig {
		t.Errorf("the backup beside the target is %q (%v)", bak, err)
	}
}

// TestMigrateWriteRefuses: --write replaces only a regular file, and
// refuses, changing nothing, anything else: a folder, a device (usage
// errors, decided from the path before anything is written), a backup
// name taken by something that is not a file (found as the backup is
// written: a write failure, exit 3).
func TestMigrateWriteRefuses(t *testing.T) {
	t.Run("folder", func(t *testing.T) {
		dir := files(t, map[string]string{"config.toml/x": ""})
		wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml"), "config.toml")
	})
	t.Run("device", func(t *testing.T) {
		if _, err := os.Stat(os.DevNull); err != nil {
			t.Skip("no", os.DevNull)
		}
		wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", t.TempDir(), nil, "", "migrate", "--write", os.DevNull), "regular file")
	})
	t.Run("backup is a folder", func(t *testing.T) {
		dir := files(t, map[string]string{"config.toml": oldConfig, "config.toml.bak/x": ""})
		wantWriteError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml"), "config.toml.bak")
		if got, _ := os.ReadFile(filepath.Join(dir, "config.toml")); string(got) != oldConfig {
			t.Error("the config was changed although its backup could not be written")
		}
	})
	t.Run("numbered backup is a symlink", func(t *testing.T) {
		dir := files(t, map[string]string{"config.toml": oldConfig, "config.toml.bak": otherConfig, "elsewhere": "x"})
		if err := os.Symlink("elsewhere", filepath.Join(dir, "config.toml.bak.1")); err != nil {
			t.Skip("no symlinks here:", err)
		}
		wantWriteError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--write", "config.toml"), "config.toml.bak.1")
		for name, want := range map[string]string{"config.toml": oldConfig, "config.toml.bak": otherConfig, "elsewhere": "x"} {
			if got := readOr(filepath.Join(dir, name)); got != want {
				t.Errorf("%s was changed to %q although the backup could not be written", name, got)
			}
		}
	})
}

// TestMigrateUsage: the command takes exactly one config, and a missing
// one is a usage error.
func TestMigrateUsage(t *testing.T) {
	dir := files(t, map[string]string{"a.toml": oldConfig, "b.toml": oldConfig})
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate"), "config")
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "a.toml", "b.toml"), "exactly one")
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "missing.toml"), "missing.toml")
}

// TestMigrateDiffLabels: --diff is a unified diff of the file as git
// names it (a/config.toml, b/config.toml), and empty, with exit 0, for a
// config that needs nothing.
func TestMigrateDiffLabels(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": oldConfig})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--diff", "config.toml")
	if !strings.HasPrefix(r.Stdout, "--- a/config.toml\n+++ b/config.toml\n@@ ") {
		t.Errorf("--diff does not start as a unified diff of config.toml:\n%s", r.Stdout)
	}
	migrated := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "config.toml")
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(migrated.Stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "migrate", "--diff", "config.toml"); r.Stdout != "" || r.Code != cli.ExitOK {
		t.Errorf("--diff of a migrated config printed %q and exited %d", r.Stdout, r.Code)
	}
	if bytes.Contains([]byte(migrated.Stdout), []byte("confirm_tools")) {
		t.Error("the migrated config still holds confirm_tools")
	}
}

// TestMigrateDocs holds docs/migrate.md and the README to what the
// command does: each block after a "<!-- test: FILE -->" marker is that
// golden file, and every kokua-lint migrate command of their sh blocks
// runs, on the agents-layout example, to exit 0.
func TestMigrateDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "migrate.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	tested := golden.DocBlocks(t, root, doc, "docs/migrate.md")
	if tested < 3 {
		t.Errorf("docs/migrate.md has %d tested blocks", tested)
	}
	// The note of what a team loses (issue 38), shown alone, is the line
	// the example's run prints.
	_, section, _ := strings.Cut(string(doc), "### What a team loses against today's default\n")
	_, note, _ := strings.Cut(section, "```text\n")
	note, _, _ = strings.Cut(note, "```")
	run, err := os.ReadFile(filepath.Join(root, "testdata", "migrate", "agents-tools-list", "want.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(note, "migrated config.toml: note: ") || !strings.Contains(string(run), note) {
		t.Errorf("docs/migrate.md's note of what a team loses is not a line the example prints: %q", note)
	}

	example, err := os.ReadFile(filepath.Join(root, "testdata", "migrate", "agents-tools-list", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	manifestJSON := clitest.RunIn(t, Main, "kokua-lint", t.TempDir(), nil, "", "manifest").Stdout
	commands := 0
	for _, text := range []string{string(doc), string(readme)} {
		for _, block := range strings.Split(text, "```sh\n")[1:] {
			block, _, _ = strings.Cut(block, "```")
			for _, line := range strings.Split(block, "\n") {
				line, _, _ = strings.Cut(line, "  #")
				args := strings.Fields(line)
				if len(args) < 2 || args[0] != "kokua-lint" || args[1] != "migrate" {
					continue
				}
				dir := files(t, map[string]string{"config.toml": string(example), "kokua.manifest.json": manifestJSON})
				stdin := ""
				if n := len(args); n > 2 && args[n-2] == "<" { // - < FILE: FILE on standard input
					data, err := os.ReadFile(filepath.Join(dir, args[n-1]))
					if err != nil {
						t.Fatal(err)
					}
					stdin, args = string(data), args[:n-2]
				}
				r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, stdin, args[1:]...)
				if r.Code != cli.ExitOK {
					t.Errorf("%q exits %d:\n%s", line, r.Code, r.Stderr)
				}
				if _, err := os.Stat(filepath.Join(dir, "config.toml.bak")); (err == nil) != strings.Contains(line, "--write") {
					t.Errorf("%q: config.toml.bak exists: %v", line, err == nil)
				}
				commands++
			}
		}
	}
	if commands < 6 {
		t.Errorf("only %d kokua-lint migrate commands found in the docs", commands)
	}
}

// TestMigrateDiffPatches: what --diff prints, applied by patch -p1 in the
// config's folder, gives exactly what migrate prints.
func TestMigrateDiffPatches(t *testing.T) {
	patch := testneeds.Program(t, "patch", "Debian's patch")
	for _, c := range []string{"agents-tools-list", "roles", "multi-line-list"} {
		work, flags := migrateCase(t, filepath.Join(root, "testdata", "migrate", c))
		diff := clitest.RunIn(t, Main, "kokua-lint", work, nil, "", append(append([]string{"migrate", "--diff"}, flags...), "config.toml")...)
		want := clitest.RunIn(t, Main, "kokua-lint", work, nil, "", append(append([]string{"migrate"}, flags...), "config.toml")...)
		cmd := exec.Command(patch, "-p1", "--quiet")
		cmd.Dir, cmd.Stdin = work, strings.NewReader(diff.Stdout)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: patch -p1: %v\n%s", c, err, out)
		}
		got, err := os.ReadFile(filepath.Join(work, "config.toml"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want.Stdout {
			t.Errorf("%s: the patched config differs from the migrated one:\n%s", c, diffOf(want.Stdout, string(got)))
		}
	}
}

// TestMigrateInternalError: a migration that fails in itself (the error
// wraps migrate.ErrInternal) exits 3, not 1, says so on stderr, prints
// nothing and writes nothing: not the config, not a backup.
func TestMigrateInternalError(t *testing.T) {
	was := migrateFile
	t.Cleanup(func() { migrateFile = was })
	migrateFile = func(lint.Source, *lint.Manifest, migrate.Options) (*migrate.Result, error) {
		return nil, fmt.Errorf("%w: the migrated config is not valid TOML (config.toml:8:2: a test); please report it", migrate.ErrInternal)
	}
	for _, args := range [][]string{{"migrate", "config.toml"}, {"migrate", "--diff", "config.toml"}, {"migrate", "--write", "config.toml"}} {
		dir := files(t, map[string]string{"config.toml": oldConfig})
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", args...)
		wantCode(t, r, cli.ExitInternal)
		if r.Stdout != "" {
			t.Errorf("%v printed %q", args, r.Stdout)
		}
		if !strings.Contains(r.Stderr, "kokua-lint migrate: internal error: the migrated config is not valid TOML") {
			t.Errorf("%v: stderr %q does not say it is an internal error", args, r.Stderr)
		}
		if got := readOr(filepath.Join(dir, "config.toml")); got != oldConfig {
			t.Errorf("%v changed config.toml: %q", args, got)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "config.toml.*")); len(left) > 0 {
			t.Errorf("%v wrote %v", args, left)
		}
	}
}
