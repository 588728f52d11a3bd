// Package tools is the flat registry of the tools mm declares to the model:
// one file per tool, each a name, a short description, a hand-written JSON
// schema and one function.
//
// An ordinary failure is never a Go error: its text is the tool's output, so
// the model reads it and can do better on the next call.
package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
)

// Kind is the ACP tool-call kind an editor uses to pick an icon.
type Kind string

// The ACP kinds mm uses.
const (
	KindExecute Kind = "execute"
	KindRead    Kind = "read"
	KindEdit    Kind = "edit"
	KindFetch   Kind = "fetch"
	KindThink   Kind = "think" // the plan tool: it changes no file
	KindOther   Kind = "other"
)

// Tool is one tool: data plus one function.
type Tool struct {
	Name string
	// Description and Schema are what the model reads on every request:
	// keep them short and exact.
	Description string
	Schema      map[string]any
	// SchemaText is the hand-written schema as written. It is what goes on
	// the wire: llama.cpp turns a schema into a grammar that makes the
	// model write the properties in the order the schema lists them, and a
	// decoded map would list them alphabetically (`new` before `old`,
	// `content` before `path`). Schema is its decoded form, for checks.
	SchemaText string
	Kind       Kind

	// Mutates reports whether this call changes something, and so waits for
	// the user's permission when yolo is false. nil means never.
	Mutates func(args json.RawMessage) bool
	// AsksUnderYolo, when set, says this call asks even under yolo: true
	// (an MCP tool that mcp.permissions sets to ask). nil means never.
	AsksUnderYolo func(args json.RawMessage) bool
	// SessionKey, when set, names what an answer "for the session" to
	// this call covers (the `mcp` tool: the one MCP tool it runs). nil
	// means the tool.
	SessionKey func(args json.RawMessage) string
	// MCP is "server/tool" for an MCP server's tool, "" otherwise: the
	// terminal shows that name (🔌 server/tool), on one line (MCPShown).
	MCP string
	// KindOf, when set, gives the kind of one call (lsp: rename edits,
	// the other actions read). nil means Kind.
	KindOf func(args json.RawMessage) Kind
	// Refusal, when set, is what the model reads when this call is
	// refused (lsp rename: `[rename rejected by the user]`). nil means
	// RejectedText(Name).
	Refusal func(args json.RawMessage) string
	// Summary is the one-line description of a call for the terminal
	// (`🛠️ bash: <summary>`). nil means the raw arguments.
	Summary func(args json.RawMessage) string
	// Paths, when set, gives the files one call reads or changes, as
	// absolute paths: the locations an editor shows (ACP). nil means none.
	Paths func(args json.RawMessage) []string
	// Run runs one call. The arguments are a JSON object that has already
	// been repaired and checked against Schema's required keys.
	Run func(ctx context.Context, args json.RawMessage) string
	// Preview, when set, is what a permission prompt shows under the call
	// of a tool without a Plan, beyond its one-line summary (ask_agent:
	// the whole task, not only its first line). nil means nothing.
	Preview func(args json.RawMessage) string
	// Checked, when set, runs one call like Run and also says whether it
	// failed (an ordinary failure: the text is still what the model
	// reads); the agent uses it instead of Run, so that an editor can
	// show the call failed (ACP). read_file has one.
	Checked func(ctx context.Context, args json.RawMessage) (output string, failed bool)
	// Plan, when set, works a call out before anything runs, and the
	// agent uses it instead of Run: the permission prompt then shows the
	// planned change, and what runs once allowed is exactly that plan
	// (write_file, edit_file: the diff shown is the change written, and a
	// file changed on disk while the prompt waited is not overwritten).
	Plan func(args json.RawMessage) Planned
	// Prefix, when set, is the command prefix a permission answer can
	// allow for the session for this call ("" = none offered), and
	// PrefixAllows says whether the prefixes allowed so far cover a
	// call (bash: BashPrefix, BashPrefixAllows).
	Prefix       func(args json.RawMessage) string
	PrefixAllows func(prefixes []string, args json.RawMessage) bool
}

