package tools

import (
	"strings"
	"testing"
)

// UntruncatedLen gives back the length Truncate cut from, for every size
// with room for the marker (a max under its 30 or so characters keeps the
// start alone).
func TestReviewUntruncatedLen(t *testing.T) {
	for _, n := range []int{0, 5, 300, 301, 607, 5000} {
		for _, max := range []int{40, 300, 4000} {
			s := strings.Repeat("é", n)
			if got := UntruncatedLen(Truncate(s, max)); got != n {
				t.Errorf("n=%d max=%d: %d", n, max, got)
			}
		}
	}
}
