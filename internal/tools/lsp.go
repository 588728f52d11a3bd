package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"mm/internal/lsp"
)

//go:embed lsp.md
var lspDescription string

const lspSchema = `{"type":"object","properties":{` +
	`"action":{"type":"string","enum":["definition","references","hover","symbols","diagnostics","rename"]},` +
	`"path":{"type":"string","description":"File path; its extension picks the server."},` +
	`"symbol":{"type":"string","description":"Identifier, as written in the code."},` +
	`"line":{"type":"integer","description":"1-based line."},` +
	`"column":{"type":"integer","description":"1-based column, in characters."},` +
	`"new_name":{"type":"string","description":"The new identifier, for rename."}},` +
	`"required":["action","path"]}`

// NewLSP returns the lsp tool over the servers m found on the PATH, or nil
// when it found none: the tool is declared only when a server can answer.
// Navigation never needs permission; rename writes files and does.
func NewLSP(m *lsp.Manager) *Tool {
	if m == nil || len(m.Servers()) == 0 {
		return nil
	}
	return &Tool{
		Name:        "lsp",
		Description: strings.ReplaceAll(strings.TrimSpace(lspDescription), "<servers>", m.Describe()),
		Schema:      MustSchema(lspSchema),
		SchemaText:  lspSchema,
		Kind:        KindRead,
		Paths: func(args json.RawMessage) []string {
			r, err := decodeLSPArgs(args)
			if err != nil || r.Path == "" {
				return nil
			}
			return []string{m.Abs(r.Path)}
		},
		Mutates: func(args json.RawMessage) bool {
			r, err := decodeLSPArgs(args)
			return err == nil && r.Mutates()
		},
		KindOf: func(args json.RawMessage) Kind {
			if r, err := decodeLSPArgs(args); err == nil && r.Mutates() {
				return KindEdit
			}
			return KindRead
		},
		Refusal: func(args json.RawMessage) string {
			if r, err := decodeLSPArgs(args); err == nil && r.Mutates() {
				return "[rename rejected by the user]"
			}
			return RejectedText("lsp")
		},
		Summary: func(args json.RawMessage) string {
			r, err := decodeLSPArgs(args)
			if err != nil || r.Action == "" {
				return string(args)
			}
			return r.Summary()
		},
		Run: func(ctx context.Context, args json.RawMessage) string {
			r, err := decodeLSPArgs(args)
			if err != nil {
				return fmt.Sprintf("[error: lsp: bad arguments: %v]", err)
			}
			return m.Run(ctx, r)
		},
	}
}

// decodeLSPArgs reads the call's arguments. A line or a column sent as a
// string ("12") is read as the number: small models often quote numbers.
func decodeLSPArgs(args json.RawMessage) (lsp.Request, error) {
	var a struct {
		Action  string  `json:"action"`
		Path    string  `json:"path"`
		Symbol  string  `json:"symbol"`
		Line    flexInt `json:"line"`
		Column  flexInt `json:"column"`
		NewName string  `json:"new_name"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return lsp.Request{}, err
	}
	return lsp.Request{Action: a.Action, Path: a.Path, Symbol: a.Symbol, Line: int(a.Line), Column: int(a.Column), NewName: a.NewName}, nil
}

// flexInt is an integer that also accepts a quoted number, null or "".
type flexInt int

func (n *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" || s == `""` {
		*n = 0
		return nil
	}
	if uq, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(uq)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%s is not a number", string(b))
	}
	*n = flexInt(f)
	return nil
}
