package repl

import (
	"io"
	"strings"
	"testing"
	"time"
)

// readAll drains what the router forwarded to readline so far.
func forwarded(t *testing.T, r *router) string {
	t.Helper()
	r.pipe.Close()
	b, _ := io.ReadAll(r.pipe)
	return string(b)
}

func keys(r *router) []key {
	var out []key
	for {
		select {
		case k := <-r.keys:
			out = append(out, k)
		case <-time.After(20 * time.Millisecond):
			return out
		}
	}
}

func TestPromptBytesGoToReadline(t *testing.T) {
	r := newRouter()
	r.feed([]byte("ls\x1b[Dx\r"))
	if got := forwarded(t, r); got != "ls\x1b[Dx\r" {
		t.Errorf("forwarded %q", got)
	}
}

func TestBracketedPasteBecomesPlaceholder(t *testing.T) {
	r := newRouter()
	// The paste arrives cut in three reads, markers included.
	r.feed([]byte("see: \x1b[20"))
	r.feed([]byte("0~one\rtwo\r"))
	r.feed([]byte("three\x1b[201~"))
	r.feed([]byte("\r"))
	got := forwarded(t, r)
	if got != "see: [paste #1: 3 lines]\r" {
		t.Fatalf("forwarded %q", got)
	}
	if line := r.expand("see: [paste #1: 3 lines]"); line != "see: one\ntwo\nthree" {
		t.Errorf("expanded %q", line)
	}
	// The paste is kept for the session: the line goes to the history
	// with its placeholder, and recalling it (↑) sends the text again.
	if line := r.expand("again: [paste #1: 3 lines]"); line != "again: one\ntwo\nthree" {
		t.Errorf("recalled %q", line)
	}
	// Numbers are never reused: a second paste is #2.
	r2 := r.hold("x\ny")
	if r2 != "[paste #2: 2 lines]" || r.expand(r2) != "x\ny" {
		t.Errorf("second paste %q → %q", r2, r.expand(r2))
	}
}

func TestSingleLinePasteIsTyped(t *testing.T) {
	r := newRouter()
	r.feed([]byte("\x1b[200~hello world\x1b[201~"))
	if got := forwarded(t, r); got != "hello world" {
		t.Errorf("forwarded %q", got)
	}
}

func TestBurstWithoutBracketsIsAPaste(t *testing.T) {
	r := newRouter()
	r.feed([]byte("first line\rsecond line\r"))
	if got := forwarded(t, r); got != "[paste #1: 2 lines]" {
		t.Errorf("forwarded %q", got)
	}
}

func TestTurnKeys(t *testing.T) {
	r := newRouter()
	r.setTurn(true)
	// An arrow key is not Esc; a lone ESC at the end of a read is.
	r.feed([]byte("\x1b[A"))
	r.feed([]byte("ab\x7f\r"))
	r.feed([]byte("\x1b"))
	r.feed([]byte("\x03\x04"))
	var kinds []keyKind
	var runes []string
	for _, k := range keys(r) {
		kinds = append(kinds, k.kind)
		if k.kind == keyRune {
			runes = append(runes, string(k.r))
		}
	}
	want := []keyKind{keyRune, keyRune, keyBackspace, keyEnter, keyEsc, keyInterrupt, keyEOF}
	if len(kinds) != len(want) {
		t.Fatalf("keys %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("keys %v, want %v", kinds, want)
		}
	}
	if strings.Join(runes, "") != "ab" {
		t.Errorf("runes %v", runes)
	}
	if got := forwarded(t, r); got != "" {
		t.Errorf("turn keys reached readline: %q", got)
	}
}

func TestPasteDuringTurnIsText(t *testing.T) {
	r := newRouter()
	r.setTurn(true)
	r.feed([]byte("\x1b[200~a\rb\x1b[201~"))
	ks := keys(r)
	// A paste of several lines is type-ahead as its placeholder, the
	// same as at the prompt: it stays intact until it is sent.
	if len(ks) != 1 || ks[0].kind != keyText || ks[0].text != "[paste #1: 2 lines]" {
		t.Fatalf("keys %+v", ks)
	}
	if got := r.expand(ks[0].text); got != "a\nb" {
		t.Errorf("expanded %q", got)
	}
}
