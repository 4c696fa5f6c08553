package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"

	"github.com/kokua-policy/kokua-policy/lint"
)

// UseColor decides whether output to out is coloured: always and never
// are obeyed; auto, or no choice, colours a terminal unless NO_COLOR is
// set (https://no-color.org). Any other mode is a usage error, which the
// error says in full.
func UseColor(mode string, out io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		if os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		return Terminal(out), nil
	}
	return false, fmt.Errorf("--color takes auto, always or never, not %q", mode)
}

// Terminal reports whether out is a terminal.
func Terminal(out io.Writer) bool {
	f, ok := out.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Style is the style of the human format: the terminal colours of every
// role when on is true, plain text otherwise.
func Style(on bool) lint.Style {
	if !on {
		return lint.Style{}
	}
	return lint.Style{
		Location:  painter(color.Bold),
		Error:     painter(color.FgRed, color.Bold),
		Warning:   painter(color.FgYellow, color.Bold),
		Info:      painter(color.FgCyan, color.Bold),
		Gutter:    painter(color.FgBlue),
		Underline: painter(color.FgGreen, color.Bold),
		Help:      painter(color.FgCyan),
	}
}

// painter paints text with the attributes, whatever the environment says:
// UseColor has decided already.
func painter(attrs ...color.Attribute) func(string) string {
	c := color.New(attrs...)
	c.EnableColor()
	return func(s string) string { return c.Sprint(s) }
}
