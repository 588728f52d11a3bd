// Command report prints the comparison of mm's converter with
// html-to-markdown and with parsing alone over the corpus: speed in MB per
// CPU-second, memory per page, and quality counts, as Markdown tables.
//
//	cd bench/webmd && go run ./cmd/report [-out DIR] [-pages]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	webmdbench "mm/bench/webmd"
)

func main() {
	out := flag.String("out", "", "write each page's Markdown (ours and theirs) to this directory")
	perPage := flag.Bool("pages", false, "print per-page quality and memory figures")
	minCPU := flag.Duration("cpu", 3*time.Second, "CPU time to spend at least on each speed measurement")
	doSpeed := flag.Bool("speed", true, "measure speed")
	doMem := flag.Bool("mem", true, "measure memory")
	flag.Parse()

	if webmdbench.CorpusDir() == "" {
		fmt.Fprintln(os.Stderr, "report:", webmdbench.ErrNoCorpus)
		os.Exit(2)
	}
	pages, err := webmdbench.Load(webmdbench.CorpusDir())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	total := webmdbench.TotalBytes(pages)
	fmt.Printf("Corpus: %d pages, %.1f MB (%s)\n\n", len(pages), float64(total)/1e6, webmdbench.CorpusDir())

	convs := []conv{
		{"x/net/html parse only (floor)", func(p *webmdbench.Page) { webmdbench.ParseOnly(p) }},
		{"mm webmd (ours)", func(p *webmdbench.Page) { webmdbench.Ours(p) }},
		{"mm webmd, charset decoding included", func(p *webmdbench.Page) { webmdbench.OursFromRaw(p) }},
		{"html-to-markdown v2.5.2", func(p *webmdbench.Page) { webmdbench.Theirs(p) }},
	}
	speed := map[string]float64{}
	if *doSpeed {
		measureSpeed(pages, convs, speed, *minCPU, total)
	}
	quality(pages, *out, *perPage)
	if *doMem {
		memory(convs, *perPage)
	}
}

type conv struct {
	name string
	fn   func(p *webmdbench.Page)
}

func measureSpeed(pages []webmdbench.Page, convs []conv, speed map[string]float64, minCPU time.Duration, total int64) {
	fmt.Println("| converter | MB per CPU-second | MB/s wall |")
	fmt.Println("|---|---:|---:|")
	for _, c := range convs {
		for i := range pages { // warm-up
			c.fn(&pages[i])
		}
		cpu0, wall0, reps := webmdbench.CPUTime(), time.Now(), 0
		for reps == 0 || webmdbench.CPUTime()-cpu0 < minCPU {
			for i := range pages {
				c.fn(&pages[i])
			}
			reps++
		}
		cpu, wall := webmdbench.CPUTime()-cpu0, time.Since(wall0)
		mb := float64(total) * float64(reps) / 1e6
		speed[c.name] = mb / cpu.Seconds()
		fmt.Printf("| %s | %.1f | %.1f |\n", c.name, mb/cpu.Seconds(), mb/wall.Seconds())
	}
	ours, theirs, floor := speed["mm webmd (ours)"], speed["html-to-markdown v2.5.2"], speed["x/net/html parse only (floor)"]
	fmt.Printf("\nOurs: %.1f× html-to-markdown, %.0f%% of parse-only speed.\n\n", ours/theirs, 100*ours/floor)
}

