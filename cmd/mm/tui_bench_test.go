//go:build !windows

package main_test

import (
	"fmt"
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

// BenchmarkTUIStreamBytes streams an answer of 1,000 words at 200 a
// second (a 5 ms pause between the server's events) into mm -tui and
// reports what mm wrote to the terminal per byte of the answer (issue
// #23's budget: 3), and the CPU time mm used per second of the stream
// (budget: 10% of a core).
func BenchmarkTUIStreamBytes(b *testing.B) {
	var words []string
	for i := 0; i < 1000; i++ {
		words = append(words, fmt.Sprintf("word%d", i%97))
	}
	text := strings.Join(words, " ")
	for b.Loop() {
		srv := llmtest.New(b, llmtest.Turn{Text: text, ChunkDelay: 5 * time.Millisecond})
		s := startTUI(b, b.TempDir(), srv, nil)
		s.wait("Ctrl-D quits")
		s.mu.Lock()
		before := s.raw.Len()
		s.mu.Unlock()
		start := time.Now()
		s.send("stream\r")
		s.waitFor("the summary", func(string) bool { return strings.Contains(s.statusRow(), "in / ") })
		elapsed := time.Since(start)
		s.mu.Lock()
		written := s.raw.Len() - before
		s.mu.Unlock()
		s.send("\x04")
		s.exit()
		var cpu time.Duration
		if st := s.cmd.ProcessState; st != nil {
			cpu = st.UserTime() + st.SystemTime()
		}
		b.ReportMetric(float64(written)/float64(len(text)), "written/byte")
		b.ReportMetric(100*cpu.Seconds()/elapsed.Seconds(), "cpu%")
	}
}
