package oneshot

import (
	"bytes"
	"encoding/json"
	"testing"
)

// What a terminal could interpret is escaped in the line, and a parser
// reads back the exact text.
func TestEventsAreInert(t *testing.T) {
	text := "a\x1b[2J b\x7f c\u009b d\u202eevil\u2066 é ✓ \xff"
	var b bytes.Buffer
	NewEvents(&b).emit(textEvent{"text", text})
	line := b.String()
	for _, bad := range []string{"\x1b", "\x7f", "\u009b", "\u202e", "\u2066"} {
		if bytes.Contains(b.Bytes(), []byte(bad)) {
			t.Errorf("%q raw in %q", bad, line)
		}
	}
	var e textEvent
	if err := json.Unmarshal(b.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	if want := "a\x1b[2J b\x7f c\u009b d\u202eevil\u2066 é ✓ \ufffd"; e.Text != want || e.Type != "text" {
		t.Errorf("read back %q, want %q", e.Text, want)
	}
}
