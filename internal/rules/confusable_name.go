package rules

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// confusable-name: a name the config writes for an agent, a reviewer or a
// toolset that looks like another name of the same kind in the same file
// (the two have the same confusable skeleton of Unicode's UTS #39, as
// 'аssistant' with a Cyrillic 'а' has 'assistant”s), or that mixes
// scripts in one word (Latin and Cyrillic letters in 'pаypal'). Kokua
// reads two names, a reader sees one: a reviewer of the file, of a pull
// request or of the policy explorer can take one agent's power for the
// other's. The project's own check (issue 37), and a warning: Kokua
// starts. A name unprintable-name reports is left to it.
var confusableNameRule = &Rule{
	ID:       "confusable-name",
	Severity: diag.Warning,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R2", "R15", "R16"},
	Summary:  "a name looks like another name of the file (Unicode's confusable skeletons, UTS #39), or mixes scripts in one word",
	Needs:    NeedsConfig,
	Check:    checkConfusableNames,
}

// spelling is one name of a kind, where the file first writes it.
type spelling = nameUse

func checkConfusableNames(p *Pass) {
	for _, names := range confusableCandidates(p.Config) {
		bySkeleton := map[string][]int{}
		var order []string
		for i, s := range names {
			k := confusables.Skeleton(s.name)
			if bySkeleton[k] == nil {
				order = append(order, k)
			}
			bySkeleton[k] = append(bySkeleton[k], i)
		}
		confusable := map[int]bool{}
		for _, k := range order {
			group := bySkeleton[k]
			if len(group) < 2 {
				continue
			}
			// The others are said to look like the first spelling the file
			// writes in one script: a look-alike is made by mixing them.
			ref := group[0]
			for _, i := range group {
				if _, mixed := mixedScripts(names[i].name); mixed == nil {
					ref = i
					break
				}
			}
			for _, i := range group {
				if i != ref {
					confusable[i] = true
					p.Report(confusableFinding(names[i], names[ref]))
				}
			}
		}
		for i, s := range names {
			if confusable[i] {
				continue
			}
			if word, scripts := mixedScripts(s.name); scripts != nil {
				in := ""
				if word != s.name {
					in = ", " + q(word)
				}
				p.Report(Finding{Span: s.span, Key: s.key,
					Message: fmt.Sprintf("%s %s mixes %s letters in one word%s", s.what, q(s.name), listed(scripts, plain, "and"), in),
					Notes: []string{"A word of two scripts is how a name is made to look like another: a Cyrillic 'а' or 'о' shows as a Latin one, and a reader sees a name Kokua does not read.",
						sentence("it holds " + listed(foreignRunes(word), plain, "and"))}})
			}
		}
	}
}

// confusableFinding reports spelling s, which has the skeleton of first.
func confusableFinding(s, first spelling) Finding {
	if norm.NFC.String(s.name) == norm.NFC.String(first.name) {
		return Finding{Span: s.span, Key: s.key,
			Message: fmt.Sprintf("%s %s differs from %s %s (line %d) only in Unicode normalization: they show alike, but Kokua reads two names",
				s.what, q(s.name), first.what, q(first.name), first.span.Start.Line),
			Notes: []string{sentence("this one is written " + strconv.QuoteToASCII(s.name) + ", the other " + strconv.QuoteToASCII(first.name)), takenFor}}
	}
	f := Finding{Span: s.span, Key: s.key,
		Message: fmt.Sprintf("%s %s looks like %s %s (line %d): Unicode's confusable skeletons of the two are the same, but Kokua reads two names", s.what, q(s.name), first.what, q(first.name), first.span.Start.Line)}
	if diff := differing(s.name, first.name); len(diff) > 0 {
		f.Notes = append(f.Notes, sentence("it holds "+listed(diff, plain, "and")+", which "+q(first.name)+" does not"))
	}
	if _, scripts := mixedScripts(s.name); scripts != nil {
		f.Notes = append(f.Notes, sentence("it mixes "+listed(scripts, plain, "and")+" letters in one word"))
	}
	f.Notes = append(f.Notes, takenFor)
	return f
}

// takenFor is the note that says why a look-alike matters.
const takenFor = "A reviewer of the file, of a pull request or of the policy explorer can take one for the other, and the power of one for the other's."

