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

// Truncate keeps max characters (runes) of an over-long s, its marker
// included: the start and up to TailKeep characters of the end, with a
// one-line marker between them saying how many were cut. maxOutput is the
// most characters a tool returns to the model, so the marker takes its
// room from what is kept.
// The tail never takes more than half of what is kept, so a small max
// still shows mostly the start; a max too small for the marker keeps the
// start alone.
func Truncate(s string, max int) string {
	if max <= 0 {
		return s
	}
	n := utf8.RuneCountInString(s)
	if n <= max {
		return s
	}
	// An output its tool already cut (a shorter maxOutput, or a prefix
	// added after the cut) is cut again around its own marker: cutting
	// it anew would land on that marker and replace the real count with
	// a few characters.
	if loc := truncatedMark.FindStringSubmatchIndex(s); loc != nil {
		if prev, err := strconv.Atoi(s[loc[2]:loc[3]]); err == nil && prev <= maxCutCount {
			return cut([]rune(s[:loc[0]]), prev, []rune(s[loc[1]:]), max)
		}
	}
	runes := []rune(s)
	return cut(runes, -len(runes), runes, max)
}

// markRoom is the length of the marker without its count.
var markRoom = utf8.RuneCountInString(fmt.Sprintf(cutMark, ""))

const cutMark = "\n[... %s characters cut ...]\n"

// cut keeps max characters of a text that is head, missing characters
// already cut, then tail. A text never cut is given as head and tail both,
// with missing -len: head and tail then overlap entirely.
func cut(head []rune, missing int, tail []rune, max int) string {
	total := len(head) + missing + len(tail)
	// The marker's length depends on the count it gives, which depends on
	// the room the marker leaves: the fewest digits that can hold the
	// count make the whole exactly max characters.
	best := ""
	for digits := len(strconv.Itoa(total)); digits > 0; digits-- {
		room := max - markRoom - digits
		if room < 0 {
			break
		}
		keepTail := min(TailKeep, room/2, len(tail))
		keepHead := min(room-keepTail, len(head))
		keepTail = min(room-keepHead, len(tail))
		count := total - keepHead - keepTail
		if len(strconv.Itoa(count)) > digits {
			break
		}
		best = string(head[:keepHead]) + fmt.Sprintf(cutMark, strconv.Itoa(count)) + string(tail[len(tail)-keepTail:])
	}
	if best == "" {
		// No room for the marker: the start alone.
		return string(head[:min(max, len(head))])
	}
	return best
}

// truncatedMark finds the marker Truncate puts in an output it cut.
// The output may hold a marker of its own (a file, a command's text):
// a count no real cut reaches (maxCutCount) is not taken for one, so a
// forged 9223372036854775807 does not overflow the sums into a negative
// count.
const maxCutCount = 1 << 40

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
	if err != nil || cut > maxCutCount {
		return n
	}
	return n - utf8.RuneCountInString(s[loc[0]:loc[1]]) + cut
}
