package format

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func writer(tag string) func(io.Writer, string) error {
	return func(w io.Writer, v string) error {
		_, err := io.WriteString(w, tag+":"+v)
		return err
	}
}

var greetings = New("greeting",
	Format[string]{Info{"plain", ""}, writer("plain")},
	Format[string]{Info{"loud", "upper case"}, writer("loud")},
	Format[string]{Info{"json", "for programs"}, writer("json")},
)

func TestSetDerives(t *testing.T) {
	if got, want := strings.Join(greetings.Names(), " "), "plain loud json"; got != want {
		t.Errorf("Names = %q, want %q", got, want)
	}
	if got := greetings.Default(); got != "plain" {
		t.Errorf("Default = %q, want the first, plain", got)
	}
	if got, want := greetings.Synopsis(), "plain|loud|json"; got != want {
		t.Errorf("Synopsis = %q, want %q", got, want)
	}
	if got, want := greetings.Usage(), "plain, loud (upper case) or json (for programs)"; got != want {
		t.Errorf("Usage = %q, want %q", got, want)
	}
	for _, name := range greetings.Names() {
		if err := greetings.Check(name); err != nil {
			t.Errorf("Check(%q) = %v, want nil", name, err)
		}
		var b bytes.Buffer
		if err := greetings.Write(&b, name, "hi"); err != nil || b.String() != name+":hi" {
			t.Errorf("Write(%q) wrote %q, %v: want %q from that format's writer", name, b.String(), err, name+":hi")
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	for _, name := range []string{"", "xml", "Plain", "plain "} {
		err := greetings.Check(name)
		if want := `--format takes plain, loud or json, not "` + name + `"`; err == nil || err.Error() != want {
			t.Errorf("Check(%q) = %v, want %s", name, err, want)
		}
		var b bytes.Buffer
		err = greetings.Write(&b, name, "hi")
		if want := `unknown greeting format "` + name + `" (want plain, loud or json)`; err == nil || err.Error() != want || b.Len() > 0 {
			t.Errorf("Write(%q) = %v after %q, want %s and nothing written", name, err, b.String(), want)
		}
	}
}

// TestNewRefusesMistakes: a Set with no format, a nameless or writerless
// format, or a name given twice is a mistake in its declaration.
func TestNewRefusesMistakes(t *testing.T) {
	w := writer("x")
	for name, fs := range map[string][]Format[string]{
		"no format": nil,
		"no name":   {{Info{"", ""}, w}},
		"no writer": {{Info{"a", ""}, nil}},
		"twice":     {{Info{"a", ""}, w}, {Info{"a", "again"}, w}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: New did not panic", name)
				}
			}()
			New("test", fs...)
		}()
	}
}
