package compile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Options are kokua-compile's flags.
type Options struct {
	Config string
	// Manifest is the manifest's path; empty for the embedded default.
	Manifest string
	// Output is the file to write; empty for stdout.
	Output string
	// Format is the format of diagnostics: human or json.
	Format string
	Color  string
	// Agents asks for the human view of each agent instead of the policy.
	Agents bool
	// Check compares the policy with the one in Output instead of writing
	// it, and fails when that one is missing or stale.
	Check  bool
	Stdout io.Writer
	Stderr io.Writer
}

// Run compiles as the command line asks and returns the exit code, the
// same codes as kokua-lint's. A config with errors is not compiled, and an
// existing output file is then left as it was.
func Run(o Options) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(o.Stderr, "kokua-compile: internal error: %v\n", r)
			code = lint.ExitInternal
		}
	}()
	fail := func(format string, args ...any) int {
		fmt.Fprintf(o.Stderr, "kokua-compile: %s\n", fmt.Sprintf(format, args...))
		return lint.ExitUsage
	}
	if o.Format != "human" && o.Format != "json" {
		return fail("--format takes human or json, not %q", o.Format)
	}
	if o.Config == "" {
		return fail("name the config file to compile (kokua-compile config.toml)")
	}
	m := lint.DefaultManifest()
	if o.Manifest != "" {
		src, err := lint.ReadFile(o.Manifest)
		if err != nil {
			return fail("%v", err)
		}
		m = lint.LoadManifest(src)
	}
	src, err := lint.ReadFile(o.Config)
	if err != nil {
		return fail("%v", err)
	}
	res := lint.Lint(src, m)
	if len(res.Diagnostics) > 0 {
		report := lint.Options{Format: o.Format, Color: o.Color, Stdout: o.Stderr}
		if err := lint.Report(report, map[string][]byte{src.Name: src.Data, m.Source.Name: m.Source.Data}, res.Diagnostics); err != nil {
			return fail("%v", err)
		}
	}
	if res.HasErrors() || res.World == nil {
		fmt.Fprintf(o.Stderr, "kokua-compile: %s has errors; nothing was written\n", o.Config)
		return lint.ExitFindings
	}
	if o.Agents {
		_, err := io.WriteString(o.Stdout, Agents(res.World))
		if err != nil {
			return fail("%v", err)
		}
		return lint.ExitOK
	}
	cfgIn, manIn := Input{Name: src.Name, Data: src.Data}, Input{Name: m.Source.Name, Data: m.Source.Data}
	if o.Check {
		return check(o, cfgIn, manIn, res.World)
	}
	out, err := policy.Marshal(Compile(res.World, cfgIn, manIn))
	if err != nil {
		fmt.Fprintf(o.Stderr, "kokua-compile: internal error: %v\n", err)
		return lint.ExitInternal
	}
	if o.Output == "" {
		if _, err := o.Stdout.Write(out); err != nil {
			return fail("writing the policy: %v", err)
		}
		return lint.ExitOK
	}
	if err := WriteAtomic(o.Output, out); err != nil {
		return fail("%v", err)
	}
	return lint.ExitOK
}

