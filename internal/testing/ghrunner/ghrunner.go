// Package ghrunner reads a step's output as GitHub's Actions runner reads
// it for workflow commands, for tests that hold text from a config to
// output no runner acts on. It is written from the runner's documented
// behaviour and its command parser (actions/runner,
// ActionCommandManager.TryProcessCommand and ActionCommand.TryParseV2 and
// TryParse), not from the escaping it checks, and errs towards finding a
// command: any name after "::" counts, registered or not.
package ghrunner

import (
	"strings"
	"unicode"
)

// Command is a line the runner would read as a workflow command: its
// number (1-based) and its text.
type Command struct {
	Line int
	Text string
}

// Commands are the lines of out the runner would act on as workflow
// commands. out is split into lines at "\r\n", "\n" and "\r", as .NET's
// ReadLine splits a process's output. While commands are stopped
// ("::stop-commands::TOKEN"), the one line read is "::TOKEN::", white
// space trimmed at both ends, which resumes them. Otherwise a line is a
// command when, its leading white space trimmed (.NET's
// char.IsWhiteSpace, the same set as unicode.IsSpace), it starts with
// "::", or, in the older syntax tried next, when it holds "##[" anywhere.
// The stop-commands line itself is a command, and returned.
func Commands(out string) []Command {
	var found []Command
	stopped := ""
	for i, line := range lines(out) {
		if stopped != "" {
			if strings.TrimFunc(line, unicode.IsSpace) == "::"+stopped+"::" {
				stopped = ""
			}
			continue
		}
		trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
		switch {
		case strings.HasPrefix(trimmed, "::stop-commands::"):
			found = append(found, Command{Line: i + 1, Text: line})
			stopped = strings.TrimRightFunc(strings.TrimPrefix(trimmed, "::stop-commands::"), unicode.IsSpace)
		case strings.HasPrefix(trimmed, "::"), strings.Contains(line, "##["):
			found = append(found, Command{Line: i + 1, Text: line})
		}
	}
	return found
}

// lines splits out at "\r\n", "\n" and "\r".
func lines(out string) []string {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	return strings.Split(strings.ReplaceAll(out, "\r", "\n"), "\n")
}
