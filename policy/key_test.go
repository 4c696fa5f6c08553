package policy

import "testing"

// TestKey: a name is written bare in a validation error's path only when
// every character is a letter, a digit, '_' or '-'; the characters just
// outside each range, an empty name and a non-ASCII letter are quoted.
func TestKey(t *testing.T) {
	for name, want := range map[string]string{
		"a": "agents.a", "z": "agents.z", "A": "agents.A", "Z": "agents.Z", "0": "agents.0", "9": "agents.9",
		"_": "agents._", "-": "agents.-", "zone_Z-9": "agents.zone_Z-9",
		"": `agents[""]`, "`": "agents[\"`\"]", "{": `agents["{"]`, "@": `agents["@"]`, "[": `agents["["]`,
		"/": `agents["/"]`, ":": `agents[":"]`, "a b": `agents["a b"]`, "é": `agents["é"]`, "a.b": `agents["a.b"]`,
	} {
		if got := key("agents", name); got != want {
			t.Errorf("key(agents, %q) = %s, want %s", name, got, want)
		}
	}
}
