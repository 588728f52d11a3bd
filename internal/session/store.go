package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"mm/internal/atomicfile"
	"mm/internal/ownfile"
)

// MaxFile is the largest session file mm loads: far above any history a
// local model's window holds, low enough that a planted file cannot make
// mm read gigabytes.
const MaxFile = 64 << 20

// Store is the sessions directory of a project.
type Store struct {
	// Base is where a relative Dir is resolved (the project root, or the
	// ACP session's cwd); Dir is sessions.dir.
	Base, Dir string
	// Key signs what Save writes and checks what is loaded; nil means
	// the user's own (UserKey).
	Key *Key
}

// key is the store's key, or why there is none.
func (st *Store) key() (*Key, error) {
	if st.Key != nil {
		return st.Key, nil
	}
	return UserKey()
}

// Path is the directory as shown to the user.
func (st *Store) Path() string {
	if filepath.IsAbs(st.Dir) {
		return filepath.Clean(st.Dir)
	}
	return filepath.Join(st.Base, st.Dir)
}

// dir makes sure the directory exists, without following a symbolic link
// below Base (ownfile.Dir).
func (st *Store) dir() (string, error) {
	d, err := ownfile.Dir(st.Base, st.Dir)
	if err != nil {
		return "", fmt.Errorf("sessions: cannot use %s: %w", st.Path(), err)
	}
	return d, nil
}

// Save writes s to <dir>/<id>.json, atomically: a reader, or a kill, sees
// the last version or the one before, never half of one. The first write
// of a session creates its file exclusively (0600): an id another mm has
// taken is never written over. An existing file that is a symbolic link,
// or not a regular file, is refused.
func (st *Store) Save(s *Session) error {
	if !validID(s.ID) {
		return fmt.Errorf("sessions: invalid id %q", s.ID)
	}
	dir, err := st.dir()
	if err != nil {
		return err
	}
	s.Version = Version
	data, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	data = append(data, '\n')
	// Without a usable key the conversation is still kept, unsigned (the
	// warning at start said so: KeyWarning); no mm resumes it.
	if key, err := st.key(); err == nil {
		data = key.Sign(data)
	}
	path := filepath.Join(dir, s.ID+".json")
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createNew(dir, path, data)
	case err != nil:
		return fmt.Errorf("sessions: %w", err)
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("sessions: %s is a symbolic link — mm does not follow links for its own files", path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("sessions: %s is not a regular file", path)
	}
	if err := atomicfile.Write(path, string(data), fi); err != nil {
		return fmt.Errorf("sessions: cannot write %s: %w", path, err)
	}
	return nil
}

