package tui

import "testing"

// The word motions and cuts are readline's: words of letters and digits.
func TestWords(t *testing.T) {
	buf := []rune("cat foo/bar.txt")
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"prevWord at the end", prevWord(buf, len(buf)), 12},
		{"prevWord in a word", prevWord(buf, 10), 8},
		{"prevWord at the start", prevWord(buf, 2), 0},
		{"nextWord", nextWord(buf, 0), 4},
		{"nextWord from a break", nextWord(buf, 7), 8},
		{"nextWord at the last word", nextWord(buf, 13), len(buf)},
		{"wordEnd", wordEnd(buf, 3), 7},
		{"wordEnd in a word", wordEnd(buf, 9), 11},
		{"prevWord é", prevWord([]rune("x élan"), 6), 2},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
}

func TestCommonPrefixAndFold(t *testing.T) {
	if got := commonPrefix([]string{"/compact", "/context", "/config"}); got != "/co" {
		t.Errorf("commonPrefix %q", got)
	}
	if got := commonPrefix([]string{"/model é1", "/model é2"}); got != "/model é" {
		t.Errorf("commonPrefix %q", got)
	}
	if got := commonPrefix([]string{"é", "è"}); got != "" {
		t.Errorf("commonPrefix of two runes sharing a byte: %q", got)
	}
	if got := foldIndex([]rune("Ünïcode ALPHA"), []rune("alp")); got != 8 {
		t.Errorf("foldIndex %d", got)
	}
	if got := completable([]string{"ok:1", "bad\x1b[31m", "sp ace", "bidi\u202e", ""}); len(got) != 1 || got[0] != "ok:1" {
		t.Errorf("completable %q", got)
	}
}