// check compares the policy the config compiles to with the one committed
// at o.Output. The file names the committed policy records are kept, so
// that compiling from another folder does not make it look stale.
func check(o Options, cfg, manifest Input, w *model.World) int {
	if o.Output == "" {
		fmt.Fprintln(o.Stderr, "kokua-compile: --check needs -o FILE, the committed policy to compare with")
		return lint.ExitUsage
	}
	committed, err := os.ReadFile(o.Output)
	if err != nil {
		fmt.Fprintf(o.Stderr, "kokua-compile: %s is missing (%v): run kokua-compile -o %s %s\n", o.Output, unwrapPath(err), o.Output, o.Config)
		return lint.ExitFindings
	}
	var recorded struct {
		Inputs policy.Inputs `json:"inputs"`
	}
	if json.Unmarshal(committed, &recorded) == nil {
		if f := recorded.Inputs.Config.File; f != "" {
			cfg.Name = f
		}
		if f := recorded.Inputs.Manifest.File; f != "" {
			manifest.Name = f
		}
	}
	want, err := policy.Marshal(Compile(w, cfg, manifest))
	if err != nil {
		fmt.Fprintf(o.Stderr, "kokua-compile: internal error: %v\n", err)
		return lint.ExitInternal
	}
	if !bytes.Equal(want, committed) {
		fmt.Fprintf(o.Stderr, "kokua-compile: %s is stale against %s: run kokua-compile -o %s %s\n", o.Output, o.Config, o.Output, o.Config)
		return lint.ExitFindings
	}
	return lint.ExitOK
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// WriteAtomic writes data to path through a temporary file in the same
// folder and a rename, so that a reader never sees half a policy and a
// failed write leaves the old file as it was.
func WriteAtomic(path string, data []byte) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("cannot write %s: it is a directory", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	done = true
	return nil
}

// Agents is the human view of each agent, in the spirit of Kokua's
// `kokua agents` (R96): what it can reach, what it holds from the start,
// what it loads on demand, and which tools ask first and where that policy
// comes from.
func Agents(w *model.World) string {
	var b bytes.Buffer
	for i, a := range w.Agents {
		if i > 0 {
			b.WriteByte('\n')
		}
		title := a.Name
		switch {
		case a.Entry:
			title += " (entry agent)"
		case !a.Reachable:
			title += " (not reachable from the entry agent)"
		}
		fmt.Fprintln(&b, title)
		avail := strings.Join(names(a.Avail), ", ")
		if a.All {
			avail = fmt.Sprintf("all (%d): %s", len(a.Avail), avail)
		}
		if avail == "" {
			avail = "nothing"
		}
		fmt.Fprintf(&b, "  available: %s\n", avail)
		resident := "every available toolset"
		if a.Tools != nil && a.Tools.Resident.Set {
			resident = orNone(names(a.Resident))
		}
		fmt.Fprintf(&b, "  resident: %s\n", resident)
		fmt.Fprintf(&b, "  loads on demand: %s\n", orNone(names(a.Deferred)))
		if len(a.Skills) > 0 {
			fmt.Fprintf(&b, "  skills (through SkillAgent): %s\n", strings.Join(names(a.Skills), ", "))
		}
		if len(a.DelegatesTo.Items) > 0 {
			fmt.Fprintf(&b, "  delegates to: %s\n", strings.Join(a.DelegatesTo.Values(), ", "))
		}
		source := "declared in " + a.Policy.Table()
		if a.Policy.Agent == nil {
			source = "inherited from " + kokua.DefaultTierLabel
		}
		fmt.Fprintf(&b, "  confirm: %s (%s)\n", gated(w, a, a.Policy.Confirm.Values()), source)
		fmt.Fprintf(&b, "  review: %s (%s)\n", gated(w, a, a.Policy.Review.Values()), source)
	}
	if w.Composes {
		fmt.Fprintf(&b, "\ncomposed workers (%s<label>, built by compose_subagent)\n", policy.ComposedPrefix)
		fmt.Fprintf(&b, "  available: the whole registry but capabilities and entry-point-only toolsets, built when composed\n")
		fmt.Fprintf(&b, "  confirm: %s (default tier, always)\n", composedGated(w, w.Default.Confirm.Values()))
		fmt.Fprintf(&b, "  review: %s (default tier, always)\n", composedGated(w, w.Default.Review.Values()))
	}
	return b.String()
}

// composedGated lists what the default tier gates for a composed worker,
// which builds everything it is composed from (R64).
func composedGated(w *model.World, entries []string) string {
	var out []string
	for _, e := range entries {
		r := w.Resolve(e)
		if r.Toolset != nil && (r.Toolset.EntryPointOnly || r.Toolset.Name == "capabilities") {
			continue
		}
		for _, t := range r.Tools {
			// A composed worker neither delegates nor defers; of the core
			// tools it can hold only activate_skill.
			if r.Toolset == nil && t != kokua.ActivateSkill {
				continue
			}
			out = append(out, t)
		}
	}
	return orNone(out)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// gated lists the tools a list gates for this agent: the ones it can reach,
// with "when <toolset> loads" for those a pending entry holds back.
func gated(w *model.World, a *model.Agent, entries []string) string {
	var out []string
	for _, e := range entries {
		r := w.Resolve(e)
		if r.Toolset != nil && !a.Holds(r.Toolset.Name) {
			continue // an inherited entry inert for this agent (R76)
		}
		for _, t := range r.Tools {
			if r.Toolset == nil && !a.HoldsCore(t) {
				continue
			}
			if r.Toolset != nil && r.Pending {
				t += " (when " + r.Toolset.Name + " loads)"
			}
			out = append(out, t)
		}
	}
	return orNone(out)
}
