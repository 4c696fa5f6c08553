package lint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/printable"
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

// jsonReport converts diagnostics to their JSON form.
func jsonReport(ds []diag.Diagnostic) JSONReport {
	out := JSONReport{Diagnostics: make([]JSONDiagnostic, 0, len(ds))}
	for _, d := range ds {
		out.Diagnostics = append(out.Diagnostics, toJSON(d))
	}
	return out
}

func toJSON(d diag.Diagnostic) JSONDiagnostic {
	refs := d.Refs
	if refs == nil {
		refs = []string{}
	}
	return JSONDiagnostic{
		Rule: d.Rule, Severity: d.Severity.String(), Phase: string(d.Phase), Message: d.Text(),
		File: d.Span.File, Line: d.Span.Start.Line, Column: d.Span.Start.Column,
		EndLine: d.Span.End.Line, EndColumn: d.Span.End.Column,
		Key: d.Key, Suggestion: d.Suggestion, Refs: refs,
	}
}

// WriteJSON writes diagnostics as one JSON object, jsonReport(ds) indented by
// two spaces with HTML characters left as they are, and a line feed. It
// encodes one diagnostic at a time, so that its memory does not grow with
// the number of findings, with printable.JSON applied to each.
func WriteJSON(w io.Writer, ds []diag.Diagnostic) error {
	bw := bufio.NewWriterSize(w, writeBuffer)
	if len(ds) == 0 {
		bw.WriteString("{\n  \"diagnostics\": []\n}\n")
		return bw.Flush()
	}
	bw.WriteString("{\n  \"diagnostics\": [\n")
	if err := writeElements(bw, "    ", ds, func(d diag.Diagnostic) any { return toJSON(d) }); err != nil {
		return err
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

// writeElements writes the elements of a JSON array one at a time, each
// indented by indent, separated by ",\n", with HTML characters left as
// they are and printable.JSON applied: the array's memory does not
// grow with its length. as gives each diagnostic's JSON value.
func writeElements(bw *bufio.Writer, indent string, ds []diag.Diagnostic, as func(diag.Diagnostic) any) error {
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetIndent(indent, "  ")
	enc.SetEscapeHTML(false)
	for i, d := range ds {
		one.Reset()
		if err := enc.Encode(as(d)); err != nil {
			return err
		}
		if i > 0 {
			bw.WriteString(",\n")
		}
		bw.WriteString(indent)
		bw.Write(printable.JSON(bytes.TrimSuffix(one.Bytes(), []byte{'\n'})))
	}
	return nil
}

// writeBuffer is the size of the buffer the formats write through: a few
// findings' worth, so that a run with thousands of findings still writes in
// few system calls, while a clean run (which writes nothing) does not zero
// a large buffer it never fills: at 64 KiB, that was 16 fresh pages of a
// whole-process run of kokua-lint.
const writeBuffer = 8 << 10

// writeIndentedJSON writes v as indented JSON and a line feed, with
// printable.JSON applied: the values are the same, and no control or
// bidirectional character of a path or a name reaches a terminal raw.
func writeIndentedJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(printable.JSON(b.Bytes()))
	return err
}
