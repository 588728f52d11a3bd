package tools

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncateShortUnchanged(t *testing.T) {
	for _, tc := range []struct {
		s   string
		max int
	}{
		{"", 10},
		{"hello", 10},
		{"0123456789", 10}, // exactly max
		{"ééééé", 5},       // counted in runes, not bytes
		{strings.Repeat("x", 50), 0},
		{strings.Repeat("x", 50), -1},
	} {
		if got := Truncate(tc.s, tc.max); got != tc.s {
			t.Errorf("Truncate(%q, %d) = %q, want it unchanged", tc.s, tc.max, got)
		}
	}
}

func TestTruncateKeepsStartAndTailKeepOfEnd(t *testing.T) {
	s := "START" + strings.Repeat("x", 19990) + "END!!" // 20000 characters
	got := Truncate(s, 16000)
	want := s[:14000] + "\n[... 4000 characters cut ...]\n" + s[20000-TailKeep:]
	if got != want {
		t.Fatalf("Truncate: got %d bytes starting %q and ending %q; want start, 4000 cut, %d of the end",
			len(got), got[:20], got[len(got)-20:], TailKeep)
	}
	if !strings.HasPrefix(got, "START") || !strings.HasSuffix(got, "END!!") {
		t.Fatal("start or end lost")
	}
}

func TestTruncateSmallMaxGivesTailAtMostHalf(t *testing.T) {
	s := "0123456789abcdefghij"
	for _, tc := range []struct {
		max  int
		want string
	}{
		{10, "01234\n[... 10 characters cut ...]\nfghij"},
		{3, "01\n[... 17 characters cut ...]\nj"},
		{1, "0\n[... 19 characters cut ...]\n"},
	} {
		if got := Truncate(s, tc.max); got != tc.want {
			t.Errorf("Truncate(s, %d) = %q, want %q", tc.max, got, tc.want)
		}
	}
}

func TestTruncateIsRuneSafe(t *testing.T) {
	s := strings.Repeat("é", 100) + strings.Repeat("日", 100)
	got := Truncate(s, 50)
	if !utf8.ValidString(got) {
		t.Fatalf("invalid UTF-8: %q", got)
	}
	want := strings.Repeat("é", 25) + "\n[... 150 characters cut ...]\n" + strings.Repeat("日", 25)
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

var cutMarker = regexp.MustCompile(`\n\[\.\.\. (\d+) characters cut \.\.\.\]\n`)

// The kept characters plus the count in the marker give back the original
// length, for all sizes around the TailKeep threshold.
func TestTruncateMarkerCountMatchesWhatWasCut(t *testing.T) {
	for _, n := range []int{11, 100, 4001, 5000, 30000} {
		for _, max := range []int{1, 2, 10, 3999, 4000, 4001, 16000} {
			if max >= n {
				continue
			}
			s := strings.Repeat("é", n) // n runes, 2n bytes
			got := Truncate(s, max)
			m := cutMarker.FindAllStringSubmatchIndex(got, -1)
			if len(m) != 1 {
				t.Fatalf("n=%d max=%d: want exactly one marker, got %d", n, max, len(m))
			}
			cut, _ := strconv.Atoi(got[m[0][2]:m[0][3]])
			head := utf8.RuneCountInString(got[:m[0][0]])
			tail := utf8.RuneCountInString(got[m[0][1]:])
			if head+tail != max {
				t.Errorf("n=%d max=%d: kept %d+%d characters, want %d", n, max, head, tail, max)
			}
			if head+tail+cut != n {
				t.Errorf("n=%d max=%d: marker says %d cut, kept %d, total %d", n, max, cut, head+tail, n)
			}
			wantTail := min(TailKeep, max/2)
			if tail != wantTail {
				t.Errorf("n=%d max=%d: tail %d characters, want %d", n, max, tail, wantTail)
			}
			if t.Failed() {
				t.Logf("%.60q", got)
				return
			}
		}
	}
}
