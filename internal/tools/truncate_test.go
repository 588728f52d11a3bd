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
	// The marker is inside the 16000: 27 characters and the count's 4.
	want := s[:13969] + "\n[... 4031 characters cut ...]\n" + s[20000-TailKeep:]
	if got != want {
		t.Fatalf("Truncate: got %d bytes starting %q and ending %q; want start, 4031 cut, %d of the end",
			len(got), got[:20], got[len(got)-20:], TailKeep)
	}
	if !strings.HasPrefix(got, "START") || !strings.HasSuffix(got, "END!!") {
		t.Fatal("start or end lost")
	}
}

// maxOutput is the most characters a tool returns: 300 gives 300, the
// marker included.
func TestTruncateMarkerInsideMax(t *testing.T) {
	got := Truncate(strings.Repeat("a", 1000), 300)
	if n := utf8.RuneCountInString(got); n != 300 || !cutMarker.MatchString(got) {
		t.Fatalf("%d characters: %q", n, got)
	}
}

func TestTruncateSmallMaxGivesTailAtMostHalf(t *testing.T) {
	s := strings.Repeat("0123456789", 10) // 100 characters
	for _, tc := range []struct {
		max  int
		want string
	}{
		// 40 = 29 of marker (2 digits) + 11 kept, 5 of them the tail.
		{40, "012345\n[... 89 characters cut ...]\n56789"},
		{30, "0\n[... 99 characters cut ...]\n"},
		// No room for the marker: the start alone.
		{10, "0123456789"},
		{1, "0"},
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
	want := strings.Repeat("é", 10) + "\n[... 180 characters cut ...]\n" + strings.Repeat("日", 10)
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

var cutMarker = regexp.MustCompile(`\n\[\.\.\. (\d+) characters cut \.\.\.\]\n`)

// The kept characters plus the count in the marker give back the original
// length, for all sizes around the TailKeep threshold, and the whole is
// max characters.
func TestTruncateMarkerCountMatchesWhatWasCut(t *testing.T) {
	for _, n := range []int{11, 100, 4001, 5000, 30000, 123456} {
		for _, max := range []int{1, 2, 10, 29, 30, 31, 3999, 4000, 4001, 16000} {
			if max >= n {
				continue
			}
			s := strings.Repeat("é", n) // n runes, 2n bytes
			got := Truncate(s, max)
			if c := utf8.RuneCountInString(got); c != max {
				t.Errorf("n=%d max=%d: %d characters", n, max, c)
			}
			m := cutMarker.FindAllStringSubmatchIndex(got, -1)
			if len(m) == 0 && max < 27+len(strconv.Itoa(n)) {
				// No room for the marker and its count: the start alone.
				if got != string([]rune(s)[:max]) {
					t.Errorf("n=%d max=%d: %q", n, max, got)
				}
				continue
			}
			if len(m) != 1 {
				t.Fatalf("n=%d max=%d: want exactly one marker, got %d", n, max, len(m))
			}
			cut, _ := strconv.Atoi(got[m[0][2]:m[0][3]])
			head := utf8.RuneCountInString(got[:m[0][0]])
			tail := utf8.RuneCountInString(got[m[0][1]:])
			if head+tail+cut != n {
				t.Errorf("n=%d max=%d: marker says %d cut, kept %d, total %d", n, max, cut, head+tail, n)
			}
			if wantTail := min(TailKeep, (head+tail)/2); tail != wantTail {
				t.Errorf("n=%d max=%d: tail %d characters, want %d", n, max, tail, wantTail)
			}
			if t.Failed() {
				t.Logf("%.60q", got)
				return
			}
		}
	}
}

// An output already cut (by its tool, then given a prefix) is cut again
// around its marker, which then counts both cuts.
func TestTruncateRecutKeepsTheCount(t *testing.T) {
	s := strings.Repeat("h", 5000) + strings.Repeat("t", 5000)
	once := Truncate(s, 1000)
	twice := Truncate("[error: x failed] "+once, 1000)
	if c := utf8.RuneCountInString(twice); c != 1000 {
		t.Fatalf("%d characters", c)
	}
	if got := UntruncatedLen(twice); got != 10000+len("[error: x failed] ") {
		t.Errorf("UntruncatedLen %d", got)
	}
	if !strings.HasPrefix(twice, "[error: x failed] hhh") || !strings.HasSuffix(twice, "ttt") || len(cutMarker.FindAllString(twice, -1)) != 1 {
		t.Errorf("%.80q", twice)
	}
	// Not over max: left as it is.
	if got := Truncate(once, 1000); got != once {
		t.Error("an output cut to max was cut again")
	}
}
