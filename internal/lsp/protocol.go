package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"unicode"
)

// The protocol's messages, as far as the server reads and writes them.
// Each type has the members of the LSP 3.17 type of its name that the
// server uses, in the order and with the JSON names the specification
// gives; what the server receives keeps the members' JSON types, so that
// a message is accepted or refused as the protocol's types say (a
// version is an integer, a line is not negative). They are the package's
// own rather than a library's: the Go libraries of the protocol either
// link the network stack and a logger (go.lsp.dev/protocol, through
// zap) or predate LSP 3.16 (no codeDescription, no isPreferred, no
// markup in hover and completion: github.com/sourcegraph/go-lsp).

// The methods the server answers or sends.
const (
	methodInitialize         = "initialize"
	methodInitialized        = "initialized"
	methodShutdown           = "shutdown"
	methodExit               = "exit"
	methodDidOpen            = "textDocument/didOpen"
	methodDidChange          = "textDocument/didChange"
	methodDidSave            = "textDocument/didSave"
	methodDidClose           = "textDocument/didClose"
	methodHover              = "textDocument/hover"
	methodCompletion         = "textDocument/completion"
	methodCodeAction         = "textDocument/codeAction"
	methodDefinition         = "textDocument/definition"
	methodPublishDiagnostics = "textDocument/publishDiagnostics"
	methodLogMessage         = "window/logMessage"
	methodShowMessage        = "window/showMessage"
)

// DocumentURI is a document's URI, as the client sent it.
type DocumentURI string

// Position is a place in a document: a line from 0 and a column in the
// units of the session's position encoding.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is the text between two positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range of a document.
type Location struct {
	URI   DocumentURI `json:"uri"`
	Range Range       `json:"range"`
}

// TextEdit replaces a range with new text.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// DiagnosticSeverity is how bad a diagnostic is: 1 error, 2 warning, 3
// information.
type DiagnosticSeverity float64

// The severities the server gives.
const (
	SeverityError       DiagnosticSeverity = 1
	SeverityWarning     DiagnosticSeverity = 2
	SeverityInformation DiagnosticSeverity = 3
)

// CodeDescription links a diagnostic's code to its page.
type CodeDescription struct {
	Href string `json:"href"`
}

// Diagnostic is one finding as the protocol writes it. The members the
// server does not set are kept for what a client sends back in a code
// action's context.
type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           DiagnosticSeverity             `json:"severity,omitempty"`
	Code               any                            `json:"code,omitempty"`
	CodeDescription    *CodeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source,omitempty"`
	Message            string                         `json:"message"`
	Tags               []float64                      `json:"tags,omitempty"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
	Data               any                            `json:"data,omitempty"`
}

// DiagnosticRelatedInformation is another place a diagnostic concerns.
type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// PublishDiagnosticsParams are a document's diagnostics, for a version.
type PublishDiagnosticsParams struct {
	URI         DocumentURI  `json:"uri"`
	Version     uint32       `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// MessageType is how important a message to the user is.
type MessageType float64

// The message types the server sends.
const (
	MessageError   MessageType = 1
	MessageWarning MessageType = 2
	MessageInfo    MessageType = 3
)

// LogMessageParams are a line for the client's log; ShowMessageParams
// have the same members.
type LogMessageParams struct {
	Message string      `json:"message"`
	Type    MessageType `json:"type"`
}

// MarkupContent is text in Markdown or plain text.
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// markdown is the kind of MarkupContent the server writes.
const markdown = "markdown"

// Hover is the answer to a hover.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// CompletionItemKind is the icon of a completion.
type CompletionItemKind float64

// The completion kinds the server offers.
const (
	KindFunction   CompletionItemKind = 3
	KindClass      CompletionItemKind = 7
	KindModule     CompletionItemKind = 9
	KindProperty   CompletionItemKind = 10
	KindValue      CompletionItemKind = 12
	KindEnumMember CompletionItemKind = 20
)

// CompletionItem is one completion, with the members in the order the
// protocol's Go types have always written them.
type CompletionItem struct {
	Detail        string             `json:"detail,omitempty"`
	Documentation *MarkupContent     `json:"documentation,omitempty"`
	FilterText    string             `json:"filterText,omitempty"`
	Kind          CompletionItemKind `json:"kind,omitempty"`
	Label         string             `json:"label"`
	TextEdit      *TextEdit          `json:"textEdit,omitempty"`
}

