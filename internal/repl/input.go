package repl

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// One goroutine reads the terminal; the router decides where each byte
// goes. At the prompt, bytes go to readline (through a pipe) so it edits
// the line as usual. While a turn runs, the same bytes are keys: Esc and
// Ctrl-C cancel, a typed line can abort, quit, or become the next question,
// and a permission prompt takes one letter. Without this single reader,
// readline's own goroutine and a key watcher would race for the bytes.

type keyKind int

const (
	keyRune keyKind = iota
	keyEsc
	keyInterrupt // Ctrl-C
	keyEOF       // Ctrl-D
	keyEnter
	keyBackspace
	keyKill // Ctrl-U
	keyText // pasted text
)

type key struct {
	kind keyKind
	r    rune
	text string
}

// Bracketed paste: a terminal that supports it wraps pasted text in these,
// once mm turns the mode on.
var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

const (
	bracketedPasteOn  = "\x1b[?2004h"
	bracketedPasteOff = "\x1b[?2004l"
)

type router struct {
	pipe *bufPipe // to readline
	keys chan key // while a turn runs

	mu      sync.Mutex
	turn    bool
	pending []byte // an escape sequence cut by the end of a read
	inPaste bool
	paste   []byte
	// pastes are the multi-line pastes of the session and of the history
	// file, by placeholder number - 1: a placeholder recalled from the
	// history (↑) still sends its text.
	pastes []string
}

func newRouter() *router {
	return &router{pipe: newBufPipe(), keys: make(chan key, 256)}
}

// run reads src until it ends, then closes the pipe (readline sees EOF).
func (r *router) run(src io.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			r.feed(buf[:n])
		}
		if err != nil {
			r.pipe.Close()
			r.mu.Lock()
			turn := r.turn
			r.mu.Unlock()
			if turn {
				r.keys <- key{kind: keyEOF}
			}
			return
		}
	}
}

func (r *router) setTurn(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.turn = on
}

// feed routes one read of the terminal.
func (r *router) feed(chunk []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	data := append(r.pending, chunk...)
	r.pending = nil
	plainStart := 0
	flush := func(end int) {
		if end > plainStart {
			r.plain(data[plainStart:end], end == len(data))
		}
	}
	for i := 0; i < len(data); {
		if r.inPaste {
			j := bytes.Index(data[i:], pasteEnd)
			if j < 0 {
				keep := partialSuffix(data[i:], pasteEnd)
				r.paste = append(r.paste, data[i:len(data)-keep]...)
				r.pending = append([]byte(nil), data[len(data)-keep:]...)
				return
			}
			r.paste = append(r.paste, data[i:i+j]...)
			i += j + len(pasteEnd)
			r.inPaste = false
			r.endPaste()
			plainStart = i
			continue
		}
		if data[i] != 0x1b {
			i++
			continue
		}
		rest := data[i:]
		if bytes.HasPrefix(rest, pasteStart) {
			flush(i)
			r.inPaste = true
			r.paste = r.paste[:0]
			i += len(pasteStart)
			plainStart = i
			continue
		}
		if len(rest) > 1 && len(rest) < len(pasteStart) && bytes.HasPrefix(pasteStart, rest) {
			// Maybe the start of a paste cut by the read: wait for more.
			flush(i)
			r.pending = append([]byte(nil), rest...)
			return
		}
		i += escLen(rest)
	}
	flush(len(data))
}

