package procguard

import (
	"strings"
	"sync"
)

// Tail keeps the last Max bytes a long-lived child wrote to its stderr
// (a language server, an MCP server, an asked agent): its last line
// explains a child that failed or died. Safe for concurrent use.
type Tail struct {
	Max int

	mu  sync.Mutex
	buf []byte
}

func (t *Tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.Max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.Max:]...)
	}
	return len(b), nil
}

// LastLine is the last line that is not blank, cut to 200 bytes, valid
// UTF-8 (the cut may fall inside a character).
func (t *Tail) LastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(last) > 200 {
		last = last[:200] + "…"
	}
	return strings.ToValidUTF8(last, "")
}