// CompletionList is the answer to a completion.
type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// CodeActionKind is the kind of a code action: quickfix, source.fixAll.
type CodeActionKind string

// quickFix is the kind of a finding's fixes.
const quickFix CodeActionKind = "quickfix"

// WorkspaceEdit is the edits of a code action, by document.
type WorkspaceEdit struct {
	Changes map[DocumentURI][]TextEdit `json:"changes,omitempty"`
}

// CodeAction is one fix the user can pick.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        CodeActionKind `json:"kind,omitempty"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

// The parameters of the requests and notifications the server takes.

// progressToken is a work-done or partial-result token: a number or a
// string. The server reports no progress; a token is only read.
type progressToken struct{}

func (*progressToken) UnmarshalJSON(data []byte) error {
	var n int32
	if json.Unmarshal(data, &n) == nil {
		return nil
	}
	var s string
	return json.Unmarshal(data, &s)
}

// tokens are the progress tokens a request may carry.
type tokens struct {
	WorkDoneToken      *progressToken `json:"workDoneToken,omitempty"`
	PartialResultToken *progressToken `json:"partialResultToken,omitempty"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI DocumentURI `json:"uri"`
}

// TextDocumentPositionParams are a document and a position in it.
type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// HoverParams are the parameters of a hover.
type HoverParams struct {
	TextDocumentPositionParams
	WorkDoneToken *progressToken `json:"workDoneToken,omitempty"`
}

// DefinitionParams are the parameters of go to definition.
type DefinitionParams struct {
	TextDocumentPositionParams
	tokens
}

// TextDocumentItem is a document opened: its text and version.
type TextDocumentItem struct {
	URI        DocumentURI `json:"uri"`
	LanguageID string      `json:"languageId"`
	Version    int32       `json:"version"`
	Text       string      `json:"text"`
}

// DidOpenTextDocumentParams are the parameters of didOpen.
type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// VersionedTextDocumentIdentifier names a version of a document.
type VersionedTextDocumentIdentifier struct {
	URI     DocumentURI `json:"uri"`
	Version int32       `json:"version"`
}

// DidSaveTextDocumentParams are the parameters of didSave.
type DidSaveTextDocumentParams struct {
	Text         string                 `json:"text,omitempty"`
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// DidCloseTextDocumentParams are the parameters of didClose.
type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// CompletionParams are the parameters of a completion.
type CompletionParams struct {
	TextDocumentPositionParams
	tokens
	Context *struct {
		TriggerCharacter string  `json:"triggerCharacter,omitempty"`
		TriggerKind      float64 `json:"triggerKind"`
	} `json:"context,omitempty"`
}

// CodeActionParams are the parameters of a code action request.
type CodeActionParams struct {
	tokens
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Context      struct {
		Diagnostics []Diagnostic     `json:"diagnostics"`
		Only        []CodeActionKind `json:"only,omitempty"`
	} `json:"context"`
	Range Range `json:"range"`
}

// fileName is the path of a file URI (file:///home/me/config.toml), and
// false for a URI of another scheme or one that is not a URI. A Windows
// path (file:///C:/x) loses its leading slash.
func fileName(u string, parse func(string) (*url.URL, error)) (string, bool) {
	p, err := parse(u)
	if err != nil || p.Scheme != "file" {
		return "", false
	}
	path := p.Path
	if len(path) >= 4 && path[0] == '/' && unicode.IsLetter(rune(path[1])) && path[2] == ':' {
		path = path[1:]
	}
	return filepath.FromSlash(path), true
}

// nameOf is the file name diagnostics are about: the document's path, or
// the URI itself when it is not a file's (untitled:Untitled-1).
func nameOf(u DocumentURI) string {
	if name, ok := fileName(string(u), url.Parse); ok && name != "" {
		return name
	}
	return string(u)
}

// rootPath is the folder of the workspace's root URI; "" when it is not
// a file URI.
func rootPath(u DocumentURI) string {
	// The root is read as a request URI: a '#' is part of the path.
	name, _ := fileName(string(u), url.ParseRequestURI)
	return name
}
