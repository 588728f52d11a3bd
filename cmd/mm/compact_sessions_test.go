package main_test

// Compression and sessions together (issue #12): a failed compression is
// in the session's errors, and the session holds the history /compact made.

import (
	"strings"
	"testing"

	"mm/internal/llmtest"
)

func TestCompactionInTheSession(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig+"context:\n  keepLastTurns: 1\n")
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: -1},
		llmtest.Turn{Text: padded("a1")}, llmtest.Turn{Text: "a2"},
		llmtest.Turn{Fault: llmtest.FaultHTTP500, ErrorMessage: "summary exploded"},
		llmtest.Turn{Text: "the task so far: q1 answered"})
	r := mm(t, dir, srv, noUserConfig(t), "q1\nq2\n/compact\n/compact\n/quit\n", "-c", cfg)
	if r.code != 0 || !strings.Contains(r.stdout, "summary exploded") {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	files := sessionFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	s := readSession(t, files[0])
	errs, _ := s["errors"].([]any)
	found := false
	for _, e := range errs {
		m, _ := e.(map[string]any)
		if m["where"] == "compression" && strings.Contains(m["message"].(string), "summary exploded") {
			found = true
		}
	}
	if !found {
		t.Errorf("the failed compression is not in the session's errors: %v", errs)
	}
	// The second /compact worked: the file holds the compressed history.
	msgs, _ := s["messages"].([]any)
	text := ""
	for _, m := range msgs {
		b, _ := m.(map[string]any)
		text += strings.ToLower(strings.Join(strings.Fields(toString(b)), " "))
	}
	if !strings.Contains(text, "the task so far") || strings.Contains(text, "a1") {
		t.Errorf("the session does not hold the compressed history: %v", msgs)
	}
}

func toString(v any) string {
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x + " ")
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return b.String()
}
