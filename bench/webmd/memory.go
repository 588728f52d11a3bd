package webmdbench

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Memory is what one conversion of one page costs in memory.
type Memory struct {
	PeakLive uint64 // highest live heap seen during the conversion, above what was live before
	Alloc    uint64 // bytes allocated in all
}

// MeasureMemory runs fn with the collector set to run whenever the heap
// grows by 5%, while another goroutine keeps reading the live heap the
// last collection marked. The highest value, less what was live before,
// is the peak: within about 5%, as no collection happens in between. Run
// it with little else on the heap: the collector paces itself on the
// whole heap, and a big baseline would leave a small conversion with no
// collection at all.
func MeasureMemory(fn func()) Memory {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func() uint64 {
		metrics.Read(live)
		return live[0].Value.Uint64()
	}
	runtime.GC()
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	peak.Store(base)
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for !stop.Load() {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			runtime.Gosched()
		}
		close(done)
	}()
	old := debug.SetGCPercent(5)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	fn()
	runtime.ReadMemStats(&m1)
	// One last collection while fn, and so what it captured (its
	// result), is still reachable: what a conversion returns is part of
	// its cost.
	runtime.GC()
	runtime.KeepAlive(fn)
	stop.Store(true)
	<-done
	if v := read(); v > peak.Load() {
		peak.Store(v)
	}
	debug.SetGCPercent(old)
	return Memory{PeakLive: peak.Load() - base, Alloc: m1.TotalAlloc - m0.TotalAlloc}
}
