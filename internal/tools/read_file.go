package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

//go:embed read_file.md
var readFileDescription string

const readFileSchema = `{"type":"object","properties":{` +
	`"path":{"type":"string","description":"Path, relative to the working directory."},` +
	`"start":{"type":"integer","description":"First line, 1-based; 0 = from the start."},` +
	`"end":{"type":"integer","description":"Last line, inclusive; 0 = to the end."},` +
	`"numbered":{"type":"boolean","description":"Prefix lines with ` + "`N│ `" + ` (not part of the file)."}},` +
	`"required":["path"]}`

type readArgs struct {
	Path     string `json:"path"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Numbered bool   `json:"numbered"`
}

// NewReadFile returns the read_file tool. Reading never needs permission.
func NewReadFile(o FileOptions) *Tool {
	return &Tool{
		Name:        "read_file",
		Description: strings.TrimSpace(readFileDescription),
		Schema:      MustSchema(readFileSchema),
		SchemaText:  readFileSchema,
		Kind:        KindRead,
		Paths:       o.pathsOf,
		Summary: func(args json.RawMessage) string {
			var a readArgs
			if err := json.Unmarshal(args, &a); err != nil || a.Path == "" {
				return string(args)
			}
			switch {
			case a.Start > 0 && a.End > 0:
				return fmt.Sprintf("%s lines %d-%d", a.Path, a.Start, a.End)
			case a.Start > 0:
				return fmt.Sprintf("%s from line %d", a.Path, a.Start)
			case a.End > 0:
				return fmt.Sprintf("%s lines 1-%d", a.Path, a.End)
			}
			return a.Path
		},
		Run: func(ctx context.Context, args json.RawMessage) string {
			out, _ := checkedRead(ctx, o, args)
			return out
		},
		Checked: func(ctx context.Context, args json.RawMessage) (string, bool) {
			return checkedRead(ctx, o, args)
		},
	}
}

// ReadFile runs one read_file call: the lines asked for, truncated to
// o.MaxOutput. The final line break is kept only when the end of the file
// is shown, so the model can tell a cut range from the whole file.
func ReadFile(o FileOptions, args json.RawMessage) string {
	out, _ := readFile(context.Background(), o, args)
	return out
}

// checkedRead is read_file's run: stopped by ctx (a read of a slow file
// system must not hold a cancelled turn), and whether it failed.
func checkedRead(ctx context.Context, o FileOptions, args json.RawMessage) (string, bool) {
	if ctx.Err() != nil {
		return fileCancelled, true
	}
	type result struct {
		out    string
		failed bool
	}
	done := make(chan result, 1)
	go func() {
		out, failed := readFile(ctx, o, args)
		done <- result{out, failed}
	}()
	select {
	case r := <-done:
		return r.out, r.failed
	case <-ctx.Done():
		return fileCancelled, true
	}
}

// readFile is ReadFile with the context that bounds the editor's read
// (FileOptions.Editor), and whether the call failed (the text says why).
func readFile(ctx context.Context, o FileOptions, args json.RawMessage) (string, bool) {
	var a readArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return fileArgError("read_file", err), true
	}
	if a.Path == "" {
		return "[error: read_file needs a path]", true
	}
	tf, failure := loadText(ctx, o, a.Path, " — read_file reads text files only")
	if failure != "" {
		return failure, true
	}
	if !tf.exists {
		return notExistText(a.Path), true
	}
	text := tf.content
	if text == "" {
		return a.Path + " is empty", false
	}
	total := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		total++
	}
	// A negative bound means what 0 means: a small model writes -1 for
	// "to the end".
	start, end := max(a.Start, 1), a.End
	if end <= 0 || end > total {
		end = total
	}
	if start > total {
		return fmt.Sprintf("start %d is past the end of %s (%s)", a.Start, a.Path, countNoun(total, "line")), true
	}
	if end < start {
		return fmt.Sprintf("end %d is before start %d (%s has %s)", a.End, a.Start, a.Path, countNoun(total, "line")), true
	}
	from := 0
	for n := 1; n < start; n++ {
		from += strings.IndexByte(text[from:], '\n') + 1
	}
	to := from
	for n := start; n <= end; n++ {
		i := strings.IndexByte(text[to:], '\n')
		if i < 0 {
			to = len(text)
			break
		}
		to += i + 1
	}
	shown := text[from:to]
	if end < total {
		shown = strings.TrimSuffix(strings.TrimSuffix(shown, "\n"), "\r")
	}
	if a.Numbered {
		shown = numberLines(shown, start, end)
	}
	return Truncate(shown, o.MaxOutput), false
}

// numberLines prefixes each line with its number, right-aligned to the
// widest shown: `  9│ x`, ` 10│ y`. The bar is not a character code uses,
// so the prefix cannot be mistaken for the text.
func numberLines(s string, start, end int) string {
	width := len(strconv.Itoa(end))
	var b strings.Builder
	b.Grow(len(s) + (end-start+1)*(width+4))
	n := start
	for s != "" {
		i := strings.IndexByte(s, '\n')
		line := s
		if i >= 0 {
			line, s = s[:i+1], s[i+1:]
		} else {
			s = ""
		}
		fmt.Fprintf(&b, "%*d│", width, n)
		if line != "\n" && line != "\r\n" {
			b.WriteByte(' ') // no trailing space on an empty line
		}
		b.WriteString(line)
		n++
	}
	return b.String()
}

// ReadText is a file's whole text the way read_file loads it, for a
// facade that puts a file in the model's context (an ACP resource link):
// through the editor when there is one, and with the same refusals
// (binary, not UTF-8, too large, not a regular file, missing), whose
// text, without the path, is the error.
func (o FileOptions) ReadText(ctx context.Context, abs string) (string, error) {
	tf, failure := loadText(ctx, o, abs, "")
	if failure == "" && !tf.exists {
		failure = abs + " does not exist"
	}
	if failure != "" {
		return "", errors.New(strings.TrimPrefix(failure, abs+" "))
	}
	return tf.content, nil
}
