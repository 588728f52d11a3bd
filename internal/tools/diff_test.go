package tools

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// checkDiffOps rebuilds both texts from a diff: the kept and removed lines
// must give a, the kept and added lines b, with consecutive numbers.
func checkDiffOps(t *testing.T, a, b []string, ops []diffOp) {
	t.Helper()
	var ga, gb []string
	wantOld, wantNew := 1, 1
	for _, op := range ops {
		if op.kind != '+' {
			if op.oldN != wantOld {
				t.Fatalf("old number %d, want %d", op.oldN, wantOld)
			}
			ga = append(ga, op.text)
			wantOld++
		}
		if op.kind != '-' {
			if op.newN != wantNew {
				t.Fatalf("new number %d, want %d", op.newN, wantNew)
			}
			gb = append(gb, op.text)
			wantNew++
		}
	}
	if strings.Join(ga, "") != strings.Join(a, "") || strings.Join(gb, "") != strings.Join(b, "") {
		t.Fatalf("ops do not rebuild the texts:\na %q\nb %q\nops %+v", a, b, ops)
	}
}

// lcsLen is the length of the longest common subsequence, by dynamic
// programming: the reference Myers must reach.
func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func TestDiffLinesIsMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 2000; iter++ {
		gen := func() []string {
			n := r.IntN(12)
			s := make([]string, n)
			for i := range s {
				s[i] = string(rune('a'+r.IntN(4))) + "\n"
			}
			return s
		}
		a, b := gen(), gen()
		ops := diffLines(a, b, 1, 1, true, true)
		checkDiffOps(t, a, b, ops)
		kept := 0
		for _, op := range ops {
			if op.kind == ' ' {
				kept++
			}
		}
		if want := lcsLen(a, b); kept != want {
			t.Fatalf("diff of %q and %q keeps %d lines, the longest common subsequence has %d", a, b, kept, want)
		}
	}
}

func TestDiffLinesFallsBackOnHugeDifferences(t *testing.T) {
	// Past maxDiffCost the block is a plain rewrite: still correct.
	var a, b []string
	for i := 0; i < 3*maxDiffCost; i++ {
		a = append(a, "a"+strings.Repeat("x", i%7)+"\n")
		b = append(b, "b"+strings.Repeat("y", i%5)+"\n")
	}
	ops := diffLines(a, b, 1, 1, true, true)
	checkDiffOps(t, a, b, ops)
}

func TestRenderDiff(t *testing.T) {
	a := splitLinesKeep("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n")
	b := splitLinesKeep("1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13")
	ops := diffLines(a, b, 1, 1, true, true)
	var sb strings.Builder
	renderDiff(&sb, [][]diffOp{ops})
	want := " 1  │ 1\n 2 -│ 2\n 2 +│ TWO\n 3  │ 3\n 4  │ 4\n…\n11  │ 11\n12  │ 12\n13 +│ 13\n\\ No newline at end of file\n"
	if sb.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", sb.String(), want)
	}
}

func TestLastLines(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want []string
	}{
		{"", 2, nil},
		{"a\n", 2, []string{"a\n"}},
		{"a\nb\nc\n", 2, []string{"b\n", "c\n"}},
		{"\n\n\n", 2, []string{"\n", "\n"}},
	} {
		got := lastLines(tc.s, tc.n)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("lastLines(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestTextDiffRandom(t *testing.T) {
	// Whatever the common start and end, the ops rebuild both texts.
	r := rand.New(rand.NewPCG(3, 4))
	gen := func() string {
		var b strings.Builder
		for i := r.IntN(10); i > 0; i-- {
			b.WriteString([]string{"a", "b", "ab", "\n", "\n", "x\n"}[r.IntN(6)])
		}
		return b.String()
	}
	for iter := 0; iter < 5000; iter++ {
		a, b := gen(), gen()
		ops, st := textDiff(a, b)
		var ga, gb strings.Builder
		for _, op := range ops {
			if op.kind != '+' {
				ga.WriteString(op.text)
			}
			if op.kind != '-' {
				gb.WriteString(op.text)
			}
		}
		// The ops cover a window: it must sit in both texts at the same
		// line, with the same text around it.
		wa, wb := ga.String(), gb.String()
		ia, ib := strings.Index(a, wa), strings.Index(b, wb)
		if ia < 0 || ib < 0 || a[:ia] != b[:ib] || a[ia+len(wa):] != b[ib+len(wb):] {
			t.Fatalf("textDiff(%q, %q): ops give %q / %q", a, b, wa, wb)
		}
		if (a == b) != (st.added == 0 && st.removed == 0) {
			t.Fatalf("textDiff(%q, %q): stats %+v", a, b, st)
		}
		for _, op := range ops {
			if op.kind != ' ' && (op.oldN < 1 || op.newN < 1) {
				t.Fatalf("textDiff(%q, %q): bad numbers %+v", a, b, op)
			}
		}
	}
}
