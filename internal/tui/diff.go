package tui

// Colours of a file change, in the permission zone and under a file tool's
// call: the lines of the diff the file tools write (`12 +│ text`, see
// tools.renderDiff) green when added, red when removed, its header and the
// `…` between hunks cyan. The text is the line mode's printer's, already
// sanitised; with NO_COLOR it is left as it is (the + and - say it).

import (
	"strings"

	"mm/internal/tools"
)

// diffMark is the change a diff line shows: '+', '-', ' ' (context), or 0
// when the line is not one of a diff.
func diffMark(l string) byte {
	l = strings.TrimLeft(l, " ")
	n := 0
	for n < len(l) && l[n] >= '0' && l[n] <= '9' {
		n++
	}
	if n == 0 || n+2 >= len(l) || l[n] != ' ' || !strings.HasPrefix(l[n+2:], "│") {
		return 0
	}
	switch c := l[n+1]; c {
	case '+', '-', ' ':
		return c
	}
	return 0
}

// colorDiff styles the diff lines of text (sanitised, one row per line
// not yet wrapped). The line before the first diff line is its header
// (`main.go: 1 edit applied, +2 -1 lines …`, `a.txt: would be created …`).
func colorDiff(text string, noColor bool) string {
	if noColor || !strings.Contains(text, "│") {
		return text
	}
	lines := strings.Split(text, "\n")
	inDiff := false
	for i, l := range lines {
		var st mdStyle
		switch diffMark(l) {
		case '+':
			st = stAdded
		case '-':
			st = stRemoved
		case ' ':
		default:
			switch t := strings.TrimSpace(l); {
			case inDiff && (t == "…" || strings.HasPrefix(t, `\ No newline`)):
				st = stHunk
			case i+1 < len(lines) && diffMark(lines[i+1]) != 0 && strings.Contains(l, ": "):
				st = stHunk
			default:
				inDiff = false
				continue
			}
		}
		if diffMark(l) != 0 {
			inDiff = true
		}
		if st != 0 {
			lines[i] = st.sgr() + l + "\x1b[0m"
		}
	}
	return strings.Join(lines, "\n")
}

// showsDiff reports whether a call's output under its line is a file
// change (the edit kind: write_file, edit_file, lsp rename).
func showsDiff(v callView) bool { return v.kind == tools.KindEdit }
