package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/regular"
)

// Skill is one skill of the skills folder, as Kokua registers it (rules.md
// R17, R164): its name, the description of its SKILL.md, and the names of
// its script tools in sorted script order.
type Skill struct {
	Name        string
	Description string
	Tools       []string
}

// What one skill may hold, as AIMU's skills/validate.py checks it on
// discovery.
const (
	maxSkillName        = 64
	maxSkillDescription = 1024
	// maxSkillFile bounds the SKILL.md read: far beyond a frontmatter and
	// its body.
	maxSkillFile = 1 << 20
)

// ReadSkills reads a skills folder as Kokua does: one skill per directory
// that holds a SKILL.md, in sorted order; its frontmatter's name (which
// R17 holds to lowercase letters, digits and single hyphens, at most 64
// characters, equal to the directory's name) and description; one tool
// per scripts/*.py, named <slug(skill)>__<slug(stem)>, in sorted order.
// A skill Kokua would refuse is an error naming its SKILL.md and why;
// every such error is returned, joined.
func ReadSkills(dir string) ([]Skill, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read the skills folder %s: %w", dir, unwrapPath(err))
	}
	var skills []Skill
	var errs []error
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		info, err := os.Stat(path)
		if err != nil || !info.IsDir() {
			continue
		}
		md := filepath.Join(path, "SKILL.md")
		if _, err := os.Stat(md); err != nil {
			continue
		}
		s, err := readSkill(md, e.Name())
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", md, err))
			continue
		}
		skills = append(skills, s)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return skills, nil
}

// readSkill reads one skill's SKILL.md and scripts.
func readSkill(md, dirName string) (Skill, error) {
	data, err := regular.ReadFile(md, maxSkillFile)
	if err != nil {
		return Skill{}, fmt.Errorf("cannot read it: %w", unwrapPath(err))
	}
	front, err := frontmatter(string(data))
	if err != nil {
		return Skill{}, err
	}
	name, ok := front["name"].(string)
	switch {
	case !ok || name == "":
		return Skill{}, fmt.Errorf("its frontmatter gives no name as a string; the name must be %s, its directory's", printable.Quote(dirName))
	case utf8.RuneCountInString(name) > maxSkillName:
		return Skill{}, fmt.Errorf("its name is %d characters long; a skill's name is at most %d", utf8.RuneCountInString(name), maxSkillName)
	case !SkillName(name):
		return Skill{}, fmt.Errorf("its name %s is not a skill name: lowercase letters, digits and single hyphens, with no hyphen first or last", printable.Quote(name))
	case name != dirName:
		return Skill{}, fmt.Errorf("its name %s is not its directory's, %s; the two must agree", printable.Quote(name), printable.Quote(dirName))
	}
	desc, ok := front["description"].(string)
	desc = strings.TrimSpace(desc)
	switch {
	case !ok || desc == "":
		return Skill{}, errors.New("its frontmatter gives no description as a string")
	case utf8.RuneCountInString(desc) > maxSkillDescription:
		return Skill{}, fmt.Errorf("its description is %d characters long; a skill's description is at most %d", utf8.RuneCountInString(desc), maxSkillDescription)
	}
	tools, err := scriptTools(filepath.Join(filepath.Dir(md), "scripts"), name)
	if err != nil {
		return Skill{}, err
	}
	return Skill{Name: name, Description: desc, Tools: tools}, nil
}

// frontmatter reads the YAML block a SKILL.md starts with: from its first
// "---" to the next "---", as AIMU's skills/frontmatter.py splits it.
func frontmatter(text string) (map[string]any, error) {
	const fence = "---"
	if !strings.HasPrefix(text, fence) {
		return nil, errors.New("it does not start with a --- frontmatter block")
	}
	end := strings.Index(text[len(fence):], fence)
	if end < 0 {
		return nil, errors.New("its frontmatter block has no closing ---")
	}
	block := text[len(fence) : len(fence)+end]
	var front map[string]any
	if yaml.Unmarshal([]byte(block), &front) == nil {
		return front, nil
	}
	// AIMU then quotes each bare value that holds a colon, a common slip
	// in a hand-written block, and reads it again.
	lines := strings.Split(strings.ReplaceAll(block, "\r\n", "\n"), "\n")
	for i, line := range lines {
		stripped := strings.TrimLeft(line, " \t")
		if !strings.Contains(stripped, ":") || strings.HasPrefix(stripped, "-") || strings.HasPrefix(stripped, "#") {
			continue
		}
		key, value, _ := strings.Cut(stripped, ":")
		value = strings.TrimSpace(value)
		if value != "" && !strings.HasPrefix(value, `"`) && !strings.HasPrefix(value, "'") && !strings.HasPrefix(value, "|") {
			lines[i] = line[:len(line)-len(stripped)] + key + `: "` + value + `"`
		}
	}
	front = nil
	if err := yaml.Unmarshal([]byte(strings.Join(lines, "\n")), &front); err != nil {
		return nil, fmt.Errorf("its frontmatter is not YAML: %w", err)
	}
	return front, nil
}

// scriptTools are the tool names of a skill's scripts: one per regular
// file of scripts/ whose name ends in .py, in sorted order, each
// <slug(skill)>__<slug(stem)>. Two scripts whose names give one tool name
// are an error: the model could call only one of them.
func scriptTools(dir, skill string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read its scripts folder: %w", unwrapPath(err))
	}
	var tools []string
	from := map[string]string{}
	for _, e := range entries {
		stem, ok := strings.CutSuffix(e.Name(), ".py")
		if !ok {
			continue
		}
		if info, err := os.Stat(filepath.Join(dir, e.Name())); err != nil || !info.Mode().IsRegular() {
			continue
		}
		name := Slug(skill) + "__" + Slug(stem)
		if other, dup := from[name]; dup {
			return nil, fmt.Errorf("its scripts %s and %s both give the tool name %s", printable.Quote(other), printable.Quote(e.Name()), printable.Quote(name))
		}
		from[name] = e.Name()
		tools = append(tools, name)
	}
	return tools, nil
}

// SkillName reports whether s follows the Agent Skills rule for a name
// (R17): lowercase ASCII letters and digits in runs joined by single
// hyphens. The length is checked apart.
func SkillName(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := range len(s) {
		if c := s[i]; c != '-' && (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Slug is the part of a skill tool's name made of a skill's or a
// script's name (R17): lowercased, each run of characters outside a-z and
// 0-9 collapsed to one "_".
func Slug(s string) string {
	var b strings.Builder
	run := false
	// Python's str.lower, which AIMU calls, lowers U+0130 to "i" and a
	// combining dot; Go's to "i" alone.
	for _, r := range strings.ToLower(strings.ReplaceAll(s, "\u0130", "i\u0307")) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			run = false
			continue
		}
		if !run {
			b.WriteByte('_')
		}
		run = true
	}
	return b.String()
}

// unwrapPath drops the path an *fs.PathError repeats, keeping its cause.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
