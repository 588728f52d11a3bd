package termsafe

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text\n\tindented é 日本", "plain text\n\tindented é 日本"},
		// The attack: what the terminal would show is not what runs.
		{"touch X #\x1b]52;c;ZXZpbA==\x07\r\x1b[2K>ls -la", "touch X #^[]52;c;ZXZpbA==^G^M^[[2K>ls -la"},
		{"a\r\nb\rc", "a\nb^Mc"},
		{"bell\x07 nul\x00 del\x7f", "bell^G nul^@ del^?"},
		{"c1 csi \u009b31m, osc \u009d0;x\u009c", `c1 csi \u009b31m, osc \u009d0;x\u009c`},
		{"rm -rf /tmp/x \u202e; gnp.ls", "rm -rf /tmp/x <U+202E>; gnp.ls"},
		{"\u2066isolate\u2069 \u200fmark", "<U+2066>isolate<U+2069> <U+200F>mark"},
		{"bad \xff\x9b utf8", `bad \xff\x9b utf8`},
		{"", ""},
	}
	for _, c := range cases {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Whatever goes in, nothing a terminal interprets comes out.
func FuzzText(f *testing.F) {
	f.Add("touch X #\x1b]52;c;x\x07\r\x1b[2K>ls")
	f.Add("\u009b\u202e\xff\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		for _, r := range out {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || BidiControl(r) {
				t.Fatalf("Text(%q) = %q keeps %U", s, out, r)
			}
		}
		if strings.ContainsRune(out, '\uFFFD') && !strings.ContainsRune(s, '\uFFFD') {
			t.Fatalf("Text(%q) = %q invents a replacement character", s, out)
		}
	})
}
