package agent

import (
	"testing"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/toolcall"
)

// The retry's notice names the one declared tool every refused call was
// about, and only that.
func TestRetryTool(t *testing.T) {
	cases := []struct {
		rs   []toolcall.Rejection
		want string
	}{
		{[]toolcall.Rejection{{Tool: "read_file"}}, "read_file"},
		{[]toolcall.Rejection{{Tool: "read_file"}, {Tool: "read_file"}}, "read_file"},
		{[]toolcall.Rejection{{Tool: "read_file"}, {Tool: "bash"}}, ""},
		{[]toolcall.Rejection{{Name: "WebSearch"}}, ""},
		{[]toolcall.Rejection{{Tool: "read_file"}, {Name: "WebSearch"}}, ""},
		// A cut call does not count: it is not what the retry is for.
		{[]toolcall.Rejection{{Tool: "write_file", Truncated: true}, {Tool: "bash"}}, "bash"},
	}
	for _, c := range cases {
		if got := retryTool(c.rs); got != c.want {
			t.Errorf("retryTool(%+v) = %q, want %q", c.rs, got, c.want)
		}
	}
}

func TestRetryMaxTokens(t *testing.T) {
	cases := []struct {
		usage     *ai.GenerationUsage
		maxTokens int
		want      int
	}{
		{&ai.GenerationUsage{OutputTokens: 30}, 4096, 124},
		{&ai.GenerationUsage{OutputTokens: 30}, 0, 124},
		{&ai.GenerationUsage{OutputTokens: 2100}, 4096, 0}, // past max_tokens: the configured one
		{&ai.GenerationUsage{OutputTokens: 30}, 124, 0},
		{&ai.GenerationUsage{}, 4096, 0}, // no usage reported: no bound
		{nil, 4096, 0},
	}
	for _, c := range cases {
		if got := retryMaxTokens(c.usage, c.maxTokens); got != c.want {
			t.Errorf("retryMaxTokens(%+v, %d) = %d, want %d", c.usage, c.maxTokens, got, c.want)
		}
	}
}
