package report

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// luminance is a #rrggbb colour's relative luminance (WCAG 2).
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	if len(hex) != 7 || hex[0] != '#' {
		t.Fatalf("colour %q is not #rrggbb", hex)
	}
	var l [3]float64
	for i := range 3 {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatal(err)
		}
		c := float64(v) / 255
		if c <= 0.03928 {
			l[i] = c / 12.92
		} else {
			l[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// TestContrast: in the light and the dark scheme, each decision's text on
// its cell's colour, and the page's text on its backgrounds, reach
// WCAG's 4.5:1.
func TestContrast(t *testing.T) {
	vars := regexp.MustCompile(`--([a-z]+):(#[0-9a-f]{6})`)
	light, dark, ok := strings.Cut(pageCSS, "prefers-color-scheme:dark")
	if !ok {
		t.Fatal("page.css has no dark scheme")
	}
	for name, css := range map[string]string{"light": light, "dark": dark} {
		c := map[string]string{}
		for _, m := range vars.FindAllStringSubmatch(css, -1) {
			if _, seen := c[m[1]]; !seen {
				c[m[1]] = m[2]
			}
		}
		for _, pair := range [][2]string{{"u", "uf"}, {"l", "lf"}, {"r", "rf"}, {"c", "cf"}, {"v", "vf"}, {"d", "df"},
			{"bg", "fg"}, {"head", "fg"}, {"bg", "muted"}, {"head", "muted"}, {"bg", "focus"}, {"bg", "w"}, {"bg", "n"}} {
			a, b := luminance(t, c[pair[0]]), luminance(t, c[pair[1]])
			ratio := (max(a, b) + 0.05) / (min(a, b) + 0.05)
			if ratio < 4.5 {
				t.Errorf("%s: --%s on --%s has contrast %.2f, below 4.5", name, pair[1], pair[0], ratio)
			}
		}
	}
}
