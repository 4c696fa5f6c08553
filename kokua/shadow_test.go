package kokua

import "testing"

// TestHolders walks resident toolsets as R137 does: the first toolset to
// offer a name keeps it, a later one is shadowed, and a core tool is never
// part of a shadow.
func TestHolders(t *testing.T) {
	h := NewHolders(4)
	offers := []struct {
		tool, toolset string
		kept          bool
		shadow        Shadow
	}{
		{"read_file", "fs", true, Shadow{}},
		{"read_file", "files", false, Shadow{Tool: "read_file", Toolset: "files", By: "fs"}},
		{ActivateSkill, Core, true, Shadow{}},
		{ActivateSkill, "my_skill", false, Shadow{}},
		{"read_file", "web", false, Shadow{Tool: "read_file", Toolset: "web", By: "fs"}},
		{"write_file", "files", true, Shadow{}},
	}
	for _, o := range offers {
		shadow, kept := h.Offer(o.tool, o.toolset)
		if kept != o.kept || shadow != o.shadow {
			t.Errorf("Offer(%q, %q) = %+v, %v; want %+v, %v", o.tool, o.toolset, shadow, kept, o.shadow, o.kept)
		}
	}
}

// TestHoldersReset: after Reset, the next walk starts with no holder.
func TestHoldersReset(t *testing.T) {
	h := NewHolders(1)
	h.Offer("read_file", "fs")
	h.Reset()
	if shadow, kept := h.Offer("read_file", "files"); !kept || shadow != (Shadow{}) {
		t.Errorf("after Reset, Offer(read_file, files) = %+v, %v; want it kept", shadow, kept)
	}
	if shadow, _ := h.Offer("read_file", "fs"); shadow.By != "files" {
		t.Errorf("after Reset, the second offer is shadowed by %q, want files", shadow.By)
	}
}

// TestShadowAlert holds the alert to R137's example word for word.
func TestShadowAlert(t *testing.T) {
	got := Shadow{Tool: "read_file", Toolset: "files", By: "fs"}.Alert("researcher")
	want := "researcher: read_file from 'files' is shadowed by 'fs' (the earlier resident toolset keeps the name)."
	if got != want {
		t.Errorf("Alert = %q, want %q", got, want)
	}
}

func TestTrustRank(t *testing.T) {
	for i, k := range []string{KindKokua, KindPlugin, KindSkill, KindMCP, "unknown"} {
		if got := TrustRank(k); got != i {
			t.Errorf("TrustRank(%q) = %d, want %d", k, got, i)
		}
	}
}