// Planned is a call worked out before it runs.
type Planned struct {
	// Done, when not "", is the call's whole output: it was decided
	// without changing anything (a refusal, a dry run, nothing to write),
	// so no permission is asked and Apply is not called.
	Done string
	// Failed says Done is a refusal (the call failed), not a report.
	Failed bool
	// Preview is what the permission prompt shows under the call (a
	// diff); "" shows nothing more.
	Preview string
	// Apply carries the plan out and returns the output.
	Apply func(ctx context.Context) string
	// Diff is the planned change of one file as whole texts, for an
	// editor's diff view (ACP); nil when the plan is no file change.
	Diff *Diff
}

// Diff is one file's change as whole texts.
type Diff struct {
	Path    string // absolute
	Old     string // "" for a new file (Existed false)
	New     string
	Existed bool
	// Applied is set once the change is written (a write refused because
	// the file changed meanwhile leaves it false).
	Applied bool
}

// Definition is the tool as the model sees it. The schema's own text rides
// in the metadata so that the request keeps its property order.
func (t *Tool) Definition() *ai.ToolDefinition {
	def := &ai.ToolDefinition{Name: t.Name, Description: t.Description, InputSchema: t.Schema}
	if t.SchemaText != "" {
		def.Metadata = map[string]any{llm.RawSchemaKey: t.SchemaText}
	}
	return def
}

// SummaryOf is the one-line description of a call.
func (t *Tool) SummaryOf(args json.RawMessage) string {
	if t.Summary != nil {
		return t.Summary(args)
	}
	return string(args)
}

// PathsOf is the files one call reads or changes (absolute), or nil.
func (t *Tool) PathsOf(args json.RawMessage) []string {
	if t.Paths == nil {
		return nil
	}
	return t.Paths(args)
}

// KindFor is the kind of one call.
func (t *Tool) KindFor(args json.RawMessage) Kind {
	if t.KindOf != nil {
		return t.KindOf(args)
	}
	return t.Kind
}

// RefusalFor is what the model reads when the user refuses this call.
func (t *Tool) RefusalFor(args json.RawMessage) string {
	if t.Refusal != nil {
		return t.Refusal(args)
	}
	return RejectedText(t.Name)
}

// NeedsPermission reports whether this call must be confirmed when yolo is
// false.
func (t *Tool) NeedsPermission(args json.RawMessage) bool {
	return t.Mutates != nil && t.Mutates(args)
}

// RejectedText is what the model reads when the user (or a mode where nobody
// can answer) refuses a call: `[command rejected by the user]` for bash,
// `[<tool> rejected by the user]` for the others.
func RejectedText(name string) string {
	if name == "bash" {
		return "[command rejected by the user]"
	}
	return fmt.Sprintf("[%s rejected by the user]", name)
}

// Registry is the ordered set of declared tools. The order is the order of
// Add and never changes: the server's prompt cache depends on a
// byte-identical prefix, tool schemas included.
type Registry struct {
	list   []*Tool
	byName map[string]*Tool
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]*Tool{}}
}

// Add declares a tool. A second tool with the same name replaces nothing:
// it is a programming error.
func (r *Registry) Add(t *Tool) {
	if _, dup := r.byName[t.Name]; dup {
		panic("tools: duplicate tool " + t.Name)
	}
	r.list = append(r.list, t)
	r.byName[t.Name] = t
}

// Lookup returns the tool with that exact name, or nil.
func (r *Registry) Lookup(name string) *Tool {
	if r == nil {
		return nil
	}
	return r.byName[name]
}

// List returns the tools in declaration order.
func (r *Registry) List() []*Tool {
	if r == nil {
		return nil
	}
	return r.list
}

// Names returns the tool names in declaration order.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.List()))
	for _, t := range r.List() {
		names = append(names, t.Name)
	}
	return names
}

// Definitions returns the model-facing definitions in declaration order.
func (r *Registry) Definitions() []*ai.ToolDefinition {
	defs := make([]*ai.ToolDefinition, 0, len(r.List()))
	for _, t := range r.List() {
		defs = append(defs, t.Definition())
	}
	return defs
}

// MustSchema parses a hand-written JSON schema; tools call it once at
// construction from their embedded schema text.
func MustSchema(text string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		panic(fmt.Sprintf("tools: bad schema: %v\n%s", err, text))
	}
	return m
}
