package toolcall

import "strings"

// MiniMax-M3's namespace token (]<]minimax[>[) is rule
// "minimax_m3_namespace" of rule_round4b.go, which removes it only where the
// reply begins as M3 markup, so that a file whose content shows the
// markup keeps it.

// readKeyElement is rule "minimax_key_elements": MiniMax-M3's template
// renders each argument of an <invoke name="NAME"> as its own element,
// <KEY>VALUE</KEY> (the to_xml macro: a primitive is its raw text;
// mlx-lm#1416's parser reads the invoke's children that way). Only a flat
// element whose text holds no tag is read; the call's own tags are not
// keys. p is the '<'.
func readKeyElement(s string, p int) (key, val string, next int, ok bool) {
	t, ok := readTag(s, p)
	if !ok || t.close || t.eq != "" || len(t.attrs) > 0 || !isIdentName(t.name) {
		return "", "", 0, false
	}
	switch t.name {
	case "tool_call", "tool_calls", "function", "invoke", "parameter", "function_calls", "arg_key", "arg_value":
		return "", "", 0, false
	}
	if p+1+len(t.name) > len(s) {
		return "", "", 0, false
	}
	orig := s[p+1 : p+1+len(t.name)] // readTag lower-cases the name
	closer := "</" + orig + ">"
	i := strings.Index(s[t.end:], closer)
	if !strings.EqualFold(orig, t.name) || i < 0 || strings.IndexByte(s[t.end:t.end+i], '<') >= 0 {
		return "", "", 0, false
	}
	return orig, s[t.end : t.end+i], t.end + i + len(closer), true
}

// isIdentName reports whether s is a plain argument name.
func isIdentName(s string) bool {
	if s == "" || !(isLetter(s[0]) || s[0] == '_') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) {
			return false
		}
	}
	return true
}