func quality(pages []webmdbench.Page, out string, perPage bool) {
	var qo, qt webmdbench.Quality
	invalidOurs, invalidTheirs, invalidTheirsRaw := 0, 0, 0
	pres, hinted := 0, 0
	if out != "" {
		os.MkdirAll(out, 0o755)
	}
	if perPage {
		fmt.Println("| page | ours bytes | theirs bytes | ours esc | theirs esc | ours boiler | theirs boiler |")
		fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	}
	for i := range pages {
		p := &pages[i]
		mo, mt := webmdbench.OursFromRaw(p), webmdbench.Theirs(p)
		a, b := webmdbench.Measure(mo), webmdbench.Measure(mt)
		if a.InvalidUTF8 {
			invalidOurs++
		}
		if b.InvalidUTF8 {
			invalidTheirs++
		}
		if webmdbench.Measure(webmdbench.TheirsFromRaw(p)).InvalidUTF8 {
			invalidTheirsRaw++
		}
		qo.Add(a)
		qt.Add(b)
		n, h := webmdbench.SourceHints(p.HTML)
		pres += n
		hinted += h
		if out != "" {
			base := strings.TrimSuffix(p.Name, ".html")
			os.WriteFile(filepath.Join(out, base+".ours.md"), []byte(mo), 0o644)
			os.WriteFile(filepath.Join(out, base+".theirs.md"), []byte(mt), 0o644)
		}
		if perPage {
			fmt.Printf("| %s | %d | %d | %d | %d | %d | %d |\n", p.Name, a.Bytes, b.Bytes, a.NeedlessEsc, b.NeedlessEsc, a.Boilerplate, b.Boilerplate)
		}
	}
	fmt.Println("| quality over the corpus | ours | html-to-markdown |")
	fmt.Println("|---|---:|---:|")
	fmt.Printf("| pages with invalid UTF-8 (same decoded input) | %d | %d |\n", invalidOurs, invalidTheirs)
	fmt.Printf("| pages with invalid UTF-8 (bytes as served) | %d | %d |\n", invalidOurs, invalidTheirsRaw)
	fmt.Printf("| empty-text links `[](…)` | %d | %d |\n", qo.EmptyLinks, qt.EmptyLinks)
	fmt.Printf("| `¶` permalinks left | %d | %d |\n", qo.Pilcrows, qt.Pilcrows)
	fmt.Printf("| needless backslash escapes | %d | %d |\n", qo.NeedlessEsc, qt.NeedlessEsc)
	fmt.Printf("| code fences with a language (source: %d of %d `<pre>` have a hint) | %d of %d | %d of %d |\n", hinted, pres, qo.FencesWithLng, qo.Fences, qt.FencesWithLng, qt.Fences)
	fmt.Printf("| GFM tables produced | %d | %d |\n", qo.GFMTables, qt.GFMTables)
	fmt.Printf("| navigation/cookie phrases left in | %d | %d |\n", qo.Boilerplate, qt.Boilerplate)
	fmt.Printf("| Markdown produced | %.1f MB | %.1f MB |\n\n", float64(qo.Bytes)/1e6, float64(qt.Bytes)/1e6)
}

// memory measures each page alone on the heap (see MeasureMemory).
func memory(convs []conv, perPage bool) {
	type ratios struct{ peak, alloc []float64 }
	mem := map[string]*ratios{}
	var sumSize float64
	sumPeak := map[string]float64{}
	dir := webmdbench.CorpusDir()
	entries, err := webmdbench.Manifest(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	memConvs := []conv{convs[0], convs[1], convs[3]}
	for _, e := range entries {
		p, err := e.Load(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		size := float64(len(p.Raw))
		sumSize += size
		for k, c := range memConvs {
			var sink any
			m := webmdbench.MeasureMemory(func() {
				switch k {
				case 0:
					sink = webmdbench.ParseOnly(&p)
				case 1:
					sink = webmdbench.Ours(&p)
				default:
					sink = webmdbench.Theirs(&p)
				}
			})
			_ = sink
			r := mem[c.name]
			if r == nil {
				r = &ratios{}
				mem[c.name] = r
			}
			r.peak = append(r.peak, float64(m.PeakLive)/size)
			r.alloc = append(r.alloc, float64(m.Alloc)/size)
			sumPeak[c.name] += float64(m.PeakLive)
			if perPage {
				fmt.Printf("mem %s %s peak %.1fx alloc %.1fx\n", p.Name, c.name, float64(m.PeakLive)/size, float64(m.Alloc)/size)
			}
		}
	}
	fmt.Println("| memory per page (× page size) | peak heap median | p90 | max | all pages | allocated median | max |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for _, c := range memConvs {
		r := mem[c.name]
		sort.Float64s(r.peak)
		sort.Float64s(r.alloc)
		q := func(s []float64, f float64) float64 { return s[int(f*float64(len(s)-1))] }
		fmt.Printf("| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", c.name, q(r.peak, .5), q(r.peak, .9), q(r.peak, 1), sumPeak[c.name]/sumSize, q(r.alloc, .5), q(r.alloc, 1))
	}
}
