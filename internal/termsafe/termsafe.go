// Package termsafe makes text safe to write to a terminal. It is the one
// place where what the model, a tool, a file or a server wrote is made
// inert before mm prints it; every facade and command goes through it.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sanitize makes text safe to write to a terminal: it is the one place
// where what the model, a tool, a file or a server wrote is made inert
// before mm prints it. A terminal interprets control characters, so a
// model steered by a file could otherwise write `touch X #<OSC 52…><CR>
// <ESC>[2K>ls -la`, and the permission prompt would show `ls -la` while
// `touch X` runs (and the clipboard would hold what the model chose).
//
// Every control character except "\n" and "\t" is shown visibly, never
// interpreted: C0 controls in caret notation (ESC is `^[`, CR is `^M`,
// DEL is `^?`), C1 controls (U+0080–U+009F, which some terminals take as
// CSI, OSC…) as `\u009b`, and the Unicode bidirectional controls, which
// reorder what a line shows, as `<U+202E>`. "\r\n" is a line break. Bytes
// that are not UTF-8 are shown as `\xff`. So no OSC, CSI or DCS sequence
// can ever reach the terminal from outside mm.
func Text(s string) string {
	if safe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				// CRLF ends a line like LF.
			case c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f):
				b.WriteByte(c)
			case c == 0x7f:
				b.WriteString("^?")
			default:
				b.WriteByte('^')
				b.WriteByte(c + '@')
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, c)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case BidiControl(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// safe reports whether s has nothing Text would change: printable
// ASCII, "\n", "\t", and UTF-8 that is neither a C1 nor a bidi control.
func safe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return safeUnicode(s[i:])
		}
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

func safeUnicode(s string) bool {
	for i, r := range s {
		switch {
		case r < utf8.RuneSelf:
			c := byte(r)
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return false
			}
		case r == utf8.RuneError:
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return false
			}
		case r <= 0x9f || BidiControl(r):
			return false
		}
	}
	return true
}

// BidiControl reports the characters that change the display order of
// the text around them (the "Trojan Source" characters): a command could
// show one thing and be another.
func BidiControl(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
