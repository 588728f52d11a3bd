package main_test

// Compression that does not shrink the conversation (issue #20): the
// summary is judged against what it replaces, the history kept when it is
// no shorter, and no new summary is asked for before the conversation has
// grown; the 🗜️ report counts before and after the same way.

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// padded is an answer long enough that a summary of it is shorter: a
// summary that is not is refused.
func padded(answer string) string {
	return answer + " " + strings.Repeat("with the details, ", 40)
}

// summaryRequests counts the summary requests the server received.
func summaryRequests(reqs []llmtest.Request) int {
	n := 0
	for i := range reqs {
		if llmtest.IsSummaryRequest(&reqs[i]) {
			n++
		}
	}
	return n
}

// A summary longer than the two short messages it would replace is
// refused: the history stays whole, a warning says so, and the next
// questions ask for no summary until the part to compress has outgrown
// it; then compression runs again (and works).
func TestCompactNoGainNotRepeated(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\ncontext:\n  enabled: true\n  maxMessages: 4\n  keepLastTurns: 1\n")
	long := "LONG SUMMARY " + strings.Repeat("every detail again, ", 80)
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: -1},
		llmtest.Turn{Text: "a1"}, llmtest.Turn{Text: "a2"},
		llmtest.Turn{Text: long}, // the summary before q3
		llmtest.Turn{Text: "a3"}, llmtest.Turn{Text: "a4"}, llmtest.Turn{Text: "a5"},
		llmtest.Turn{Text: "a6 " + strings.Repeat("a long answer, ", 200)},
		llmtest.Turn{Text: "a7"},
		llmtest.Turn{Text: "SHORT SUMMARY: q1 to q6 answered."}, // before q8
		llmtest.Turn{Text: "a8"},
	)
	r := mm(t, dir, srv, noUserConfig(t), "q1\nq2\nq3\nq4\nq5\nq6\nq7\nq8\n/quit\n", "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	if f := srv.Failures(); len(f) > 0 {
		t.Fatal(f)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 10 || summaryRequests(reqs) != 2 || !llmtest.IsSummaryRequest(&reqs[2]) || !llmtest.IsSummaryRequest(&reqs[8]) {
		t.Fatalf("%d requests, %d summaries; want 10: q1, q2, summary, q3…q7, summary, q8", len(reqs), summaryRequests(reqs))
	}
	if want := "compression failed: the summary is no shorter than the 2 messages it would replace (~"; !strings.Contains(r.stdout, want) ||
		!strings.Contains(r.stdout, "the history is unchanged") || strings.Count(r.stdout, "no shorter") != 1 {
		t.Errorf("stdout lacks one %q warning:\n%s", want, r.stdout)
	}
	var got []string
	for _, m := range messagesOf(t, reqs[3])[1:] {
		got = append(got, contentOf(m))
	}
	if strings.Join(got, ",") != "q1,a1,q2,a2,q3" {
		t.Errorf("history after the refused summary: %q", got)
	}
	next := messagesOf(t, reqs[9])
	if len(next) != 6 || !strings.HasPrefix(contentOf(next[2]), "SHORT SUMMARY") || contentOf(next[5]) != "q8" {
		t.Errorf("after the second compression: %v", next)
	}
	if !strings.Contains(r.stdout, "🗜️ compressed the conversation: 15 → 5 messages") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// The 🗜️ report estimates before and after the same way: with a server
// whose count makes tokens large (many bytes a token), the "after" of a
// compression that removes text is below the "before" — it used to count
// the tool schemas at 4 bytes a token and come out larger.
func TestCompactReportSameEstimate(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\ncontext:\n  keepLastTurns: 1\n")
	srv := llmtest.NewWith(t, llmtest.Options{Summaries: true},
		llmtest.Turn{Text: "a1 " + strings.Repeat("a long answer, ", 200), Usage: &llmtest.Usage{PromptTokens: 100, CompletionTokens: 10}},
		llmtest.Turn{Text: "a2", Usage: &llmtest.Usage{PromptTokens: 600, CompletionTokens: 10}})
	r := mm(t, dir, srv, noUserConfig(t), "q1\nq2\n/compact\n/quit\n", "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	m := regexp.MustCompile(`🗜️ compressed the conversation: 5 → 5 messages, ~([0-9.]+k?) → ~([0-9.]+k?) tokens`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no report:\n%s", r.stdout)
	}
	before, after := tokensOf(t, m[1]), tokensOf(t, m[2])
	if before != 600 || after >= before {
		t.Errorf("~%s → ~%s: want the server's 600 before, and less after", m[1], m[2])
	}
}

// tokensOf reads a kTokens number (640, 1.2k).
func tokensOf(t *testing.T, s string) int {
	t.Helper()
	k := strings.HasSuffix(s, "k")
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "k"), 64)
	if err != nil {
		t.Fatal(err)
	}
	if k {
		f *= 1000
	}
	return int(f)
}
