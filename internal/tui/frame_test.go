package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"mm/internal/agent"
)

// The cached parts of the view (frame.go) are what a view made from
// scratch shows, after each kind of message: streamed pieces, keys, the
// permission zone opening and closing, a resize, a scroll.
func TestFrameCacheMatchesFresh(t *testing.T) {
	m := testModel(t)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	check := func(step string) {
		t.Helper()
		got := m.View().Content
		m.frame = frameCache{}
		m.vp.view = ""
		if want := m.View().Content; got != want {
			t.Errorf("%s: the cached view\n%s\nis not the fresh one\n%s", step, got, want)
		}
	}
	check("start")
	// The clock of the status line, mid-way between two tenths.
	m.running, m.turnStart = true, time.Now().Add(-3020*time.Millisecond)
	m.addBlock(blockLabel, "‣ mm")
	m.Update(statusMsg("Thinking"))
	check("turn")
	for _, w := range []string{"some ", "streamed ", "words\n", "more"} {
		m.ev.post(textMsg(w))
		m.Update(drainMsg{})
		check("token " + w)
	}
	m.Update(flushMsg{})
	check("flush")
	m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	check("a key")
	m.Update(statusMsg("Running bash"))
	check("status")
	reply := make(chan agent.Decision, 1)
	m.ev.post(permMsg{head: "‣ bash ls", keys: "[a] allow once", reply: reply})
	m.Update(drainMsg{})
	check("permission zone")
	m.ev.post(permCancelMsg{reply})
	m.Update(drainMsg{})
	check("zone closed")
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	check("resize")
	for i := 0; i < 40; i++ {
		m.addBlock(blockDim, "line")
	}
	m.Update(flushMsg{})
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	check("page up")
	m.Update(turnDoneMsg{})
	check("turn done")
}

// A streamed piece wakes the program a frame later, with the pieces that
// followed it merged; anything else wakes it at once.
func TestStreamedPiecesWaitAFrame(t *testing.T) {
	woken := make(chan struct{}, 10)
	wake := func(tea.Msg) { woken <- struct{}{} }
	late := &events{wake: wake, pace: time.Hour}
	late.post(textMsg("a"))
	select {
	case <-woken:
		t.Fatal("a streamed piece woke the program at once")
	default:
	}
	now := &events{wake: wake, pace: time.Hour}
	now.post(noticeMsg("n"))
	select {
	case <-woken:
	default:
		t.Fatal("a notice did not wake the program at once")
	}
	soon := &events{wake: wake, pace: time.Millisecond}
	soon.post(textMsg("a"))
	soon.post(textMsg("b"))
	<-woken
	if q := soon.take(); len(q) != 1 || q[0] != textMsg("ab") {
		t.Errorf("queue %v", q)
	}
}
