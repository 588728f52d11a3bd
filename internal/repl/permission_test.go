package repl

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"mm/internal/agent"
	"mm/internal/ui"
)

// keyTest is a REPL with a clock the test moves, waiting at a prompt.
type keyTest struct {
	r      *REPL
	t0     time.Time
	at     time.Duration
	cancel int
}

func newKeyTest() *keyTest {
	k := &keyTest{t0: time.Unix(1000, 0)}
	out, _ := os.Open(os.DevNull)
	k.r = &REPL{p: ui.NewPrinter(io.Discard, io.Discard, false, 20), now: func() time.Time { return k.t0.Add(k.at) }, opts: Options{Out: out}}
	return k
}

// prompt shows a permission prompt at the current time.
func (k *keyTest) prompt() chan agent.Decision {
	w := make(chan agent.Decision, 1)
	k.r.permWait = w
	k.r.permShown = k.r.now()
	return w
}

func (k *keyTest) press(at time.Duration, c rune) {
	k.at = at
	k.r.handleKey(key{kind: keyRune, r: c}, func() { k.cancel++ })
}

func answered(w chan agent.Decision) (agent.Decision, bool) {
	select {
	case d := <-w:
		return d, true
	default:
		return 0, false
	}
}

// A key typed at once after the prompt appeared, or in the flow of typing,
// never answers it: "show me the diff" must not allow bash for the session.
func TestPermissionGuard(t *testing.T) {
	k := newKeyTest()
	w := k.prompt()
	k.press(100*time.Millisecond, 's') // too soon after the prompt
	if d, ok := answered(w); ok {
		t.Fatalf("a key 100 ms after the prompt answered it: %v", d)
	}
	for i, c := range "how me the diff" {
		k.press(time.Duration(200+120*i)*time.Millisecond, c)
	}
	if d, ok := answered(w); ok {
		t.Fatalf("typing answered the prompt: %v", d)
	}
	if got := string(k.r.typed); got != "show me the diff" {
		t.Errorf("type-ahead %q", got)
	}
	// Even after a pause, nothing answers while type-ahead is pending.
	k.press(10*time.Second, 'a')
	if _, ok := answered(w); ok {
		t.Fatal("a key answered over pending type-ahead")
	}
	k.at = 11 * time.Second
	k.r.handleKey(key{kind: keyKill}, func() {})
	k.press(12*time.Second, 'r')
	if d, ok := answered(w); !ok || d != agent.Refuse {
		t.Errorf("after Ctrl-U and a pause, r gave %v %v", d, ok)
	}

	// Keys typed before the prompt appeared never answer it.
	k = newKeyTest()
	k.press(0, 'y')
	k.press(50*time.Millisecond, 'e')
	k.press(100*time.Millisecond, 's')
	k.at = 150 * time.Millisecond
	w = k.prompt()
	k.press(2*time.Second, 'a')
	if _, ok := answered(w); ok {
		t.Fatal("the prompt was answered over what was typed before it")
	}

	// A deliberate key, once the prompt was seen and the keyboard quiet.
	k = newKeyTest()
	w = k.prompt()
	k.press(600*time.Millisecond, 'n')
	if d, ok := answered(w); !ok || d != agent.Never {
		t.Errorf("n after 600 ms: %v %v", d, ok)
	}
	// Ctrl-D at a prompt refuses the call and does not quit.
	k = newKeyTest()
	w = k.prompt()
	k.r.handleKey(key{kind: keyEOF}, func() { k.cancel++ })
	if d, ok := answered(w); !ok || d != agent.Refuse || k.r.quit || k.cancel != 0 {
		t.Errorf("Ctrl-D at the prompt: %v %v quit=%v cancel=%d", d, ok, k.r.quit, k.cancel)
	}
}

// The first Ctrl-C stops the turn; a second one, while it stops, ends mm.
func TestSecondCtrlCExits(t *testing.T) {
	k := newKeyTest()
	code := -1
	k.r.exit = func(c int) { code = c }
	k.r.handleKey(key{kind: keyInterrupt}, func() { k.cancel++ })
	if k.cancel != 1 || code != -1 {
		t.Fatalf("first Ctrl-C: cancel %d, exit %d", k.cancel, code)
	}
	k.r.handleKey(key{kind: keyInterrupt}, func() { k.cancel++ })
	if code != 130 {
		t.Errorf("second Ctrl-C: exit %d, want 130", code)
	}
}

func TestPlainPermissionNeedsAWholeAnswer(t *testing.T) {
	lines := []string{"allow", "sure", "ss", "", " s "}
	out, _ := os.Open(os.DevNull)
	r := &REPL{opts: Options{Out: out}, readLine: func() (string, bool) {
		if len(lines) == 0 {
			return "", false
		}
		l := lines[0]
		lines = lines[1:]
		return l, true
	}}
	if d := r.plainPermission(); d != agent.AllowSession || len(lines) != 0 {
		t.Errorf("got %v with %d lines left; want allow for the session after 4 re-asks", d, len(lines))
	}
	lines = []string{"yes"}
	if d := r.plainPermission(); d != agent.Refuse {
		t.Errorf("the end of input gave %v, want a refusal", d)
	}
	_ = context.Background
}
