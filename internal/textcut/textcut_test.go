package textcut

import (
	"testing"
	"unicode/utf8"
)

func TestCuts(t *testing.T) {
	s := "aé😀b" // 1 + 2 + 4 + 1 bytes
	for n := 0; n <= len(s); n++ {
		if p := Prefix(s, n); !utf8.ValidString(p) || len(p) > n {
			t.Errorf("Prefix(%d) = %q", n, p)
		}
		if e := TrimPartialEnd([]byte(s[:n])); !utf8.Valid(e) {
			t.Errorf("TrimPartialEnd(%d) = %q", n, e)
		}
		if b := TrimPartialStart([]byte(s[n:])); !utf8.Valid(b) {
			t.Errorf("TrimPartialStart(%d) = %q", n, b)
		}
	}
	if got := string(TrimPartialEnd([]byte(s[:4]))); got != "aé" {
		t.Errorf("end cut inside 😀: %q", got)
	}
	if got := string(TrimPartialStart([]byte(s[5:]))); got != "b" {
		t.Errorf("start cut inside 😀: %q", got)
	}
	if FirstRunes(s, 2) != "aé" || FirstRunes(s, 9) != s || LastRunes(s, 2) != "😀b" || LastRunes(s, 9) != s || LastRunes(s, 0) != "" {
		t.Errorf("FirstRunes/LastRunes: %q %q", FirstRunes(s, 2), LastRunes(s, 2))
	}
}
