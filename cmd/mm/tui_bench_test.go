//go:build !windows

package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"mm/internal/llmtest"
)

// BenchmarkTUIFirstFrame measures mm -tui from process start to its first
// frame on the emulated screen: the header on the top row and the input
// box (issue #23's budget: 30 ms). The window is drawn while the engine
// starts (its header names the model once the server has): ms/opening is
// until the whole opening is there, the exact header and the banner's
// last line, which includes the engine's start (the probe of the scripted
// server).
func BenchmarkTUIFirstFrame(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var total, opening time.Duration
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
		for s.row(0) != "mm · tiny.gguf @ llamacpp" || !strings.Contains(s.screen(), "Ctrl-D quits") {
			if time.Since(start) > 30*time.Second {
				b.Fatalf("no opening:\n%s", s.screen())
			}
			time.Sleep(200 * time.Microsecond)
		}
		opening += time.Since(start)
		s.cmd.Process.Kill()
		<-s.done
		s.tty.Close()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/first-frame")
	b.ReportMetric(float64(opening.Microseconds())/1000/float64(b.N), "ms/opening")
}

// BenchmarkTUIStreamBytes streams an answer of 1,000 words at 200 a
// second (a 5 ms pause between the server's events) into mm -tui and
// reports what mm wrote to the terminal per byte of the answer (issue
// #23's budget: 3), and the CPU time mm used per second of the stream
// (budget: 10% of a core): cpu% counts its whole run (start and exit
// too), stream-cpu% only what its threads used from the question to the
// summary (/proc/<pid>/task/*/schedstat).
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
		start, cpu0 := time.Now(), cpuTime(b, s.cmd.Process.Pid)
		s.send("stream\r")
		s.waitFor("the summary", func(string) bool { return strings.Contains(s.statusRow(), "in / ") })
		elapsed, streamCPU := time.Since(start), cpuTime(b, s.cmd.Process.Pid)-cpu0
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
		b.ReportMetric(100*streamCPU.Seconds()/elapsed.Seconds(), "stream-cpu%")
	}
}

// cpuTime is the CPU time the threads of process pid have used so far,
// from /proc/<pid>/task/*/schedstat (nanoseconds, where /proc/<pid>/stat
// counts in 10 ms ticks).
func cpuTime(b *testing.B, pid int) time.Duration {
	b.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		b.Skipf("no /proc/%d/task/*/schedstat: %v", pid, err)
	}
	var total time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended meanwhile
		}
		var ns int64
		fmt.Sscan(string(data), &ns)
		total += time.Duration(ns)
	}
	return total
}

// BenchmarkTUIIdleCPU is an idle window: mm -tui started, a few letters
// typed in the box (a cursor that blinks would start then), then left
// alone for 10 s. It reports mm's CPU over those 10 s (issue #23's budget:
// ≈ 0, nothing ticks when nothing moves).
func BenchmarkTUIIdleCPU(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	const idle = 10 * time.Second
	var sum float64
	for b.Loop() {
		s := startTUI(b, b.TempDir(), srv, nil)
		s.wait("Ctrl-D quits")
		s.send("hello")
		s.wait("› hello")
		time.Sleep(time.Second) // what the keys started settles
		before := cpuTime(b, s.cmd.Process.Pid)
		time.Sleep(idle)
		used := cpuTime(b, s.cmd.Process.Pid) - before
		sum += 100 * used.Seconds() / idle.Seconds()
		s.send("\x15\x04") // Ctrl-U empties the box, Ctrl-D quits
		s.exit()
	}
	b.ReportMetric(sum/float64(b.N), "idle-cpu%")
}

// BenchmarkTUIPeakRSS is the same session in the window and in the line
// mode (one question, the 1,000-word answer of BenchmarkTUIStreamBytes
// streamed at full speed, then Ctrl-D): each one's peak RSS (VmHWM in
// /proc/<pid>/status once the answer's summary is shown, just before
// Ctrl-D), and the difference (issue #23's budget: the window ≤ the line
// mode + 10 MB). Not getrusage's ru_maxrss: Linux counts in it the RSS of
// the process that forked the child (this test binary, which go's vfork
// shares its memory with until exec).
func BenchmarkTUIPeakRSS(b *testing.B) {
	var words []string
	for i := 0; i < 1000; i++ {
		words = append(words, fmt.Sprintf("word%d", i%97))
	}
	text := strings.Join(words, " ")
	var window, line float64
	for b.Loop() {
		srv := llmtest.New(b, llmtest.Turn{Text: text}, llmtest.Turn{Text: text})
		s := startTUI(b, b.TempDir(), srv, nil)
		s.wait("Ctrl-D quits")
		s.send("stream\r")
		s.waitFor("the summary", func(string) bool { return strings.Contains(s.statusRow(), "in / ") })
		window += peakRSS(b, s.cmd.Process.Pid)
		s.send("\x04")
		s.exit()

		cmd := exec.Command(mmBin)
		cmd.Dir = b.TempDir()
		cmd.Env = append(cleanEnv(), "TERM=xterm-256color", "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
		tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
		if err != nil {
			b.Fatal(err)
		}
		var mu sync.Mutex
		var out strings.Builder
		go func() {
			buf := make([]byte, 32*1024)
			for {
				n, err := tty.Read(buf)
				mu.Lock()
				out.Write(buf[:n])
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
		waitOut := func(want string, from int) int {
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				mu.Lock()
				s := out.String()
				mu.Unlock()
				if i := strings.Index(s[from:], want); i >= 0 {
					return from + i + len(want)
				}
			}
			b.Fatalf("the line mode never showed %q", want)
			return 0
		}
		at := waitOut("Ctrl-D quits", 0)
		at = waitOut("› ", at)
		tty.Write([]byte("stream\r"))
		at = waitOut(" in / ", at)
		waitOut("› ", at) // the prompt again: Ctrl-D now quits
		line += peakRSS(b, cmd.Process.Pid)
		tty.Write([]byte("\x04"))
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			b.Fatal("the line mode did not quit on Ctrl-D")
		}
		tty.Close()
	}
	n := float64(b.N)
	b.ReportMetric(window/n, "window-MB")
	b.ReportMetric(line/n, "line-MB")
	b.ReportMetric((window-line)/n, "extra-MB")
}

// peakRSS is VmHWM of process pid, in MB.
func peakRSS(b *testing.B, pid int) float64 {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc/%d/status: %v", pid, err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb float64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb)
			return kb / 1024
		}
	}
	b.Skip("no VmHWM")
	return 0
}
