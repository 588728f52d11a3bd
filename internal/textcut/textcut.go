// Package textcut cuts text on character boundaries: mm reads the two ends
// of huge outputs, the head of skill files and the start of error bodies,
// and a cut in the middle of a UTF-8 sequence would show as garbage (or
// make a JSON request invalid).
package textcut

import "unicode/utf8"

// TrimPartialEnd drops an incomplete UTF-8 sequence at the end of b.
func TrimPartialEnd(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

// TrimPartialStart drops the continuation bytes of a character cut at the
// start of b.
func TrimPartialStart(b []byte) []byte {
	for i := 0; i < len(b) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}

// Prefix is s cut to at most n bytes, on a character boundary.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// FirstRunes is the first n characters of s.
func FirstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// LastRunes is the last n characters of s.
func LastRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	for i := len(s); i > 0; {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		n--
		if n == 0 {
			return s[i:]
		}
	}
	return s
}
