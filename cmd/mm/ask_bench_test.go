package main_test

// The figures of docs/benchmarks.md for issue #14: the time from an
// ask_agent call to the asked agent's first model request, with a cold
// child (started by the call) and a warm one (reused), and the RSS of a
// live child.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

func BenchmarkAskAgent(b *testing.B) {
	dir := b.TempDir()
	child := llmtest.New(b)
	parent := llmtest.New(b)
	parentCfg, _ := askPair(b, dir, child, "", "yolo: true")
	var cold, warm time.Duration
	var rss float64
	for i := 0; i < b.N; i++ {
		child.Push(
			llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"grep VmRSS /proc/$PPID/status > rss.txt"}`}}},
			llmtest.Turn{Text: "one"},
			llmtest.Turn{Text: "two"},
		)
		parent.Push(
			askCall(`{"agent":"reviewer","prompt":"first"}`),
			askCall(`{"agent":"reviewer","prompt":"second"}`),
			llmtest.Turn{Text: "done"},
		)
		p0, c0 := len(parent.ChatRequests()), len(child.ChatRequests())
		cmd := mmCommand(b, dir, parent, "-c", parentCfg, "-p", "go")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		preqs, creqs := parent.ChatRequests()[p0:], child.ChatRequests()[c0:]
		if len(preqs) != 3 || len(creqs) != 3 {
			b.Fatalf("%d parent, %d child requests", len(preqs), len(creqs))
		}
		cold += creqs[0].At.Sub(preqs[0].Done)
		warm += creqs[2].At.Sub(preqs[1].Done)
		data, err := os.ReadFile(filepath.Join(dir, "rss.txt"))
		f := strings.Fields(string(data))
		if err != nil || len(f) < 2 {
			b.Fatalf("rss.txt: %q %v", data, err)
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		rss += kb / 1024
	}
	n := float64(b.N)
	b.ReportMetric(float64(cold.Microseconds())/1000/n, "ms-cold")
	b.ReportMetric(float64(warm.Microseconds())/1000/n, "ms-warm")
	b.ReportMetric(rss/n, "child-RSS-MB")
}
