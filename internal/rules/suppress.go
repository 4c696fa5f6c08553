package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// This file is not a check: it applies the suppression comments of a
// config to the findings of every check, and reports the suppressions
// that do nothing (suppression-unused) or cannot work (suppression-invalid).
//
//	# kokua-lint: ignore[<rule-id>] <reason>
//
// on a finding's line, or alone on the line above it, hides that rule's
// finding there. Several IDs may be listed, separated by commas. Only
// warnings and information can be hidden: an error is a config Kokua
// refuses, and hiding it would only move the surprise to startup.

// isSpace is \s of a regular expression: ASCII white space only, not the
// vertical tab, nor Unicode's spaces.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// skipSpace returns s without the white space it starts with.
func skipSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	return s
}

// SuppressionIDs finds the list of rule IDs of a suppression comment, the
// one reader of its form: the comment starts with
//
//	#\s*kokua-lint\s*:\s*ignore\[([^\]]*)\]
//
// in regular expression syntax (\s is ASCII white space), and [from, to) are
// the bytes of the list between the brackets. The suppressions here read a
// comment's reason after it; the language server adds a rule to a list.
// (It is written out by hand, not as a regular expression, so that
// kokua-lint does not link the regexp package.)
func SuppressionIDs(comment string) (from, to int, ok bool) {
	rest, ok := strings.CutPrefix(comment, "#")
	if !ok {
		return 0, 0, false
	}
	for _, word := range []string{"kokua-lint", ":", "ignore["} {
		if rest, ok = strings.CutPrefix(skipSpace(rest), word); !ok {
			return 0, 0, false
		}
	}
	n := strings.IndexByte(rest, ']')
	if n < 0 {
		return 0, 0, false
	}
	from = len(comment) - len(rest)
	return from, from + n, true
}

// suppressionForm reads the text of a suppression comment:
//
//	^#\s*kokua-lint\s*:\s*ignore\[([^\]]*)\]\s*(.*?)\s*$
//
// the list of IDs (SuppressionIDs), and the reason after it, without the
// white space around it, and on one line.
func suppressionForm(text string) (ids, reason string, ok bool) {
	from, to, ok := SuppressionIDs(text)
	if !ok {
		return "", "", false
	}
	reason = strings.TrimRightFunc(skipSpace(text[to+1:]), func(r rune) bool { return r < 0x80 && isSpace(byte(r)) })
	if strings.Contains(reason, "\n") {
		return "", "", false
	}
	return text[from:to], reason, true
}

// suppression is one parsed suppression comment.
type suppression struct {
	tomlpos.Comment
	ids    []string
	reason string
	// line is the line whose findings it hides.
	line int
	// hit records, per rule ID, that the suppression matched a finding.
	hit map[string]bool
}

// suppress applies the suppressions to the findings and adds the findings
// about suppressions.
func suppress(in *Input, found []diag.Diagnostic) []diag.Diagnostic {
	if in.Config == nil {
		return found
	}
	invalid := &Pass{Input: in, Rule: suppressionInvalid}
	byLine := map[int][]*suppression{}
	var all []*suppression
	for _, c := range in.Config.Comments {
		if !directive(c.Text) {
			continue
		}
		s := parseSuppression(c, invalid)
		if s == nil {
			continue
		}
		all = append(all, s)
		byLine[s.line] = append(byLine[s.line], s)
	}
	if len(all) == 0 {
		return append(found, invalid.out...)
	}
	kept := found[:0:0]
	for _, d := range found {
		if !hidden(d, in.ConfigFile, byLine[d.Span.Start.Line], invalid) {
			kept = append(kept, d)
		}
	}
	unused := &Pass{Input: in, Rule: suppressionUnused}
	for _, s := range all {
		for _, id := range s.ids {
			if !s.hit[id] {
				unused.Report(Finding{Span: s.Span, Key: "",
					Message:    fmt.Sprintf("the suppression of %s hides nothing: no %s finding is on %s", id, id, lineWord(s)),
					Suggestion: "delete the suppression, or move it next to the finding it is for"})
			}
		}
	}
	return append(append(kept, invalid.out...), unused.out...)
}

// directive reports a comment addressed to kokua-lint: "kokua-lint:",
// spaces allowed before the colon. Prose that names kokua-lint is not one.
func directive(text string) bool {
	for {
		i := strings.Index(text, "kokua-lint")
		if i < 0 {
			return false
		}
		text = text[i+len("kokua-lint"):]
		if strings.HasPrefix(strings.TrimLeft(text, " \t"), ":") {
			return true
		}
	}
}

func lineWord(s *suppression) string {
	if s.Alone {
		return fmt.Sprintf("the line below it (line %d)", s.line)
	}
	return fmt.Sprintf("its line (line %d)", s.line)
}

// parseSuppression reads one comment that mentions kokua-lint; it reports
// and returns nil for one that cannot suppress anything.
func parseSuppression(c tomlpos.Comment, invalid *Pass) *suppression {
	ids, reason, ok := suppressionForm(c.Text)
	if !ok {
		invalid.Report(Finding{Span: c.Span,
			Message:    "this comment mentions kokua-lint but is not a suppression: write # kokua-lint: ignore[<rule-id>] <reason>",
			Suggestion: "write # kokua-lint: ignore[<rule-id>] <why the finding does not apply here>"})
		return nil
	}
	s := &suppression{Comment: c, reason: reason, line: c.Span.Start.Line, hit: map[string]bool{}}
	if c.Alone {
		s.line++
	}
	for _, id := range strings.Split(ids, ",") {
		id = strings.TrimSpace(id)
		if ByID(id) == nil || id == suppressionInvalid.ID || id == suppressionUnused.ID {
			f := Finding{Span: c.Span, Message: fmt.Sprintf("the suppression names %s, which is no rule that can be suppressed", q(id))}
			if matches := similar.Suggest(id, ruleIDs()); len(matches) > 0 {
				f.Suggestion = "write ignore[" + matches[0] + "]"
			}
			invalid.Report(f)
			return nil
		}
		s.ids = append(s.ids, id)
	}
	if s.reason == "" {
		invalid.Report(Finding{Span: c.Span,
			Message:    fmt.Sprintf("the suppression of %s gives no reason; a suppression must say why the finding does not apply", listed(s.ids, plain, "")),
			Suggestion: "add the reason after the brackets: # kokua-lint: ignore[" + strings.Join(s.ids, ",") + "] <reason>"})
		return nil
	}
	return s
}

// hidden reports whether a suppression on the finding's line hides it. An
// error is never hidden; trying is itself reported.
func hidden(d diag.Diagnostic, file string, candidates []*suppression, invalid *Pass) bool {
	if d.Span.File != file {
		return false
	}
	for _, s := range candidates {
		for _, id := range s.ids {
			if id != d.Rule {
				continue
			}
			s.hit[id] = true
			if d.Severity == diag.Error {
				invalid.Report(Finding{Span: s.Span,
					Message:    fmt.Sprintf("%s reports an error, and errors cannot be suppressed: Kokua would still refuse this config (at startup, or at the toolset's every build)", id),
					Suggestion: "fix the error; only warnings and information can be suppressed"})
				continue
			}
			return true
		}
	}
	return false
}

func ruleIDs() []string {
	var ids []string
	for _, r := range all {
		ids = append(ids, r.ID)
	}
	return ids
}
