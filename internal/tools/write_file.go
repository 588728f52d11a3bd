package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed write_file.md
var writeFileDescription string

const writeFileSchema = `{"type":"object","properties":{` +
	`"path":{"type":"string","description":"Path, relative to the working directory."},` +
	`"content":{"type":"string","description":"The whole file content."}},` +
	`"required":["path","content"]}`

type writeArgs struct {
	Path    string  `json:"path"`
	Content *string `json:"content"`
}

// NewWriteFile returns the write_file tool.
func NewWriteFile(o FileOptions) *Tool {
	return &Tool{
		Name:        "write_file",
		Description: strings.TrimSpace(writeFileDescription),
		Schema:      MustSchema(writeFileSchema),
		SchemaText:  writeFileSchema,
		Kind:        KindEdit,
		Paths:       o.pathsOf,
		Mutates:     func(json.RawMessage) bool { return true },
		Summary: func(args json.RawMessage) string {
			var a writeArgs
			if err := json.Unmarshal(args, &a); err != nil || a.Path == "" {
				return string(args)
			}
			return a.Path
		},
		Run: func(ctx context.Context, args json.RawMessage) string {
			return planned(planFileCall(ctx, o, args, planWrite), ctx)
		},
		Plan: func(args json.RawMessage) Planned { return planFileCall(context.Background(), o, args, planWrite) },
	}
}

// PlanWrite works out a write_file call without writing anything: the
// change (whole old and new content, header and diff) or the text of the
// refusal. Run writes exactly the change PlanWrite returns.
//
// An existing CRLF file stays CRLF, and a byte-order mark stays: the model
// writes "\n" whatever the file uses, and a file whose every line changed
// its ending would be a diff of the whole file for nothing.
func PlanWrite(o FileOptions, args json.RawMessage) (FileChange, string) {
	return planWrite(context.Background(), o, args)
}

func planWrite(ctx context.Context, o FileOptions, args json.RawMessage) (FileChange, string) {
	var a writeArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return FileChange{}, fileArgError("write_file", err)
	}
	if a.Path == "" {
		return FileChange{}, "[error: write_file needs a path]"
	}
	if a.Content == nil {
		return FileChange{}, `[error: write_file needs content: the whole text of the file ("" for an empty file)]`
	}
	tf, failure := loadText(ctx, o, a.Path, " — write_file will not overwrite it")
	if failure != "" {
		return FileChange{}, failure
	}
	c := tf.change(a.Path)
	c.New = *a.Content
	var b strings.Builder
	if !tf.exists {
		// The reference's output is the header and the diff against the
		// previous content: for a new file, every line added.
		if c.New != "" {
			ops, _ := textDiff("", c.New)
			b.WriteByte('\n')
			renderDiff(&b, [][]diffOp{ops})
		}
		diff := strings.TrimSuffix(b.String(), "\n")
		lines := countNoun(textLineCount(c.New), "line")
		c.Report = Truncate(a.Path+": created, "+lines+diff, o.MaxOutput)
		// The permission prompt shows it before anything is written.
		c.Preview = Truncate(a.Path+": would be created, "+lines+diff, o.MaxOutput)
		return c, ""
	}
	oldText, norm := normalize(tf.content)
	newText := c.New
	if norm.bom {
		newText = strings.TrimPrefix(newText, utf8BOM)
	}
	newText = norm.text(newText)
	c.New = norm.denormalize(newText)
	if c.Unchanged() {
		c.Report = a.Path + ": content identical to the file — nothing written"
		return c, ""
	}
	ops, st := textDiff(oldText, newText)
	fmt.Fprintf(&b, ", +%d -%d lines, first change at line %d", st.added, st.removed, st.first)
	if norm.ending == endingCRLF && strings.Contains(*a.Content, "\n") && !strings.Contains(*a.Content, "\r\n") {
		b.WriteString(" (CRLF line endings kept)")
	}
	b.WriteByte('\n')
	renderDiff(&b, [][]diffOp{ops})
	rest := strings.TrimSuffix(b.String(), "\n")
	c.Report = Truncate(a.Path+": replaced"+rest, o.MaxOutput)
	// The permission prompt shows it before anything is written.
	c.Preview = Truncate(a.Path+": would be replaced"+rest, o.MaxOutput)
	return c, ""
}

// textLineCount counts lines the way an editor shows them: a last line without
// a line break counts, an empty text has none.
func textLineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
