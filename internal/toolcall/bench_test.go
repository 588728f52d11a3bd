package toolcall

import (
	"strings"
	"testing"
)

// BenchmarkRecover measures the three kinds of reply: a clean server call
// (the common case with a good model), plain prose (every answer), and a
// badly broken call written as text.
func BenchmarkRecover(b *testing.B) {
	tools := toolsFor(b)
	clean := Input{
		ToolCalls:    []RawCall{{ID: "c1", Name: "edit_file", Arguments: `{"path":"internal/app/server.go","edits":[{"old":"timeout := 30","new":"timeout := 60"}]}`}},
		FinishReason: "tool_calls",
		Tools:        tools,
	}
	prose := Input{
		Content:      strings.Repeat("The handler reads the request, checks the session and writes the answer; errors are logged once. ", 20),
		FinishReason: "stop",
		Tools:        tools,
	}
	broken := Input{
		Content: "I'll fix both files now.\n</think>\n<tool_call>\n{\"name\": \"Write\", \"arguments\": {\"file_path\": \"web/index.html\", content: \"<html lang=\"en\">\n<body class=\"main\">\n" +
			strings.Repeat("  <p class=\"row\">line with 'quotes' and \\d escapes</p>\n", 40) +
			"</body>\n</html>\",}}\n</tool_call>\n<function=Edit>\n<parameter=file_path> web/app.js\n<parameter=old_string>\nlet n = 1;\n<parameter=new_string>\nlet n = 2;\n</function>",
		FinishReason: "stop",
		Tools:        tools,
	}
	for _, bc := range []struct {
		name string
		in   Input
		want int
	}{{"clean", clean, 1}, {"prose", prose, 0}, {"broken", broken, 2}} {
		if got := len(Recover(bc.in).Calls); got != bc.want {
			b.Fatalf("%s: %d calls, want %d", bc.name, got, bc.want)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Recover(bc.in)
			}
		})
	}
}

// BenchmarkCorpus runs Recover over every case of the corpus (all files):
// the time per case, and the figures as metrics — the share of
// call and reject cases recovered or corrected, and the calls that would
// run on reject and negative cases (must be 0).
func BenchmarkCorpus(b *testing.B) {
	cases := loadCorpus(b)
	ins := make([]Input, len(cases))
	for i, c := range cases {
		ins[i] = c.input(b)
	}
	var scored, good, wrong int
	for _, c := range cases {
		o := scoreCase(b, c)
		wrong += o.runs
		if c.Kind != "negative" {
			scored++
			if o.ok {
				good++
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, in := range ins {
			Recover(in)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ins)), "ns/case")
	b.ReportMetric(100*float64(good)/float64(max(scored, 1)), "%recovered")
	b.ReportMetric(float64(wrong), "wrong-runs")
}