// plain handles bytes outside a bracketed paste.
func (r *router) plain(b []byte, atEnd bool) {
	if !r.turn {
		// A read that holds a line break followed by more text was pasted
		// (nobody types that fast) by a terminal without bracketed paste.
		if i := bytes.IndexAny(b, "\r\n"); i >= 0 && i < len(bytes.TrimRight(b, "\r\n")) && !bytes.ContainsRune(b, 0x1b) {
			r.paste = append(r.paste[:0], b...)
			r.endPaste()
			return
		}
		r.pipe.Write(b)
		return
	}
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b:
			n := escLen(b[i:])
			if n == 1 {
				r.send(key{kind: keyEsc})
			}
			i += n
			continue
		case c == 0x03:
			r.send(key{kind: keyInterrupt})
		case c == 0x04:
			r.send(key{kind: keyEOF})
		case c == '\r' || c == '\n':
			r.send(key{kind: keyEnter})
		case c == 0x7f || c == 0x08:
			r.send(key{kind: keyBackspace})
		case c == 0x15:
			r.send(key{kind: keyKill})
		case c < 0x20:
			// other control keys mean nothing during a turn
		default:
			ru, n := utf8.DecodeRune(b[i:])
			r.send(key{kind: keyRune, r: ru})
			i += n
			continue
		}
		i++
	}
}

func (r *router) send(k key) {
	select {
	case r.keys <- k:
	default: // nobody reads that fast: drop rather than block the terminal
	}
}

// endPaste delivers a finished paste: a single line as typed text, several
// lines as a placeholder that expand replaces on submit (readline edits one
// line; the placeholder keeps the prompt readable). During a turn it is
// type-ahead in the same form.
func (r *router) endPaste() {
	text := strings.ReplaceAll(strings.ReplaceAll(string(r.paste), "\r\n", "\n"), "\r", "\n")
	r.paste = r.paste[:0]
	text = strings.TrimRight(text, "\n")
	if strings.Contains(text, "\n") {
		text = r.holdLocked(text)
	}
	if r.turn {
		r.send(key{kind: keyText, text: text})
		return
	}
	r.pipe.Write([]byte(text))
}

// hold keeps a text of several lines and returns its placeholder.
func (r *router) hold(text string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.holdLocked(text)
}

func (r *router) holdLocked(text string) string {
	r.pastes = append(r.pastes, text)
	return fmt.Sprintf("[paste #%d: %d lines]", len(r.pastes), strings.Count(text, "\n")+1)
}

var placeholder = regexp.MustCompile(`\[paste #(\d+): \d+ lines\]`)

// expand puts the pasted text back in place of its placeholders. The
// pastes are kept: the line goes to the history with its placeholders.
func (r *router) expand(line string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := placeholder.ReplaceAllStringFunc(line, func(m string) string {
		var n int
		fmt.Sscanf(placeholder.FindStringSubmatch(m)[1], "%d", &n)
		if n >= 1 && n <= len(r.pastes) {
			return r.pastes[n-1]
		}
		return m
	})
	return out
}

// escLen is the length of the escape sequence at the start of b (b[0] is
// ESC): 1 for a lone Esc key, the whole CSI or SS3 sequence otherwise.
func escLen(b []byte) int {
	if len(b) < 2 || b[1] == 0x1b {
		return 1
	}
	switch b[1] {
	case '[':
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				return i + 1
			}
		}
		return len(b)
	case 'O':
		if len(b) >= 3 {
			return 3
		}
		return len(b)
	}
	return 2 // Alt+key
}

// partialSuffix is the length of the longest suffix of b that starts sep.
func partialSuffix(b, sep []byte) int {
	for n := len(sep) - 1; n > 0; n-- {
		if len(b) >= n && bytes.Equal(b[len(b)-n:], sep[:n]) {
			return n
		}
	}
	return 0
}

// bufPipe is an unbounded in-memory pipe: the router never blocks on
// readline, which only reads while it edits a line.
type bufPipe struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    bytes.Buffer
	closed bool
}

func newBufPipe() *bufPipe {
	p := &bufPipe{}
	p.cond = sync.NewCond(&p.mu)
	return p
}

func (p *bufPipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Write(b)
	p.cond.Broadcast()
	return len(b), nil
}

func (p *bufPipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.buf.Len() == 0 && !p.closed {
		p.cond.Wait()
	}
	if p.buf.Len() == 0 {
		return 0, io.EOF
	}
	return p.buf.Read(b)
}

func (p *bufPipe) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.cond.Broadcast()
	return nil
}
