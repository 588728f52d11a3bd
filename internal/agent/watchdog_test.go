package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// What a server sends to look alive is not a token: keep-alives and empty
// chunks never feed the watchdog, and progress only restarts the first-token
// wait when it moves forward (the first data events of a stream here are
// two progress reports and the role chunk). The timeouts are short; every check is on
// the message, and a slow machine can only make a stop come later, never
// make a passing run fail.
func TestWatchdogIgnoresPings(t *testing.T) {
	for _, tc := range []struct {
		name string
		turn llmtest.Turn
		want string
	}{
		{"pings before the first token", llmtest.Turn{Text: "never", Fault: llmtest.FaultPingOnly, ChunkDelay: 20 * time.Millisecond},
			"[error: no first token from the server after 600ms]"},
		{"pings and empty chunks after the first token", llmtest.Turn{Text: "a b c", Fault: llmtest.FaultPingMidStream, FaultAfter: 4, ChunkDelay: 20 * time.Millisecond},
			"[error: connection hang detected after 300ms]"},
		{"progress that does not move", llmtest.Turn{Progress: repeat(7, 200), ChunkDelay: 20 * time.Millisecond, Text: "late"},
			"[error: no first token from the server after 600ms]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSetup(t, func(o *Options) { o.Watchdog = 300 * time.Millisecond; o.FirstToken = 600 * time.Millisecond }, tc.turn)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ui := &recUI{}
			_, err := s.agent.Ask(ctx, "hi", ui)
			var stop *StopError
			if !errors.As(err, &stop) || err.Error() != tc.want {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(ui.text.String(), "never") || strings.Contains(ui.text.String(), "late") {
				t.Errorf("text %q", ui.text.String())
			}
		})
	}
}

func repeat(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// The text streamed before a stop is kept in the history.
func TestPartialTextKeptAfterStop(t *testing.T) {
	s := newSetup(t, func(o *Options) { o.Watchdog = 300 * time.Millisecond; o.FirstToken = 600 * time.Millisecond },
		llmtest.Turn{Text: "first words here", Fault: llmtest.FaultHangMidStream, FaultAfter: 5}, llmtest.Turn{Text: "next"})
	if _, err := s.agent.Ask(context.Background(), "hi", &recUI{}); err == nil {
		t.Fatal("no stop")
	}
	h := s.agent.History()
	last := h[len(h)-1].Text()
	if !strings.HasPrefix(last, "first words\n[interrupted: error: connection hang detected after 300ms]") {
		t.Errorf("history ends with %q", last)
	}
}
