package webmdbench

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Memory is what one conversion of one page costs in memory.
type Memory struct {
	PeakLive uint64 // highest heap (objects not yet freed) seen during the conversion, above what was there before
	Alloc    uint64 // bytes allocated in all
}

// MeasureMemory runs fn with the collector set to run whenever the heap
// grows by 1%, while another goroutine keeps reading the bytes of heap
// objects (live ones, and dead ones not swept yet). The highest value,
// less what was there before, is the peak: an upper bound of the live
// peak. Below about 1 MB allocated the collector does not run, so for a
// small page it is all fn allocated. (The live heap
// the last collection marked is a lower bound that misses a structure
// built and dropped between two collections: a parse tree.) Run it with
// little else on the heap: the collector paces itself on the whole heap,
// and a big baseline would leave a small conversion with no collection.
func MeasureMemory(fn func()) Memory {
	live := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
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
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for !stop.Load() {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			runtime.Gosched()
		}
		close(done)
	}()
	old := debug.SetGCPercent(1)
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
