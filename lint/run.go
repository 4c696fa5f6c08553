package lint

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/mattn/go-isatty"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/rules"
)

// Exit codes of kokua-lint, documented in the README.
const (
	ExitOK       = 0 // nothing at or above --fail-on
	ExitFindings = 1 // something at or above --fail-on
	ExitUsage    = 2 // a usage error or an unreadable input
	ExitInternal = 3 // a bug in kokua-lint
)

// Options are kokua-lint's flags.
type Options struct {
	Configs []string
	// Manifest is the manifest's path; empty for the embedded default.
	Manifest string
	// Format is human, json, sarif or github.
	Format string
	// Color is auto, always or never.
	Color string
	// FailOn is the least severity that fails the run: error or warning.
	FailOn    string
	ListRules bool
	Stdout    io.Writer
	Stderr    io.Writer
}

// Run lints as the command line asks and returns the exit code. It never
// panics: a bug becomes ExitInternal with a one-line message.
func Run(o Options) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(o.Stderr, "kokua-lint: internal error: %v\n", r)
			code = ExitInternal
		}
	}()
	if o.ListRules {
		return listRules(o.Stdout)
	}
	failOn, err := diag.ParseSeverity(o.FailOn)
	if err != nil || failOn == diag.Info {
		return usage(o.Stderr, "--fail-on takes error or warning, not %q", o.FailOn)
	}
	switch o.Format {
	case "human", "json", "sarif", "github":
	default:
		return usage(o.Stderr, "--format takes human, json, sarif or github, not %q", o.Format)
	}
	if _, err := colorWanted(o.Color, o.Stdout); err != nil {
		return usage(o.Stderr, "%v", err)
	}
	if len(o.Configs) == 0 {
		return usage(o.Stderr, "name at least one config file (kokua-lint config.toml)")
	}

	m := DefaultManifest()
	if o.Manifest != "" {
		src, err := ReadFile(o.Manifest)
		if err != nil {
			return usage(o.Stderr, "%v", err)
		}
		m = LoadManifest(src)
	}
	sources := map[string][]byte{m.Source.Name: m.Source.Data}
	var all []diag.Diagnostic
	for _, path := range o.Configs {
		src, err := ReadFile(path)
		if err != nil {
			return usage(o.Stderr, "%v", err)
		}
		sources[src.Name] = src.Data
		all = append(all, Lint(src, m).Diagnostics...)
	}
	all = diag.Sort(all)

	if o.Format == "human" && m.Embedded {
		fmt.Fprintf(o.Stderr, "kokua-lint: no --manifest given: checking against the embedded default Kokua install (%d toolsets)\n", len(m.Manifest.Toolsets))
	}
	if err := Report(o, sources, all); err != nil {
		fmt.Fprintf(o.Stderr, "kokua-lint: writing the report: %v\n", err)
		return ExitUsage
	}
	for _, d := range all {
		if d.Severity.AtLeast(failOn) {
			return ExitFindings
		}
	}
	return ExitOK
}

// Report writes diagnostics to o.Stdout in o.Format, coloured as o.Color
// asks; sources are the files' bytes, for the quoted source lines.
func Report(o Options, sources map[string][]byte, ds []diag.Diagnostic) error {
	switch o.Format {
	case "json":
		return WriteJSON(o.Stdout, ds)
	case "sarif":
		return WriteSARIF(o.Stdout, ds)
	case "github":
		return WriteGitHub(o.Stdout, ds)
	}
	useColor, err := colorWanted(o.Color, o.Stdout)
	if err != nil {
		return err
	}
	return Human{Color: useColor, Sources: sources}.Write(o.Stdout, ds)
}

func usage(w io.Writer, format string, args ...any) int {
	fmt.Fprintf(w, "kokua-lint: %s\n", fmt.Sprintf(format, args...))
	return ExitUsage
}

// colorWanted decides on colour: always and never are obeyed; auto colours
// a terminal unless NO_COLOR is set (https://no-color.org).
func colorWanted(mode string, out io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		if os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		f, ok := out.(*os.File)
		return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())), nil
	}
	return false, fmt.Errorf("--color takes auto, always or never, not %q", mode)
}

func listRules(w io.Writer) int {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rules.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Phase, r.Summary, strings.Join(r.Refs, " "))
	}
	if err := tw.Flush(); err != nil {
		return ExitUsage
	}
	return ExitOK
}
