package acp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/tools"
)

// ErrUnsupportedContent is PromptText's error for a block mm announced
// it does not take (promptCapabilities image and audio are false): the
// facade answers the prompt with -32602.
var ErrUnsupportedContent = errors.New("unsupported content")

// PromptText is a session/prompt's blocks as the question the model
// reads. Text blocks are joined as they come: an editor splits the
// user's text around each mention (`fix @main.go please` is a text, a
// resource, a text), so no separator is added. A resource or a resource
// link stands in the question as its name (the path of a file), and
// what it holds follows the question as context: a line `<name>:` then
// the text in a fenced block, cut to maxOutput the way tool outputs are
// (tools.Truncate). A file:// link is read with read (the facade's: the
// editor's buffer or the disk); binary content, a link to anything but a
// file, or a file that cannot be read is said in one line instead.
func PromptText(ctx context.Context, blocks []acpsdk.ContentBlock, maxOutput int, read func(ctx context.Context, abs string) (string, error)) (string, error) {
	var question strings.Builder
	var extra []string
	seen := map[string]bool{} // a resource named twice is shown once
	mention := func(name string) {
		if q := question.String(); q != "" && !endsSpace(q) {
			question.WriteByte(' ')
		}
		question.WriteString(name)
	}
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			if t := b.Text.Text; t != "" {
				if q := question.String(); q != "" && !endsSpace(q) && startsWord(t) {
					question.WriteByte(' ')
				}
				question.WriteString(t)
			}
		case b.Image != nil:
			return "", fmt.Errorf("%w: an image block (mm takes text only)", ErrUnsupportedContent)
		case b.Audio != nil:
			return "", fmt.Errorf("%w: an audio block (mm takes text only)", ErrUnsupportedContent)
		case b.Resource != nil:
			name, part := embedded(b.Resource.Resource, maxOutput)
			mention(name)
			if !seen[name] {
				seen[name] = true
				extra = append(extra, part)
			}
		case b.ResourceLink != nil:
			name, part := linked(ctx, b.ResourceLink, maxOutput, read)
			mention(name)
			if !seen[name] {
				seen[name] = true
				extra = append(extra, part)
			}
		}
	}
	parts := extra
	if q := strings.TrimSpace(question.String()); q != "" {
		parts = append([]string{q}, extra...)
	}
	return strings.Join(parts, "\n\n"), nil
}

// embedded is an embedded resource's name and the context it adds.
func embedded(r acpsdk.EmbeddedResourceResource, maxOutput int) (name, part string) {
	switch {
	case r.TextResourceContents != nil:
		name = resourceName(r.TextResourceContents.Uri, "")
		return name, fenced(name, r.TextResourceContents.Text, maxOutput)
	case r.BlobResourceContents != nil:
		blob := r.BlobResourceContents
		name = resourceName(blob.Uri, "")
		return name, fmt.Sprintf("%s: binary content (%s, about %d bytes), not shown", name, mimeOr(blob.MimeType), base64Size(blob.Blob))
	}
	return "(empty resource)", "(empty resource): nothing in it"
}

// linked is a resource link's name and the context it adds: a file's
// text, read now, or one line saying what the link is.
func linked(ctx context.Context, l *acpsdk.ContentBlockResourceLink, maxOutput int, read func(context.Context, string) (string, error)) (name, part string) {
	name = resourceName(l.Uri, l.Name)
	abs, ok := filePath(l.Uri)
	if !ok {
		return name, fmt.Sprintf("%s: a link to %s (%s), not opened", name, clientLine(l.Uri), mimeOr(l.MimeType))
	}
	text, err := read(ctx, abs)
	if err != nil {
		return name, fmt.Sprintf("%s: not included (%s)", name, clientLine(err.Error()))
	}
	if strings.IndexByte(text, 0) >= 0 {
		return name, name + ": not included (a binary file)"
	}
	return name, fenced(name, text, maxOutput)
}

// fenced is `<name>:` and the text in a fence longer than any run of
// backticks in it, so the text cannot close it early.
func fenced(name, text string, maxOutput int) string {
	text = tools.Truncate(text, maxOutput)
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return name + ":\n" + fence + "\n" + text + fence
}

// resourceName is what the model reads for a resource: a file's path
// (with its fragment, an editor's selection `#L10:20`), else the
// client's name for it, else its URI, always on one inert line.
func resourceName(uri, name string) string {
	if abs, ok := filePath(uri); ok {
		if u, err := url.Parse(uri); err == nil && u.Fragment != "" {
			abs += "#" + u.Fragment
		}
		return clientLine(abs)
	}
	if n := clientLine(name); n != "" {
		return n
	}
	if n := clientLine(uri); n != "" {
		return n
	}
	return "(unnamed resource)"
}

// filePath is the absolute path of a file:// URI on this machine.
func filePath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || !strings.HasPrefix(u.Path, "/") {
		return "", false
	}
	return u.Path, true
}

func mimeOr(m *string) string {
	if m == nil || clientLine(*m) == "" {
		return "type not given"
	}
	return clientLine(*m)
}

// base64Size is the decoded size of base64 data, without decoding it.
func base64Size(b string) int {
	b = strings.TrimRight(strings.TrimSpace(b), "=")
	return len(b) * 3 / 4
}

func endsSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsSpace(r)
}

// startsWord: text that starts with a letter or digit would glue onto a
// mention's name before it; punctuation and spaces keep their place.
func startsWord(s string) bool {
	for _, r := range s {
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}
