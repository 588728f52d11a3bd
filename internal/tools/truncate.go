package tools

import (
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// TailKeep is how many characters of the end of an over-long output are kept:
// the end of a build log or a test run is where the error usually is.
const TailKeep = 2000

// Truncate keeps max characters (runes) of an over-long s: the start and up
// to TailKeep characters of the end, with a one-line marker between them
// saying how many were cut.
// The tail never takes more than half of max, so a small max still shows
// mostly the start.
func Truncate(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	// An output its tool already cut to max (the marker is over max) is
	// not cut again: the second cut would land on the first marker and
	// replace the real count with a few characters.
	if loc := truncatedMark.FindStringIndex(s); loc != nil && utf8.RuneCountInString(s)-utf8.RuneCountInString(s[loc[0]:loc[1]]) <= max {
		return s
	}
	runes := []rune(s)
	tail := TailKeep
	if tail > max/2 {
		tail = max / 2
	}
	head := max - tail
	cut := len(runes) - head - tail
	return fmt.Sprintf("%s\n[... %d characters cut ...]\n%s", string(runes[:head]), cut, string(runes[len(runes)-tail:]))
}

// truncatedMark finds the marker Truncate puts in an output it cut.
var truncatedMark = regexp.MustCompile(`\n\[\.\.\. (\d+) characters cut \.\.\.\]\n`)

// UntruncatedLen is how many characters s had before Truncate cut it (its
// own length when it was not cut): what an ask_agent call's answer was,
// from the output the model read.
func UntruncatedLen(s string) int {
	n := utf8.RuneCountInString(s)
	loc := truncatedMark.FindStringSubmatchIndex(s)
	if loc == nil {
		return n
	}
	cut, err := strconv.Atoi(s[loc[2]:loc[3]])
	if err != nil {
		return n
	}
	return n - utf8.RuneCountInString(s[loc[0]:loc[1]]) + cut
}
