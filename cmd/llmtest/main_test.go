package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is written by run's goroutine and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var baseURL = regexp.MustCompile(`(?m)^AGENT_BASE_URL=(http://127\.0\.0\.1:\d+/v1)$`)

func TestRunServesScriptThenDemoUntilCancelled(t *testing.T) {
	script := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(script, []byte("- text: from the script\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"-addr", "127.0.0.1:0", "-script", script, "-demo"}, &stdout, &stderr)
	}()

	deadline := time.Now().Add(30 * time.Second)
	var url string
	for url == "" {
		if m := baseURL.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no base URL printed; stdout %q stderr %q", stdout.String(), stderr.String())
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !strings.Contains(stdout.String(), "AGENT_PROVIDER=llamacpp AGENT_BASE_URL="+url+" mm -p 'run `ls`'") {
		t.Errorf("hint missing: %q", stdout.String())
	}

	c := &http.Client{Timeout: 30 * time.Second}
	for _, want := range []string{"from the script", "demo model"} {
		resp, err := c.Post(url+"/chat/completions", "application/json",
			strings.NewReader(`{"messages":[{"role":"user","content":"hello"}],"stream":true}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// The text arrives in word pieces; the pieces of want are there.
		for _, w := range strings.Fields(want) {
			if !strings.Contains(string(body), w) {
				t.Errorf("answer lacks %q: %.200s", w, body)
			}
		}
	}
	cancel()
	select {
	case got := <-code:
		if got != 0 {
			t.Errorf("exit code %d", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not stop")
	}
	logs := stderr.String()
	if strings.Count(logs, "POST /v1/chat/completions -> 200") != 2 || !strings.Contains(logs, "demo") {
		t.Errorf("stderr %q", logs)
	}
}

func TestRunRejectsBadScript(t *testing.T) {
	script := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(script, []byte("- fault: explode\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-script", script}, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), "explode") {
		t.Errorf("code %d, stderr %q", code, errOut.String())
	}
}