// createNew writes a session's first version: a temporary file of its
// own (0600, created exclusively), synced, then linked to path — link
// fails when path exists, so two mm never share a file — and removed.
func createNew(dir, path string, data []byte) error {
	tmp := filepath.Join(dir, "."+filepath.Base(path)+"."+NewID(time.Now())+".tmp")
	f, err := ownfile.Create(tmp)
	if err != nil {
		return fmt.Errorf("sessions: cannot create a file in %s: %w", dir, err)
	}
	defer os.Remove(tmp)
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Link(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("sessions: cannot write %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Load reads the session id whole, or refuses it with the reason.
func (st *Store) Load(id string) (*Session, error) {
	if !validID(id) {
		return nil, fmt.Errorf("there is no session %q (an id is like 20260102-150405-a1b2c3; /sessions lists them)", id)
	}
	dir, err := st.dir()
	if err != nil {
		return nil, err
	}
	s, _, err := st.load(filepath.Join(dir, id+".json"), id)
	return s, err
}

// ForeignError is a session file that this user's mm did not write, as
// far as mm can tell: its signature is missing or does not match the
// user's key (or there is no key to check it with). Nothing of it is
// loaded.
type ForeignError struct {
	ID     string
	KeyErr error // the key's problem, when there is no usable key
}

func (e *ForeignError) Error() string {
	if e.KeyErr != nil {
		return fmt.Sprintf("session %s cannot be resumed: %v — so mm cannot tell whether your mm wrote it; nothing from it is restored or run", e.ID, e.KeyErr)
	}
	return fmt.Sprintf("session %s was not written by your mm: it has no valid signature from your session key — "+
		"it may have come with the project, been edited by hand, or been saved by an mm from before sessions were signed; "+
		"nothing from it is restored or run (read the file yourself to see what it holds)", e.ID)
}

// load reads the session file path (the session id) whole, or refuses it
// with the reason. verified says that the file is signed with the user's
// key (its content is then this user's mm's, even if it does not load).
// The signature is checked on the bytes as read, before any of them is
// decoded.
func (st *Store) load(path, id string) (_ *Session, verified bool, _ error) {
	data, err := ownfile.ReadFile(path, MaxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("there is no session %s (/sessions lists them)", id)
	}
	if err != nil {
		return nil, false, fmt.Errorf("session %s cannot be read: %w", id, err)
	}
	key, kerr := st.key()
	if kerr != nil {
		return nil, false, &ForeignError{ID: id, KeyErr: kerr}
	}
	if !key.signed(data) {
		return nil, false, &ForeignError{ID: id}
	}
	s, err := decode(data, path, id)
	return s, true, err
}

// decode is a signed file's session, checked.
func decode(data []byte, path, id string) (*Session, error) {
	var s Session
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("session %s is not loaded: %s is not a valid session file (%v)", id, path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("session %s is not loaded: %s is not a valid session file (data after the end)", id, path)
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("session %s is not loaded: %s", id, err)
	}
	if s.ID != id {
		return nil, fmt.Errorf("session %s is not loaded: the file holds the session %q", id, s.ID)
	}
	if s.Messages == nil {
		s.Messages = []Message{}
	}
	if s.Errors == nil {
		s.Errors = []Error{}
	}
	return &s, nil
}

// Entry is one line of /sessions: a session, or a file that does not load.
type Entry struct {
	ID      string
	Session *Session // nil when Err is set
	Err     error
	// Foreign: the file is not signed with the user's key (Err is a
	// *ForeignError). Nothing of it is decoded: not even its times.
	Foreign bool
	Updated time.Time // the session's, or the file's modification time
	// verified: signed with the user's key (Session set, or Err the
	// reason it does not load).
	verified bool
}

// List is the sessions of the directory, newest change first. A file
// that does not load is listed with its error.
func (st *Store) List() ([]Entry, error) {
	dir, err := st.dir()
	if err != nil {
		return nil, err
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	var out []Entry
	for _, de := range des {
		name := de.Name()
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || !validID(id) {
			continue
		}
		e := Entry{ID: id}
		e.Session, e.verified, e.Err = st.load(filepath.Join(dir, name), id)
		var fe *ForeignError
		e.Foreign = errors.As(e.Err, &fe)
		if e.Session != nil {
			e.Updated = e.Session.Updated
		} else if fi, err := de.Info(); err == nil {
			e.Updated = fi.ModTime()
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.After(out[j].Updated)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// Latest is the user's session changed last. Only the files signed with
// the user's key take part: a foreign one (a repository's, dated in the
// future so as to stay the latest for ever) or one that cannot even be
// read is passed over. A signed file that does not load counts: -continue
// must not silently skip the newest conversation. A session with no
// message yet is no conversation — ACP's session/new writes one that an
// editor may never prompt —: the newest one that has messages comes
// first, the newest empty one only when no other is left.
func (st *Store) Latest() (*Session, error) {
	list, err := st.List()
	if err != nil {
		return nil, err
	}
	var own []Entry
	foreign := 0
	for _, e := range list {
		switch {
		case e.verified:
			own = append(own, e)
		case e.Foreign:
			foreign++
		}
	}
	if len(own) == 0 {
		if _, kerr := st.key(); kerr != nil && len(list) > 0 {
			return nil, fmt.Errorf("no session can be resumed: %v", kerr)
		}
		if foreign > 0 {
			return nil, fmt.Errorf("there is no session of yours in %s: %s there not written by your mm, which is never resumed (/sessions lists them)",
				st.Path(), plural(foreign, "file"))
		}
		if len(list) > 0 {
			return nil, fmt.Errorf("no session in %s can be read (/sessions says why)", st.Path())
		}
		return nil, fmt.Errorf("there is no session in %s yet", st.Path())
	}
	for _, e := range own {
		if e.Err != nil || len(e.Session.Messages) > 0 {
			return e.Session, e.Err
		}
	}
	return own[0].Session, own[0].Err
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