// confusableCandidates are the names of the file by kind (agents,
// reviewers, toolsets), each spelling once, in file order: a name the
// file defines where it defines it, another where the file first writes
// it. A name that holds a rune unprintable-name reports is left out.
func confusableCandidates(c *config.Config) [][]spelling {
	agents, reviewers, toolsets := &spellings{}, &spellings{}, &spellings{}
	for _, d := range nameDefinitions(c) {
		switch d.kind {
		case nameAgent:
			agents.add(d)
		case nameReviewer:
			reviewers.add(d)
		default:
			toolsets.add(d)
		}
	}
	var refs []nameUse
	list := func(kind nameKind, what string, l config.List) {
		if l.Builtin {
			return
		}
		for _, it := range l.Items {
			refs = append(refs, nameUse{kind, what, it.Value, it.Span, l.Path})
		}
	}
	if c.EntryAgent.State == config.Present {
		refs = append(refs, nameUse{nameAgent, "agent name", c.EntryAgent.Value, c.EntryAgent.Span, "[assistant].agent"})
	}
	for _, a := range c.Agents {
		list(nameAgent, "agent name", a.DelegatesTo)
		if t := a.Tools; t != nil {
			list(nameToolset, "toolset name", t.Available.List)
			list(nameToolset, "toolset name", t.Resident)
		}
	}
	list(nameReviewer, "reviewer name", c.Auto.Reviewers)
	slices.SortStableFunc(refs, func(a, b nameUse) int { return a.span.Start.Compare(b.span.Start) })
	for _, r := range refs {
		switch r.kind {
		case nameAgent:
			agents.add(r)
		case nameReviewer:
			reviewers.add(r)
		default:
			toolsets.add(r)
		}
	}
	// Each kind in file order: the first spelling of a look is the one
	// the others are said to look like.
	for _, s := range []*spellings{agents, reviewers, toolsets} {
		slices.SortStableFunc(s.list, func(a, b spelling) int { return a.span.Start.Compare(b.span.Start) })
	}
	return [][]spelling{agents.list, reviewers.list, toolsets.list}
}

// spellings gathers the distinct spellings of one kind of name.
type spellings struct {
	seen map[string]bool
	list []spelling
}

func (s *spellings) add(u nameUse) {
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if s.seen[u.name] || u.name == "" || len(unseen(u.name)) > 0 {
		return
	}
	s.seen[u.name] = true
	s.list = append(s.list, u)
}

// differing lists, once each, the runes of name that other does not
// hold, as "U+0430 CYRILLIC SMALL LETTER A".
func differing(name, other string) []string {
	var out []string
	var seen []rune
	for _, r := range name {
		if strings.ContainsRune(other, r) || slices.Contains(seen, r) {
			continue
		}
		seen = append(seen, r)
		out = append(out, runeName(r))
	}
	return out
}

// foreignRunes lists, once each, the letters of a mixed word that are
// not of the script of its first letter.
func foreignRunes(word string) []string {
	first, _ := utf8.DecodeRuneInString(word)
	home := scriptOf(first)
	var out []string
	var seen []rune
	for _, r := range word {
		if s := scriptOf(r); s == "" || s == home || slices.Contains(seen, r) {
			continue
		}
		seen = append(seen, r)
		out = append(out, runeName(r))
	}
	return out
}

// runeName writes a rune as "U+0430 CYRILLIC SMALL LETTER A".
func runeName(r rune) string {
	if n := runenames.Name(r); n != "" {
		return fmt.Sprintf("%U %s", r, n)
	}
	return fmt.Sprintf("%U", r)
}

// mixedScripts returns the first word of name whose letters are of more
// than one script, and those scripts in the order first met; nil when
// there is none. A word is a run of letters and marks; Common and
// Inherited runes (digits, punctuation, combining marks) belong to every
// script. As UTS #39's resolved script sets do, Han goes with Hiragana
// and Katakana (Japanese), with Hangul (Korean) and with Bopomofo.
func mixedScripts(name string) (string, []string) {
	for _, word := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }) {
		var scripts []string
		var resolved []string // nil: every script
		for _, r := range word {
			s := scriptOf(r)
			if s == "" {
				continue
			}
			if !slices.Contains(scripts, s) {
				scripts = append(scripts, s)
			}
			aug := augmented(s)
			if resolved == nil {
				resolved = aug
				continue
			}
			resolved = slices.DeleteFunc(slices.Clone(resolved), func(x string) bool { return !slices.Contains(aug, x) })
		}
		if resolved != nil && len(resolved) == 0 {
			return word, scripts
		}
	}
	return "", nil
}

// augmented is a script's augmented script set (UTS #39, 5.1).
func augmented(script string) []string {
	switch script {
	case "Han":
		return []string{"Han", "Japanese", "Korean", "Han with Bopomofo"}
	case "Hiragana", "Katakana":
		return []string{script, "Japanese"}
	case "Hangul":
		return []string{script, "Korean"}
	case "Bopomofo":
		return []string{script, "Han with Bopomofo"}
	}
	return []string{script}
}

// scriptNames are unicode.Scripts' names, sorted, so that a rune's
// script is looked up in one order.
var scriptNames = func() []string {
	names := make([]string, 0, len(unicode.Scripts))
	for n := range unicode.Scripts {
		if n != "Common" && n != "Inherited" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}()

// scriptOf is the script of r, "" for a rune of Common or Inherited (or
// of none).
func scriptOf(r rune) string {
	switch {
	case r < utf8.RuneSelf:
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return "Latin"
		}
		return ""
	case unicode.Is(unicode.Latin, r):
		return "Latin"
	case unicode.Is(unicode.Cyrillic, r):
		return "Cyrillic"
	case unicode.Is(unicode.Greek, r):
		return "Greek"
	}
	if s, ok := scriptCache.Load(r); ok {
		return s.(string)
	}
	script := ""
	for _, n := range scriptNames {
		if unicode.Is(unicode.Scripts[n], r) {
			script = n
			break
		}
	}
	scriptCache.Store(r, script)
	return script
}

// scriptCache holds the script of each rune looked up through the
// tables, so that a file of many names in a rare script costs one look
// through them a rune, not one a letter written.
var scriptCache sync.Map
