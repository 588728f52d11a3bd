//go:build unix

package interrupt

import (
	"bytes"
	"context"
	"sync"
	"syscall"
	"testing"
	"time"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// The first signal cancels, the second exits at once with the shell's code.
func TestSecondSignalExits(t *testing.T) {
	codes := make(chan int, 1)
	exit = func(code int) { codes <- code }
	defer func() { exit = nil }()
	var out syncBuf
	ctx, stop := Context(context.Background(), &out)
	defer stop()

	syscall.Kill(syscall.Getpid(), syscall.SIGINT)
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the first SIGINT did not cancel")
	}
	select {
	case c := <-codes:
		t.Fatalf("exited (%d) on the first signal", c)
	default:
	}
	syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	select {
	case c := <-codes:
		if c != 143 {
			t.Errorf("exit code %d, want 143", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second signal did not end mm")
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.b.String() != "[interrupted]\n" {
		t.Errorf("printed %q", out.b.String())
	}
}
