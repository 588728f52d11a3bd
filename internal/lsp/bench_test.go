//go:build !windows

package lsp

// Timings per real server: start → initialize, the first definition on a
// cold server, warm definition and references (median of 20), and what the
// tool adds on top of the server's own answer. Figures go to docs/lsp.md.
//
//	go test -run '^$' -bench . -benchtime 3x ./internal/lsp/

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"mm/internal/config"
)

type benchServer struct {
	name    string
	server  config.LSPServer
	files   map[string]string
	path    string // the file asked about
	symbol  string // a symbol defined in another file
	command string // what must be on the PATH
}

var benchServers = []benchServer{
	{name: "gopls", server: goplsServer, files: GoProject, path: "main.go", symbol: "g.Greet", command: "gopls"},
	{name: "typescript", server: tsServer, files: TSProject, path: "src/main.ts", symbol: "g.greet", command: "typescript-language-server"},
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkStartInitialize is the time from starting the process to the
// end of the initialize handshake.
func BenchmarkStartInitialize(b *testing.B) {
	for _, bs := range benchServers {
		b.Run(bs.name, func(b *testing.B) {
			requireServer(b, bs.command)
			dir := b.TempDir()
			writeFiles(b, dir, bs.files)
			for b.Loop() {
				m, _ := New([]config.LSPServer{bs.server}, Options{Root: dir})
				if err := m.Start(context.Background(), bs.path); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				m.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkDefinitionCold is the first definition of a session: start,
// initialize, the project loaded, the answer.
func BenchmarkDefinitionCold(b *testing.B) {
	for _, bs := range benchServers {
		b.Run(bs.name, func(b *testing.B) {
			requireServer(b, bs.command)
			dir := b.TempDir()
			writeFiles(b, dir, bs.files)
			for b.Loop() {
				m, _ := New([]config.LSPServer{bs.server}, Options{Root: dir})
				out := m.Run(context.Background(), Request{Action: "definition", Path: bs.path, Symbol: bs.symbol})
				b.StopTimer()
				if out == "" || out[0] == '[' {
					b.Fatal(out)
				}
				m.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkWarm measures, on a warm server, 20 definitions and 20
// references through the tool and 20 bare definition requests (the
// server's own time), and reports the medians and the tool's overhead:
// the tool's median minus the bare request's.
func BenchmarkWarm(b *testing.B) {
	for _, bs := range benchServers {
		b.Run(bs.name, func(b *testing.B) {
			requireServer(b, bs.command)
			dir := b.TempDir()
			writeFiles(b, dir, bs.files)
			m, _ := New([]config.LSPServer{bs.server}, Options{Root: dir})
			defer m.Close()
			ctx := context.Background()
			def := Request{Action: "definition", Path: bs.path, Symbol: bs.symbol}
			refs := Request{Action: "references", Path: bs.path, Symbol: bs.symbol}
			if out := m.Run(ctx, def); out == "" || out[0] == '[' {
				b.Fatal(out)
			}
			m.Run(ctx, refs)
			// The position the tool settles on, for the bare requests.
			s := m.serverFor(bs.path)
			abs := dir + "/" + bs.path
			d := s.p.docs[abs]
			c := &call{m: m, s: s, p: s.p, req: def, abs: abs, shown: bs.path, doc: d, text: splitLines(d.text), qual: qualifier(bs.symbol)}
			c.req.Symbol = cleanSymbol(bs.symbol)
			positions, failure := c.targets()
			if failure != "" {
				b.Fatal(failure)
			}
			var defs, refsT, bare []time.Duration
			for b.Loop() {
				for range 20 {
					t0 := time.Now()
					m.Run(ctx, def)
					defs = append(defs, time.Since(t0))
					t0 = time.Now()
					m.Run(ctx, refs)
					refsT = append(refsT, time.Since(t0))
					t0 = time.Now()
					s.mu.Lock()
					err := s.p.call(ctx, "textDocument/definition", c.params(positions[0]), nil)
					s.mu.Unlock()
					bare = append(bare, time.Since(t0))
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(ms(median(defs)), "def-ms")
			b.ReportMetric(ms(median(refsT)), "refs-ms")
			b.ReportMetric(ms(median(bare)), "bare-def-ms")
			b.ReportMetric(ms(median(defs)-median(bare)), "overhead-ms")
		})
	}
}

// BenchmarkDiagnosticsAfterChange is a diagnostics call right after the
// file changed on disk: sent, the server's publication awaited, and the
// quiet period after it.
func BenchmarkDiagnosticsAfterChange(b *testing.B) {
	for _, bs := range benchServers {
		b.Run(bs.name, func(b *testing.B) {
			requireServer(b, bs.command)
			dir := b.TempDir()
			writeFiles(b, dir, bs.files)
			m, _ := New([]config.LSPServer{bs.server}, Options{Root: dir})
			defer m.Close()
			ctx := context.Background()
			req := Request{Action: "diagnostics", Path: bs.path}
			m.Run(ctx, req)
			broken := bs.files[bs.path] + "\nvar broken int = \"x\"\n"
			var times []time.Duration
			i := 0
			for b.Loop() {
				content := bs.files[bs.path]
				if i%2 == 0 {
					content = broken
				}
				i++
				writeFiles(b, dir, map[string]string{bs.path: content})
				t0 := time.Now()
				out := m.Run(ctx, req)
				times = append(times, time.Since(t0))
				if (i%2 == 1) != strings.Contains(out, "diagnostic(s)") {
					b.Fatalf("change %d: %s", i, out)
				}
			}
			b.ReportMetric(ms(median(times)), "median-ms")
		})
	}
}
