package install

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadSkillsFixture: the skills folder of testdata/skills is read as
// Kokua reads it (R17, R164): one skill per directory with a SKILL.md, in
// sorted order; a directory without one and a plain file are no skill;
// each skill's tools are its scripts/*.py files (not a directory named
// .py, not a .py.bak, not a script in a subfolder) in sorted order, named
// <slug(skill)>__<slug(stem)>; a frontmatter value with a bare colon is
// read as AIMU reads it.
func TestReadSkillsFixture(t *testing.T) {
	skills, err := ReadSkills(filepath.Join("testdata", "skills"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Skill{
		{Name: "pdf-tools", Description: "Fill PDF forms: text fields and check boxes"},
		{Name: "weekly-digest", Description: "Collect the week's notes into a digest.",
			// Sorted by file name, bytewise: "2-archive.py" < "Send Report.py" < "collect_notes.py".
			Tools: []string{"weekly_digest__2_archive", "weekly_digest__send_report", "weekly_digest__collect_notes"}},
	}
	if len(skills) != len(want) {
		t.Fatalf("read %d skills, want %d: %+v", len(skills), len(want), skills)
	}
	for i := range want {
		if skills[i].Name != want[i].Name || skills[i].Description != want[i].Description || !slices.Equal(skills[i].Tools, want[i].Tools) {
			t.Errorf("skill %d: %+v, want %+v", i, skills[i], want[i])
		}
	}
}

// TestSlug: R17's slug, with the example rules.md gives.
func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"weekly-digest":  "weekly_digest",
		"collect_notes":  "collect_notes",
		"Send Report":    "send_report",
		"a--b":           "a_b",
		"  lead":         "_lead",
		"trail!!":        "trail_",
		"café":           "caf_",
		"2024_Q1-report": "2024_q1_report",
		"\u212a":         "k", // the Kelvin sign lowers to k
		"\u0130x":        "i_x",
		"":               "",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Slug("weekly-digest") + "__" + Slug("collect_notes"); got != "weekly_digest__collect_notes" {
		t.Errorf("rules.md's example gives %q", got)
	}
}

// TestSkillName: the Agent Skills rule for a name (R17).
func TestSkillName(t *testing.T) {
	for name, ok := range map[string]bool{
		"weekly-digest": true, "a": true, "pdf2text": true, "a-b-c": true,
		"": false, "-a": false, "a-": false, "a--b": false, "Weekly": false, "a_b": false, "a.b": false, "a b": false, "é": false,
	} {
		if SkillName(name) != ok {
			t.Errorf("SkillName(%q) = %v, want %v", name, !ok, ok)
		}
	}
}

// TestReadSkillsRefuses: a skill Kokua would refuse is an error that
// names its SKILL.md and why, and every one is reported.
func TestReadSkillsRefuses(t *testing.T) {
	for _, c := range []struct {
		name, dir, skillMD string
		scripts            []string
		want               string
	}{
		{"name not the directory's", "digest", "---\nname: weekly-digest\ndescription: d\n---\n", nil, "is not its directory's"},
		{"uppercase", "Weekly", "---\nname: Weekly\ndescription: d\n---\n", nil, "is not a skill name"},
		{"double hyphen", "a--b", "---\nname: a--b\ndescription: d\n---\n", nil, "is not a skill name"},
		{"hyphen first", "-a", "---\nname: -a\ndescription: d\n---\n", nil, "is not a skill name"},
		{"too long", strings.Repeat("a", 65), "---\nname: " + strings.Repeat("a", 65) + "\ndescription: d\n---\n", nil, "65 characters long"},
		{"no name", "x", "---\ndescription: d\n---\n", nil, "gives no name"},
		{"a number for a name", "x", "---\nname: 7\ndescription: d\n---\n", nil, "gives no name"},
		{"no description", "x", "---\nname: x\n---\n", nil, "gives no description"},
		{"blank description", "x", "---\nname: x\ndescription: '  '\n---\n", nil, "gives no description"},
		{"description too long", "x", "---\nname: x\ndescription: " + strings.Repeat("d", 1025) + "\n---\n", nil, "1025 characters long"},
		{"no frontmatter", "x", "# x\n", nil, "does not start with a --- frontmatter block"},
		{"unclosed frontmatter", "x", "---\nname: x\n", nil, "no closing ---"},
		{"not YAML", "x", "---\n{[\n---\n", nil, "not YAML"},
		{"two scripts, one tool name", "x", "---\nname: x\ndescription: d\n---\n", []string{"a-b.py", "a_b.py"}, "both give the tool name 'x__a_b'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			skill := filepath.Join(dir, c.dir)
			mustWrite(t, filepath.Join(skill, "SKILL.md"), c.skillMD)
			for _, s := range c.scripts {
				mustWrite(t, filepath.Join(skill, "scripts", s), "")
			}
			// A good skill beside it is not enough to pass.
			mustWrite(t, filepath.Join(dir, "good", "SKILL.md"), "---\nname: good\ndescription: fine\n---\n")
			skills, err := ReadSkills(dir)
			if err == nil {
				t.Fatalf("read %+v, want an error", skills)
			}
			if !strings.Contains(err.Error(), filepath.Join(skill, "SKILL.md")) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want one naming %s and saying %q", err, filepath.Join(skill, "SKILL.md"), c.want)
			}
		})
	}
	if _, err := ReadSkills(filepath.Join(t.TempDir(), "missing")); err == nil || !strings.Contains(err.Error(), "cannot read the skills folder") {
		t.Errorf("a missing folder: %v", err)
	}
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
