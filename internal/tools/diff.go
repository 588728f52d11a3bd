package tools

// A small line diff for the reports of write_file and edit_file: Myers'
// O(ND) algorithm on the lines that differ once the common start and end
// are set aside, with a bound on D past which the differing block is shown
// as removed then added (a plain rewrite, still correct, never slow).

import (
	"fmt"
	"strconv"
	"strings"
)

// diffContext is how many unchanged lines frame a change: enough to
// recognise the place, few enough to keep a small model's context free.
const diffContext = 2

// maxDiffCost bounds Myers: past this many differences the block is shown
// as a rewrite. It bounds memory (about maxDiffCost² ints).
const maxDiffCost = 1000

// maxDiffWork bounds the line comparisons of one diff (tens of
// milliseconds), for texts whose repeated lines make every step long.
const maxDiffWork = 20_000_000

// diffOp is one line of a diff. Every op carries both line numbers: for a
// removed line newN is where it would have been in the new text.
type diffOp struct {
	kind       byte // ' ', '-' or '+'
	oldN, newN int  // 1-based
	text       string
	eof        bool // the last line of its text, without a line break
}

// diffStats counts a diff.
type diffStats struct {
	added, removed int
	first          int // new-text line of the first change; 0 = no change
}

func (s *diffStats) count(ops []diffOp) {
	for _, op := range ops {
		switch op.kind {
		case '+':
			s.added++
		case '-':
			s.removed++
		default:
			continue
		}
		if s.first == 0 {
			s.first = max(op.newN, 1)
		}
	}
}

// splitLinesKeep splits s into lines that keep their "\n"; a last line
// without one is kept as is, and "" has no line.
func splitLinesKeep(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// diffLines returns the ops turning a into b, with oldStart and newStart
// the line numbers of a[0] and b[0]. aLast and bLast say whether a and b
// end their texts (for the "no line break at the end" marker).
func diffLines(a, b []string, oldStart, newStart int, aLast, bLast bool) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]diffOp, 0, len(a)+len(b)-pre-suf)
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{kind: ' ', oldN: oldStart + i, newN: newStart + i, text: a[i]})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	script, ok := myers(ma, mb)
	if !ok {
		script = make([]byte, 0, len(ma)+len(mb))
		for range ma {
			script = append(script, '-')
		}
		for range mb {
			script = append(script, '+')
		}
	}
	i, j := pre, pre
	for _, k := range script {
		switch k {
		case ' ':
			ops = append(ops, diffOp{kind: ' ', oldN: oldStart + i, newN: newStart + j, text: a[i]})
			i++
			j++
		case '-':
			ops = append(ops, diffOp{kind: '-', oldN: oldStart + i, newN: newStart + j, text: a[i], eof: aLast && i == len(a)-1 && !strings.HasSuffix(a[i], "\n")})
			i++
		case '+':
			ops = append(ops, diffOp{kind: '+', oldN: oldStart + i, newN: newStart + j, text: b[j], eof: bLast && j == len(b)-1 && !strings.HasSuffix(b[j], "\n")})
			j++
		}
	}
	for ; i < len(a); i, j = i+1, j+1 {
		ops = append(ops, diffOp{kind: ' ', oldN: oldStart + i, newN: newStart + j, text: a[i]})
	}
	return ops
}

// myers returns the shortest edit script from a to b as one byte per line
// (' ' kept, '-' removed, '+' added), or false when it needs more than
// maxDiffCost changes or maxDiffWork comparisons.
func myers(a, b []string) ([]byte, bool) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		s := make([]byte, 0, n+m)
		for range a {
			s = append(s, '-')
		}
		for range b {
			s = append(s, '+')
		}
		return s, true
	}
	limit := min(n+m, maxDiffCost)
	off := limit + 1
	v := make([]int, 2*limit+3)
	// trace[d] is v over k in [-d-1, d+1] as it was before step d.
	var trace [][]int
	work := 0
	for d := 0; d <= limit; d++ {
		snap := make([]int, 2*d+3)
		copy(snap, v[off-d-1:off+d+2])
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			x0 := x
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			if work += x - x0 + 1; work > maxDiffWork {
				return nil, false
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, d), true
			}
		}
	}
	return nil, false
}

func backtrack(trace [][]int, a, b []string, d int) []byte {
	x, y := len(a), len(b)
	script := make([]byte, 0, x+y)
	for ; d > 0; d-- {
		snap := trace[d]
		at := func(k int) int { return snap[k+d+1] }
		k := x - y
		var prevK int
		if k == -d || k != d && at(k-1) < at(k+1) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			script = append(script, ' ')
			x--
			y--
		}
		if x == prevX {
			script = append(script, '+')
			y--
		} else {
			script = append(script, '-')
			x--
		}
	}
	for x > 0 && y > 0 {
		script = append(script, ' ')
		x--
		y--
	}
	for i, j := 0, len(script)-1; i < j; i, j = i+1, j-1 {
		script[i], script[j] = script[j], script[i]
	}
	return script
}

