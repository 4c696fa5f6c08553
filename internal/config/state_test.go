package config

import "testing"

// TestState tells a key the file does not write from one written with the
// wrong type, for lists and strings alike, and shows that a built-in list
// is not written.
func TestState(t *testing.T) {
	c, err := Load("config.toml", []byte(`
[assistant]
agent = 5
model = "openai:gpt"

[agents.coder]
delegates_to = "helper"
description = ["a", "list"]

[agents.coder.tools]
available = "all"
resident = ["web"]

[security.auto_approval]
enabled = true
`))
	if err != nil {
		t.Fatal(err)
	}
	coder := c.Agent("coder")
	for _, tt := range []struct {
		what string
		got  State
		want State
	}{
		{"[assistant].agent = 5", c.EntryAgent.State, WrongType},
		{"[assistant].model", c.AssistantModel.State, Present},
		{"[agents.coder].model, not written", coder.Model.State, Absent},
		{"[agents.coder].description = [...]", coder.Description.State, WrongType},
		{`[agents.coder].delegates_to = "helper"`, coder.DelegatesTo.State, WrongType},
		{"[agents.coder.tools].resident", coder.Tools.Resident.State, Present},
		{"[agents.coder.tools].confirm, not written", coder.Tools.Confirm.State, Absent},
		{`[agents.coder.tools].available = "all"`, coder.Tools.Available.State, Present},
		{"[security.auto_approval].reviewers, not written", c.Auto.Reviewers.State, Absent},
		{"[security].never_auto_approve, built in", c.Floor.State, Absent},
		{"[assistant.tools].confirm, built in", c.DefaultPair.Confirm.State, Absent},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: state %d, want %d", tt.what, tt.got, tt.want)
		}
	}
	if c.EntryAgent.Value != "assistant" || c.EntryAgent.Span.IsZero() {
		t.Errorf("a wrong-typed [assistant].agent reads as %q at %v; want the default, at the value", c.EntryAgent.Value, c.EntryAgent.Span)
	}
	if !c.Floor.Builtin || len(c.Floor.Items) == 0 {
		t.Error("the floor the file does not write is not Kokua's built-in one")
	}
	if len(coder.DelegatesTo.Items) != 0 {
		t.Error("a wrong-typed list has items")
	}
}
