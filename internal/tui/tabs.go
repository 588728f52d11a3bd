package tui

import "strings"

// The box keeps tabs: the text area turns each into four blanks as it
// takes them (its sanitiser), which would change a pasted Makefile or Go
// code before the model reads it. A tab goes into the box as ␉ (one
// column, shown for what it is) and comes out of it as a tab again.
// Tab itself completes (complete.go), so a ␉ can only come from a paste,
// the history or a default; one typed by hand comes out as a tab too.
const tabMark = "\u2409"

// intoBox is s as the box holds it.
func intoBox(s string) string { return strings.ReplaceAll(s, "\t", tabMark) }

// boxValue is what the box holds, its tabs back.
func (m *model) boxValue() string { return strings.ReplaceAll(m.ta.Value(), tabMark, "\t") }
