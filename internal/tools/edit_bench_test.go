package tools

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchSource is Go-like, tab-indented source of about size bytes: blocks
// of eight lines, each function unique by its number, the same if and
// return lines in every block (so the tolerant passes meet many
// candidates). It returns the text and the number of the middle block.
func benchSource(size int) (string, int) {
	var b strings.Builder
	b.Grow(size + 200)
	n := 0
	for b.Len() < size {
		fmt.Fprintf(&b, "// f%d computes something for the benchmark.\nfunc f%d(a, b int) int {\n\tif a > b {\n\t\treturn a - b + %d\n\t}\n\treturn b - a\n}\n\n", n, n, n)
		n++
	}
	return b.String(), n / 2
}

// BenchmarkEditFile runs edit_file on a 1 MB and a 10 MB file, one edit in
// the middle found by each matching pass, and one not found (the closest
// region is searched). "write" is the whole call, file written and synced;
// "plan" is the same call in dry_run: matching, re-indenting and the diff.
func BenchmarkEditFile(b *testing.B) {
	for _, size := range []int{1 << 20, 10 << 20} {
		src, mid := benchSource(size)
		cases := []struct {
			pass     string
			old, new string
			want     string
		}{
			{"exact", fmt.Sprintf("\t\treturn a - b + %d\n", mid), fmt.Sprintf("\t\treturn a - b + %d + 1\n", mid), "+1 -1 lines"},
			{"edges", fmt.Sprintf("        return a - b + %d\n", mid), fmt.Sprintf("        return a - b + %d + 1\n", mid), "1 matched ignoring whitespace"},
			{"indentation", fmt.Sprintf("func f%d(a, b int) int {\n    if a > b {\n        return a - b + %d\n    }", mid, mid),
				fmt.Sprintf("func f%d(a, b int) int {\n    if a > b {\n        return a - b + %d + 1\n    }", mid, mid), "1 matched ignoring whitespace"},
			{"not-found", fmt.Sprintf("func f%d(a, b int) int {\n\tif a < b {\n\t\treturn 0\n\t}", mid), "x", "the closest the file comes to it"},
		}
		for _, tc := range cases {
			for _, mode := range []string{"write", "plan"} {
				b.Run(fmt.Sprintf("%dMB/%s/%s", size>>20, tc.pass, mode), func(b *testing.B) {
					dir := b.TempDir()
					path := filepath.Join(dir, "big.go")
					tool := NewEditFile(FileOptions{Dir: dir, MaxOutput: 16000})
					args := editArgsOf("big.go", fileEdit{tc.old, tc.new})
					if mode == "plan" {
						args["dry_run"] = true
					}
					raw, _ := json.Marshal(args)
					if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
						b.Fatal(err)
					}
					b.SetBytes(int64(len(src)))
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						out := tool.Run(b.Context(), raw)
						if !strings.Contains(out, tc.want) {
							b.Fatalf("output: %.300s", out)
						}
						if mode == "write" && tc.pass != "not-found" {
							b.StopTimer()
							if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
								b.Fatal(err)
							}
							b.StartTimer()
						}
					}
				})
			}
		}
	}
}

// BenchmarkWriteFile replaces a 10 MB file by itself with one line
// changed: read, compare, diff, write.
func BenchmarkWriteFile(b *testing.B) {
	src, mid := benchSource(10 << 20)
	changed := strings.Replace(src, fmt.Sprintf("+ %d\n", mid), fmt.Sprintf("+ %d + 1\n", mid), 1)
	dir := b.TempDir()
	path := filepath.Join(dir, "big.go")
	tool := NewWriteFile(FileOptions{Dir: dir, MaxOutput: 16000})
	raw, _ := json.Marshal(map[string]any{"path": "big.go", "content": changed})
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if out := tool.Run(b.Context(), raw); !strings.HasPrefix(out, "big.go: replaced, +1 -1 lines") {
			b.Fatalf("output: %.300s", out)
		}
	}
}
