package toolcall

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles a pattern on first use. Recover's patterns would
// otherwise be compiled when mm starts, even for `mm --version` (about a
// millisecond, a fifth of mm's start-up).
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
