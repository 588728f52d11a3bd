package webmdbench

import (
	"strings"
	"sync"
	"testing"
)

var (
	corpusOnce sync.Once
	corpus     []Page
	corpusErr  error
)

func loadCorpus(tb testing.TB) []Page {
	if CorpusDir() == "" {
		tb.Skip(ErrNoCorpus)
	}
	corpusOnce.Do(func() { corpus, corpusErr = Load(CorpusDir()) })
	if corpusErr != nil {
		tb.Fatalf("corpus %s: %v (set MM_HTML_CORPUS)", CorpusDir(), corpusErr)
	}
	return corpus
}

// benchCorpus converts the whole corpus once per iteration and reports
// MB per CPU-second besides Go's MB/s of wall time.
func benchCorpus(b *testing.B, convert func(p *Page)) {
	pages := loadCorpus(b)
	b.SetBytes(TotalBytes(pages))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := CPUTime()
	for i := 0; i < b.N; i++ {
		for j := range pages {
			convert(&pages[j])
		}
	}
	cpu := CPUTime() - cpu0
	b.StopTimer()
	b.ReportMetric(float64(TotalBytes(pages))*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
}

func BenchmarkParseOnly(b *testing.B) { benchCorpus(b, func(p *Page) { ParseOnly(p) }) }
func BenchmarkOurs(b *testing.B)      { benchCorpus(b, func(p *Page) { Ours(p) }) }
func BenchmarkOursFromRaw(b *testing.B) {
	benchCorpus(b, func(p *Page) { OursFromRaw(p) })
}
func BenchmarkHTMLToMarkdown(b *testing.B) { benchCorpus(b, func(p *Page) { Theirs(p) }) }

// TestCorpusConverts: every page converts with both converters, ours to
// valid UTF-8 ending with one newline.
func TestCorpusConverts(t *testing.T) {
	pages := loadCorpus(t)
	if len(pages) < 100 {
		t.Fatalf("%d pages in the corpus", len(pages))
	}
	for i := range pages {
		md := OursFromRaw(&pages[i])
		if md != "" && (!strings.HasSuffix(md, "\n") || strings.HasSuffix(md, "\n\n")) {
			t.Errorf("%s: does not end with a single newline", pages[i].Name)
		}
		if Measure(md).InvalidUTF8 {
			t.Errorf("%s: invalid UTF-8", pages[i].Name)
		}
	}
}

func TestMeasure(t *testing.T) {
	md := strings.Join([]string{
		"[](https://x) ![](i.png) [a](b) \\[\\](x) [`code`](y)",
		"¶ and `¶ in code`",
		"snake\\_case \\_start a\\.b \\- c",
		"\\- line start is fine",
		"- \\- after a list marker too",
		"1. \\# and here",
		"2024\\. at a line start",
		"```go",
		"\\_ in code is not counted ¶ [](x)",
		"```",
		"~~~",
		"x",
		"~~~",
		"| a | b |",
		"| --- | --- |",
		"|---|",
		"We use cookies. Skip to content.",
	}, "\n")
	q := Measure(md)
	want := Quality{EmptyLinks: 1, Pilcrows: 1, NeedlessEsc: 3, Fences: 2, FencesWithLng: 1, GFMTables: 2, Boilerplate: 2, Bytes: len(md)}
	if q != want {
		t.Errorf("Measure = %+v\nwant     %+v", q, want)
	}
	if !Measure("a\xff").InvalidUTF8 {
		t.Error("invalid UTF-8 not seen")
	}
}

func TestSourceHints(t *testing.T) {
	page := `<pre class="language-go">a</pre><div class="highlight-python3"><div class="highlight"><pre>b</pre></div></div>` +
		`<pre><code class="lang-sh">c</code></pre><div class="highlight-default"><pre>d</pre></div><pre>e</pre>`
	pres, hinted := SourceHints([]byte(page))
	if pres != 5 || hinted != 3 {
		t.Errorf("SourceHints = %d, %d; want 5, 3", pres, hinted)
	}
}

func TestMeasureMemory(t *testing.T) {
	var keep [][]byte
	m := MeasureMemory(func() {
		for i := 0; i < 64; i++ {
			keep = append(keep, make([]byte, 64<<10))
		}
	})
	if m.PeakLive < 4<<20 || m.Alloc < 4<<20 {
		t.Errorf("4 MiB kept, measured %+v", m)
	}
	_ = keep
}
