package session

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"mm/internal/ownfile"
)

// A session is written by one mm at a time. The mm that writes a session
// holds its lock, a lock on the file .<id>.lock beside it that the kernel
// drops when the process ends, however it ends (kill -9 included): so a
// resumed session that no running mm holds goes on in its own file, and
// mm -continue -p in a loop keeps one conversation in one file, while a
// second mm resuming a session in use gets a file of its own.

// ErrInUse is Lock's error when another process holds the session.
var ErrInUse = errors.New("the session is in use by another mm")

// errNoLocks is Lock's error where mm cannot lock files.
var errNoLocks = errors.New("sessions cannot be locked on this system")

// Lock is a session held by this process.
type Lock struct {
	f    *os.File
	path string
}

// Lock takes the session id for this process. It fails when another mm
// holds it (or where mm cannot lock files: then every resumed session
// goes on in a new file, as two mm must never share one).
func (st *Store) Lock(id string) (*Lock, error) {
	if !validID(id) {
		return nil, ErrInUse
	}
	dir, err := st.dir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "."+id+".lock")
	f, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	return &Lock{f: f, path: path}, nil
}

// lockFile opens path and takes an exclusive lock on it without waiting
// (tryLock, per platform). A lock taken on a file its holder removed
// meanwhile (Release) is no lock: it tries again on the new file.
func lockFile(path string) (*os.File, error) {
	for range 10 {
		f, err := ownfile.OpenLock(path)
		if err != nil {
			return nil, err
		}
		if err := tryLock(f); err != nil {
			f.Close()
			return nil, err
		}
		fi, err1 := f.Stat()
		li, err2 := os.Lstat(path)
		if err1 == nil && err2 == nil && os.SameFile(fi, li) {
			return f, nil
		}
		f.Close()
	}
	return nil, ErrInUse
}

// Release gives the session up (nil does nothing). The lock file goes
// first, while still locked: whoever opened it meanwhile finds, once it
// has the lock, that it locked a removed file, and tries again.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
	l.f = nil
}

// Continue is the session a resumed conversation goes on in: s itself,
// locked, when no other mm holds it; else a new session (locked) that
// names s in resumedFrom and keeps its turns and errors. The lock is
// nil when none could be taken.
//
// s was read before the lock was taken: a holder that wrote its file
// again and ended meanwhile left a newer version, which writing s over
// it would lose. Then s, as read, goes on in a new session too.
func (st *Store) Continue(s *Session, now time.Time, model, provider, cwd string) (*Session, *Lock) {
	if l, err := st.Lock(s.ID); err == nil {
		disk, err := st.Load(s.ID)
		if err != nil || (disk.Updated.Equal(s.Updated) && disk.Turns == s.Turns && len(disk.Messages) == len(s.Messages)) {
			return s, l
		}
		l.Release()
	}
	next := New(now, model, provider, cwd)
	next.Turns, next.ResumedFrom, next.Errors = s.Turns, s.ID, s.Errors
	l, _ := st.Lock(next.ID)
	return next, l
}
