//go:build !windows

package main_test

import (
	"fmt"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// A bracketed paste is kept whole: 300 lines, some longer than the
// window is wide, with tabs and an Enter-looking newline inside, reach
// the model as pasted, not sent at the first newline nor cut at the
// box's height.
func TestTUIBracketedPasteKeptWhole(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "got it"})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "pasted line %03d\t%s\n", i, strings.Repeat("x", i%7*40))
	}
	pasted := strings.TrimSuffix(b.String(), "\n")
	// The Enter comes after the paste on the same input: the window reads
	// them in that order.
	s.send("\x1b[200~" + pasted + "\x1b[201~\r")
	s.wait("got it")
	if n := len(srv.ChatRequests()); n != 1 {
		t.Fatalf("the paste's newlines sent %d question(s)", n)
	}
	msgs := requestMessages(t, srv.ChatRequests()[0])
	got, _ := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	if got != pasted {
		t.Errorf("the model read %d bytes, %d lines; pasted %d bytes, 300 lines; first difference at %d",
			len(got), strings.Count(got, "\n")+1, len(pasted), firstDiff(got, pasted))
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
