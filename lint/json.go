package lint

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/kokua-policy/kokua-policy/diag"
)

// JSONDiagnostic is one diagnostic in the JSON output. The shape is a
// public contract, documented in docs/json-output.md: fields are only ever
// added, never renamed or removed.
type JSONDiagnostic struct {
	Rule       string   `json:"rule"`
	Severity   string   `json:"severity"`
	Phase      string   `json:"phase"`
	Message    string   `json:"message"`
	File       string   `json:"file"`
	Line       int      `json:"line"`
	Column     int      `json:"column"`
	EndLine    int      `json:"end_line"`
	EndColumn  int      `json:"end_column"`
	Key        string   `json:"key"`
	Suggestion string   `json:"suggestion"`
	Refs       []string `json:"refs"`
}

// JSONReport is the whole JSON output.
type JSONReport struct {
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
}

// ToJSON converts diagnostics to their JSON form.
func ToJSON(ds []diag.Diagnostic) JSONReport {
	out := JSONReport{Diagnostics: make([]JSONDiagnostic, 0, len(ds))}
	for _, d := range ds {
		refs := d.Refs
		if refs == nil {
			refs = []string{}
		}
		out.Diagnostics = append(out.Diagnostics, JSONDiagnostic{
			Rule: d.Rule, Severity: d.Severity.String(), Phase: string(d.Phase), Message: d.Text(),
			File: d.Span.File, Line: d.Span.Start.Line, Column: d.Span.Start.Column,
			EndLine: d.Span.End.Line, EndColumn: d.Span.End.Column,
			Key: d.Key, Suggestion: d.Suggestion, Refs: refs,
		})
	}
	return out
}

// WriteJSON writes diagnostics as one indented JSON object.
func WriteJSON(w io.Writer, ds []diag.Diagnostic) error {
	return writeIndentedJSON(w, ToJSON(ds))
}

// writeIndentedJSON writes v as indented JSON and a line feed, with
// diag.PrintableJSON applied: the values are the same, and no control or
// bidirectional character of a path or a name reaches a terminal raw.
func writeIndentedJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(diag.PrintableJSON(b.Bytes()))
	return err
}
