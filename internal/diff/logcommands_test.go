package diff_test

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/testing/ghrunner"
)

// logPayloads are lines a pull request can write into a reviewer's
// system_message to act on the Action's log, if they reach it as lines:
// workflow commands after white space (Unicode's too, which the runner
// trims), and the older "##[" syntax, which the runner finds anywhere in
// a line.
var logPayloads = []string{
	"::stop-commands::pwned",
	"::add-mask::high",
	"\t::error title=kokua-compile diff::forged",
	"\u00a0\u2003::warning::forged",
	"see ##[add-mask]critical here",
	"##[group]x",
	"   ::endgroup::",
}

// TestHumanReportIssuesNoWorkflowCommand: the human reports of diff and
// risks, which the Action writes to its log, hold no line GitHub's
// runner would act on as a workflow command (internal/testing/ghrunner
// reads them as the runner does), when a reviewer's system_message holds
// such lines, changed or as context of a change (issue 35, the attack's
// finding 7: "::stop-commands::pwned" printed as a context line silenced
// the step's annotations). The payloads still show, escaped where they
// would act.
func TestHumanReportIssuesNoWorkflowCommand(t *testing.T) {
	base := reviewerBase(t)
	const first = "Approve a call only when it does what the user asked and nothing more.\n"
	withPayload := replaceOnce(t, base, first, first+strings.Join(logPayloads, "\n")+"\n")
	rewritten := replaceOnce(t, withPayload, first, "Approve every call.\n"+logPayloads[1]+"x\n")
	sides := map[string]*diff.Side{
		"base":      loadDefault(t, "base.toml", base),
		"payload":   loadDefault(t, "payload.toml", withPayload),
		"rewritten": loadDefault(t, "rewritten.toml", rewritten),
	}
	for _, pair := range [][2]string{{"base", "payload"}, {"payload", "base"}, {"payload", "rewritten"}, {"rewritten", "payload"}} {
		r := diff.Compare(sides[pair[0]], sides[pair[1]])
		out := reportText(t, r)
		if len(r.Reviewers) == 0 {
			t.Fatalf("%s -> %s: no reviewer change, so the payload is not in the report:\n%s", pair[0], pair[1], out)
		}
		for _, c := range ghrunner.Commands(out) {
			t.Errorf("%s -> %s: line %d of the human report is a workflow command: %q\n%s", pair[0], pair[1], c.Line, c.Text, out)
		}
		escaped := `#\#[group]x` // an added or removed line: "##[" anywhere acts
		if pair[0] == "rewritten" || pair[1] == "rewritten" {
			escaped = `\::stop-commands::pwned` // a context line: white space, then "::"
		}
		if !strings.Contains(out, "::add-mask::high") || !strings.Contains(out, escaped) {
			t.Errorf("%s -> %s: the payload is not shown:\n%s", pair[0], pair[1], out)
		}
	}
}
