package main_test

// Sessions with mm -p (issue #12): each run is saved like a line-mode
// turn, and -continue / -resume ID put the saved conversation first.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

func TestOneShotSessions(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "first answer"}, llmtest.Turn{Text: "second answer"})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-p", "first question")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	files := sessionFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("session files after mm -p: %v", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the session file: %v %v", fi, err)
	}
	r = mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "second question")
	if r.code != 0 || r.stdout != "second answer\n" {
		t.Fatalf("-continue -p: exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
	reqs := srv.ChatRequests()
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, "first question") || !strings.Contains(body, "first answer") {
		t.Errorf("the continued request lacks the saved conversation: %s", body)
	}
	// No other mm holds it: it goes on in its own file.
	if n := len(sessionFiles(t, dir)); n != 1 {
		t.Errorf("%d session files, want the one that goes on", n)
	}

	// A latest session of the user's (signed with the user's key) that
	// does not load is refused, nothing is asked.
	bad := filepath.Join(dir, ".mm", "sessions", "29991231-235959-abcdef.json")
	os.WriteFile(bad, []byte(signedByTestUser(t, "{broken\n}\n")), 0o600)
	// A file's time comes from the kernel's coarse clock, which can lag
	// the time the last save wrote into its session by a few ms: date the
	// broken file clearly after it.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(bad, later, later); err != nil {
		t.Fatal(err)
	}
	n := len(srv.ChatRequests())
	r = mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "third")
	if r.code != 2 || !strings.Contains(r.stderr, "[resume failed:") || len(srv.ChatRequests()) != n {
		t.Errorf("a broken latest session: exit %d stderr %s", r.code, r.stderr)
	}
}
