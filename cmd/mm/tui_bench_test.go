//go:build !windows

package main_test

import (
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// BenchmarkTUIFirstFrame measures mm -tui from process start to its first
// frame on the emulated screen: the header on the top row and the input
// box (issue #23's budget: 30 ms). It includes the engine's start (the
// probe of the scripted server), as a person's wait does.
func BenchmarkTUIFirstFrame(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		s := startTUI(b, b.TempDir(), srv, nil)
		for !strings.HasPrefix(s.row(0), "mm · ") || !strings.Contains(s.screen(), "›") {
			if time.Since(start) > 30*time.Second {
				b.Fatalf("no first frame:\n%s", s.screen())
			}
			time.Sleep(200 * time.Microsecond)
		}
		total += time.Since(start)
		s.cmd.Process.Kill()
		<-s.done
		s.tty.Close()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/first-frame")
}
