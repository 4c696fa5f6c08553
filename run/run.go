// Package run is the library behind the kokua-run command: deciding one
// call, and a scriptable session, against a compiled policy. The HTTP
// server is package server.
package run

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kokua-policy/kokua-policy/policy"
)

// Exit codes of kokua-run decide: one per answer, so that a script can
// branch on the decision, and the usual ones for errors.
const (
	ExitRun         = 0  // the call runs without asking
	ExitUsage       = 2  // a usage error or an unreadable input
	ExitInternal    = 3  // a bug in kokua-run
	ExitRefused     = 4  // the policy was refused: tampered, truncated, unknown version
	ExitConfirm     = 10 // the call asks the user
	ExitReview      = 11 // the call goes to review
	ExitNotLoaded   = 12 // the tool's toolset is deferred and not loaded
	ExitUnavailable = 13 // the agent can never call the tool
	ExitDenied      = 14 // denied: a gated call in an unattended turn, or an unknown agent
)

// ExitCode is the exit code of a decision.
func ExitCode(d policy.Decision) int {
	switch d {
	case policy.Run:
		return ExitRun
	case policy.Confirm:
		return ExitConfirm
	case policy.Review:
		return ExitReview
	case policy.NotLoaded:
		return ExitNotLoaded
	case policy.Unavailable:
		return ExitUnavailable
	}
	return ExitDenied
}

// DecideOptions are the flags of kokua-run decide.
type DecideOptions struct {
	Policy, Agent, Tool string
	Format              string
	Unattended          bool
	Stdout, Stderr      io.Writer
}

// Decide loads a policy, answers one call and returns the exit code.
func Decide(o DecideOptions) (code int) {
	defer recoverInternal(o.Stderr, &code)
	if o.Format != "human" && o.Format != "json" {
		fmt.Fprintf(o.Stderr, "kokua-run: --format takes human or json, not %q\n", o.Format)
		return ExitUsage
	}
	p, code := load(o.Policy, o.Stderr)
	if p == nil {
		return code
	}
	a := p.Decide(o.Agent, o.Tool, policy.Turn{Unattended: o.Unattended})
	if o.Format == "json" {
		if err := json.NewEncoder(o.Stdout).Encode(a); err != nil {
			return ExitUsage
		}
	} else {
		fmt.Fprintln(o.Stdout, Human(a))
	}
	return ExitCode(a.Decision)
}

// Human writes an answer on one line for people: the decision, then why.
func Human(a policy.Answer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", a.Decision, a.Reason.Summary)
	if a.Reason.Position != nil {
		fmt.Fprintf(&b, " (config line %d, column %d)", a.Reason.Position.Line, a.Reason.Position.Column)
	}
	if a.Decision == policy.Review {
		if a.Reason.Reviewer {
			b.WriteString("; the reviewer answers first, then the user")
		} else {
			b.WriteString("; auto-approval is off (or the tool is on the floor), so the user answers")
		}
	}
	return b.String()
}

func load(path string, stderr io.Writer) (*policy.Policy, int) {
	p, err := policy.Load(path)
	if err != nil {
		fmt.Fprintf(stderr, "kokua-run: %v\n", err)
		return nil, ExitRefused
	}
	return p, 0
}

func recoverInternal(stderr io.Writer, code *int) {
	if r := recover(); r != nil {
		fmt.Fprintf(stderr, "kokua-run: internal error: %v\n", r)
		*code = ExitInternal
	}
}

// SessionOptions are the flags of kokua-run session.
type SessionOptions struct {
	Policy, Agent string
	// Preload are earlier successful loads, in first-loaded order (R183).
	Preload        []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Session runs a scripted conversation: it reads one command a line from
// Stdin and answers each on Stdout.
//
//	load <toolset>            load a deferred toolset (load_tools)
//	call [--unattended] <tool> decide a call, tool as toolset.tool or bare
//	tools                     the tools held now, in presentation order
//	names                     the system prompt's names line
//
// Blank lines and lines starting with # are skipped.
func Session(o SessionOptions) (code int) {
	defer recoverInternal(o.Stderr, &code)
	p, code := load(o.Policy, o.Stderr)
	if p == nil {
		return code
	}
	s, results, err := p.Preload(o.Agent, o.Preload)
	if err != nil {
		fmt.Fprintf(o.Stderr, "kokua-run: %v\n", err)
		return ExitUsage
	}
	out := bufio.NewWriter(o.Stdout)
	defer func() { _ = out.Flush() }()
	for _, r := range results {
		if r.Warning != "" {
			fmt.Fprintf(out, "WARNING %s\n", r.Warning)
		}
	}
	in := bufio.NewScanner(o.Stdin)
	in.Buffer(make([]byte, 0, 4096), 1<<20)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fmt.Fprintf(out, "> %s\n", line)
		cmd, arg, _ := strings.Cut(line, " ")
		arg = strings.TrimSpace(arg)
		switch cmd {
		case "load":
			fmt.Fprintln(out, s.Load(arg).Message)
		case "call":
			turn := policy.Turn{}
			if rest, ok := strings.CutPrefix(arg, "--unattended "); ok {
				turn.Unattended, arg = true, strings.TrimSpace(rest)
			}
			fmt.Fprintln(out, Human(s.Decide(arg, turn)))
		case "tools":
			for _, t := range s.Tools() {
				fmt.Fprintf(out, "%s (%s)\n", t.Name, t.Toolset)
			}
		case "names":
			if line := s.NamesLine(); line != "" {
				fmt.Fprintln(out, line)
			} else {
				fmt.Fprintln(out, "(nothing left to load)")
			}
		default:
			fmt.Fprintf(out, "unknown command %q: use load <toolset>, call <tool>, tools or names\n", cmd)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(o.Stderr, "kokua-run: reading the script: %v\n", err)
		return ExitUsage
	}
	return 0
}
