package session

import (
	"testing"
	"time"
)

// One holder at a time (a second open of the lock file, even in the same
// process, is another holder); Release frees the session; Continue goes
// on in the session itself when it is free, in a new one when it is held.
func TestLockAndContinue(t *testing.T) {
	st := &Store{Base: t.TempDir(), Dir: ".mm/sessions"}
	s := New(time.Now(), "m", "p", "/x")
	s.Turns = 3
	l, err := st.Lock(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Lock(s.ID); err == nil {
		t.Fatal("a held session was locked twice")
	}
	next, l2 := st.Continue(s, time.Now(), "m", "p", "/x")
	if next == s || next.ResumedFrom != s.ID || next.Turns != 3 || l2 == nil {
		t.Errorf("continuing a held session: %+v, lock %v", next, l2)
	}
	l2.Release()
	l.Release()
	same, l3 := st.Continue(s, time.Now(), "m", "p", "/x")
	if same != s || l3 == nil {
		t.Errorf("continuing a free session gave %+v", same)
	}
	l3.Release()

	// Read while another mm held it, which wrote it again and ended
	// before the lock was taken: the version read goes on in a new file,
	// the newer one is kept.
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	read, err := st.Load(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Turns++
	s.Updated = s.Updated.Add(time.Second)
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	next, l4 := st.Continue(read, time.Now(), "m", "p", "/x")
	if next.ID == s.ID || next.ResumedFrom != s.ID || l4 == nil {
		t.Errorf("continuing a session written since it was read: %+v", next)
	}
	l4.Release()
	var none *Lock
	none.Release()
}
