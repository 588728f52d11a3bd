package agent

import (
	"testing"

	"mm/internal/toolcall"
)

// The retry narrows the tools only to the one declared tool every refused
// call was about.
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
