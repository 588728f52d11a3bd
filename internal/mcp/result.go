package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultText is what the model reads of one call's result: text as is;
// structured content as compact JSON, in place of the text blocks when
// they only repeat it as JSON (the protocol asks servers to send both) or
// when there is no text; images and audio as one line (type, size), for
// a text model cannot read them; resource links as their URI; an
// embedded resource as its text, or one line for a binary one.
func resultText(r *sdk.CallToolResult) string {
	var parts []string
	compact := r.StructuredContent != nil && textRepeats(r)
	if compact {
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	for _, c := range r.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			if !compact {
				parts = append(parts, c.Text)
			}
		case *sdk.ImageContent:
			parts = append(parts, fmt.Sprintf("[image: %s, %s]", orUnknown(c.MIMEType), size(len(c.Data))))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %s]", orUnknown(c.MIMEType), size(len(c.Data))))
		case *sdk.ResourceLink:
			parts = append(parts, c.URI)
		case *sdk.EmbeddedResource:
			parts = append(parts, embedded(c.Resource))
		default:
			if b, err := json.Marshal(c); err == nil {
				parts = append(parts, string(b))
			}
		}
	}
	return strings.Join(parts, "\n")
}

// textRepeats reports whether the text blocks are only the structured
// content written as JSON (or there are none). A text that says more
// (server-filesystem's file content beside {"content": …}) is kept as is:
// a file is easier to read unescaped.
func textRepeats(r *sdk.CallToolResult) bool {
	b, err := json.Marshal(r.StructuredContent)
	if err != nil {
		return false
	}
	var want any
	json.Unmarshal(b, &want)
	for _, c := range r.Content {
		t, ok := c.(*sdk.TextContent)
		if !ok {
			continue
		}
		var got any
		if json.Unmarshal([]byte(t.Text), &got) != nil || !reflect.DeepEqual(got, want) {
			return false
		}
	}
	return true
}

func embedded(r *sdk.ResourceContents) string {
	switch {
	case r == nil:
		return "[resource]"
	case r.Blob != nil:
		return fmt.Sprintf("[resource %s: %s, %s]", r.URI, orUnknown(r.MIMEType), size(len(r.Blob)))
	}
	return r.Text
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

// size is a byte count for people: 812 bytes, 1.2 KB, 3.4 MB.
func size(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
