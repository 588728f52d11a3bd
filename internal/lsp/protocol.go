package lsp

// The few Language Server Protocol types mm reads and writes. Positions on
// the wire are 0-based lines and UTF-16 code units (the protocol's default
// encoding, the one every server supports).

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
)

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

// locationLink is what a server that was told linkSupport may answer
// instead of a Location.
type locationLink struct {
	TargetURI            string   `json:"targetUri"`
	TargetRange          lspRange `json:"targetRange"`
	TargetSelectionRange lspRange `json:"targetSelectionRange"`
}

type textDocumentID struct {
	URI string `json:"uri"`
}

type textDocumentPosition struct {
	TextDocument textDocumentID `json:"textDocument"`
	Position     position       `json:"position"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

// workspaceEdit is a rename's answer: either changes (uri → edits) or
// documentChanges (text edits and file operations, in order).
type workspaceEdit struct {
	Changes         map[string][]textEdit `json:"changes"`
	DocumentChanges []json.RawMessage     `json:"documentChanges"`
}

// documentChange is one entry of documentChanges: a TextDocumentEdit (with
// textDocument) or a file operation (with kind).
type documentChange struct {
	Kind         string `json:"kind"` // "create", "rename", "delete"; "" for a text edit
	TextDocument struct {
		URI     string `json:"uri"`
		Version *int   `json:"version"`
	} `json:"textDocument"`
	// Edits are TextEdits or AnnotatedTextEdits (a TextEdit plus an
	// annotation id, which mm does not need).
	Edits   []textEdit `json:"edits"`
	URI     string     `json:"uri"`    // create, delete
	OldURI  string     `json:"oldUri"` // rename
	NewURI  string     `json:"newUri"` // rename
	Options *struct {
		Overwrite         bool `json:"overwrite"`
		IgnoreIfExists    bool `json:"ignoreIfExists"`
		IgnoreIfNotExists bool `json:"ignoreIfNotExists"`
		Recursive         bool `json:"recursive"`
	} `json:"options"`
}

type diagnostic struct {
	Range    lspRange        `json:"range"`
	Severity int             `json:"severity"`
	Code     json.RawMessage `json:"code"`
	Source   string          `json:"source"`
	Message  string          `json:"message"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

// documentSymbol is the hierarchical answer to textDocument/documentSymbol.
type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail"`
	Kind           int              `json:"kind"`
	Range          lspRange         `json:"range"`
	SelectionRange lspRange         `json:"selectionRange"`
	Children       []documentSymbol `json:"children"`
}

// symbolInformation is the flat answer some servers still give.
type symbolInformation struct {
	Name          string   `json:"name"`
	Kind          int      `json:"kind"`
	Location      location `json:"location"`
	ContainerName string   `json:"containerName"`
}

// symbolKinds names SymbolKind 1..26 the way the tool prints them.
var symbolKinds = [...]string{
	1: "file", "module", "namespace", "package", "class", "method", "property", "field",
	"constructor", "enum", "interface", "function", "variable", "constant", "string",
	"number", "boolean", "array", "object", "key", "null", "enum-member", "struct",
	"event", "operator", "type-parameter",
}

func symbolKindName(k int) string {
	if k > 0 && k < len(symbolKinds) {
		return symbolKinds[k]
	}
	return "symbol"
}

// severityNames names DiagnosticSeverity 1..4; a diagnostic without one is
// an error, as the protocol leaves it to the client and errors are what
// matter.
var severityNames = [...]string{1: "error", "warning", "info", "hint"}

func severityName(s int) string {
	if s > 0 && s < len(severityNames) {
		return severityNames[s]
	}
	return "error"
}

// pathToURI makes a file URI from an absolute path, escaping what a URI
// must escape (spaces, non-ASCII letters).
func pathToURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// uriToPath is the absolute path of a file URI; ok is false for another
// scheme (a server may point into a virtual document).
func uriToPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	p := u.Path
	if p == "" {
		p = u.Opaque
	}
	if p == "" {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(p)), true
}

// languageIDs are the protocol's language identifiers for the common
// extensions; any other extension is sent without its dot, which is what
// most identifiers are.
var languageIDs = map[string]string{
	".go": "go", ".ts": "typescript", ".tsx": "typescriptreact", ".mts": "typescript", ".cts": "typescript",
	".js": "javascript", ".jsx": "javascriptreact", ".mjs": "javascript", ".cjs": "javascript",
	".py": "python", ".pyi": "python", ".rs": "rust", ".c": "c", ".h": "c",
	".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp",
	".java": "java", ".kt": "kotlin", ".rb": "ruby", ".cs": "csharp", ".swift": "swift",
	".sh": "shellscript", ".bash": "shellscript", ".zig": "zig", ".lua": "lua", ".php": "php",
	".ml": "ocaml", ".hs": "haskell", ".ex": "elixir", ".exs": "elixir", ".scala": "scala",
	".md": "markdown", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".html": "html", ".css": "css",
}

func languageID(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	if id, ok := languageIDs[ext]; ok {
		return id
	}
	return strings.TrimPrefix(ext, ".")
}