// renderDiff writes chunks of ops as hunks: each change with diffContext
// lines around it, a "…" line between hunks. A line reads `12 +│ text`:
// the number is the line's in the new text, or in the old one for a
// removed line.
func renderDiff(b *strings.Builder, chunks [][]diffOp) {
	hi := 1
	for _, ops := range chunks {
		for _, op := range ops {
			hi = max(hi, op.oldN, op.newN)
		}
	}
	width := len(strconv.Itoa(hi))
	wrote := false
	for _, ops := range chunks {
		// Keep the unchanged lines within diffContext of a change.
		keep := make([]bool, len(ops))
		last := -1 << 30
		for i, op := range ops {
			if op.kind != ' ' {
				last = i
			}
			keep[i] = i-last <= diffContext
		}
		last = 1 << 30
		for i := len(ops) - 1; i >= 0; i-- {
			if ops[i].kind != ' ' {
				last = i
			}
			keep[i] = keep[i] || last-i <= diffContext
		}
		gap := true
		for i, op := range ops {
			if !keep[i] {
				gap = true
				continue
			}
			if gap && wrote {
				b.WriteString("…\n")
			}
			gap, wrote = false, true
			n := op.newN
			if op.kind == '-' {
				n = op.oldN
			}
			text := strings.TrimSuffix(strings.TrimSuffix(op.text, "\n"), "\r")
			fmt.Fprintf(b, "%*d %c│", width, n, op.kind)
			if text != "" {
				b.WriteByte(' ')
				b.WriteString(text)
			}
			b.WriteByte('\n')
			if op.eof && op.kind != ' ' {
				b.WriteString(`\ No newline at end of file` + "\n")
			}
		}
	}
}

// textDiff is the diff of two whole texts (write_file). The common start
// and end are found on bytes and never split into lines, so a small change
// in a large file costs one comparison of the two texts.
func textDiff(oldText, newText string) ([]diffOp, diffStats) {
	p := commonPrefix(oldText, newText)
	p = strings.LastIndexByte(oldText[:p], '\n') + 1 // back to a line start
	s := commonSuffix(oldText[p:], newText[p:])
	// The common end must start a line in both texts.
	startsLine := func(t string, i int) bool { return i == 0 || t[i-1] == '\n' }
	if se := len(oldText) - s; !startsLine(oldText, se) || !startsLine(newText, len(newText)-s) {
		if i := strings.IndexByte(oldText[se:], '\n'); i >= 0 {
			s -= i + 1
		} else {
			s = 0
		}
	}
	oldEnd, newEnd := len(oldText)-s, len(newText)-s
	line := 1 + strings.Count(oldText[:p], "\n")
	var ops []diffOp
	before := lastLines(oldText[:p], diffContext)
	for k, l := range before {
		n := line - len(before) + k
		ops = append(ops, diffOp{kind: ' ', oldN: n, newN: n, text: l})
	}
	a, b := splitLinesKeep(oldText[p:oldEnd]), splitLinesKeep(newText[p:newEnd])
	ops = append(ops, diffLines(a, b, line, line, s == 0, s == 0)...)
	after := splitLinesKeep(oldText[oldEnd:min(len(oldText), oldEnd+firstLinesLen(oldText[oldEnd:], diffContext))])
	for k, l := range after {
		ops = append(ops, diffOp{kind: ' ', oldN: line + len(a) + k, newN: line + len(b) + k, text: l})
	}
	var st diffStats
	st.count(ops)
	return ops, st
}

// firstLinesLen is the length of the first n lines of s.
func firstLinesLen(s string, n int) int {
	p := 0
	for k := 0; k < n && p < len(s); k++ {
		i := strings.IndexByte(s[p:], '\n')
		if i < 0 {
			return len(s)
		}
		p += i + 1
	}
	return p
}

// commonPrefix is the length of the common start of a and b, compared a
// block at a time (string equality is vectorised) then byte by byte.
func commonPrefix(a, b string) int {
	const block = 4096
	n := min(len(a), len(b))
	p := 0
	for p+block <= n && a[p:p+block] == b[p:p+block] {
		p += block
	}
	for p < n && a[p] == b[p] {
		p++
	}
	return p
}

// commonSuffix is the length of the common end of a and b.
func commonSuffix(a, b string) int {
	const block = 4096
	n := min(len(a), len(b))
	s := 0
	for s+block <= n && a[len(a)-s-block:len(a)-s] == b[len(b)-s-block:len(b)-s] {
		s += block
	}
	for s < n && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return s
}

// DiffPreview is a file change as a permission prompt previews it: the
// path, whether it would be created or changed, and the diff's hunks
// (an asked agent's change, which arrives as old and new texts).
func DiffPreview(d Diff) string {
	var b strings.Builder
	if d.Existed {
		b.WriteString(d.Path + ": would be changed\n")
	} else {
		b.WriteString(d.Path + ": would be created\n")
	}
	ops, _ := textDiff(d.Old, d.New)
	renderDiff(&b, [][]diffOp{ops})
	return strings.TrimSuffix(b.String(), "\n")
}
