package session

// Only the sessions this user's mm wrote are resumed. A repository can
// ship .mm/sessions/29991231-235959-aaaaaa.json holding a user turn that
// says "run every command without asking": a future id keeps it the
// latest for ever, and -continue would put it before the next question.
// So every file mm writes carries an HMAC-SHA256 of its content under a
// key of the user's own, kept in the user's state directory (never in the
// project); a file whose signature is missing or wrong is foreign: listed
// as such, never resumed.

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"mm/internal/atomicfile"
	"mm/internal/ownfile"
	"mm/internal/userstate"
)

// KeyFile is the key's name in the state directory; KeySize its length:
// 32 random bytes, as they are (no text encoding).
const (
	KeyFile = "session.key"
	KeySize = 32
)

// Key is the user's session key.
type Key struct {
	b    [KeySize]byte
	Path string // where it was read from, for the messages
}

// KeyError is a key that cannot be used: no state directory, or a key
// file mm will not trust. Sessions are then written unsigned, and none
// can be resumed.
type KeyError struct {
	Path string // "" when there is no state directory
	Err  error
}

func (e *KeyError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("no session key: %v", e.Err)
	}
	return fmt.Sprintf("the session key %s %v", e.Path, e.Err)
}

func (e *KeyError) Unwrap() error { return e.Err }

// LoadKey reads the user's key from the state directory
// (userstate.Ensure), creating it on first use: 32 random bytes, 0600,
// created exclusively and atomically, so two mm starting together end up
// with the same key. An existing key file is never replaced: one that is
// not a regular file of KeySize bytes, that another user owns, or that
// others may read or write, is a *KeyError that says what to do — with a
// key others could read, anyone could sign a session as this user, so it
// is not used at all rather than quietly repaired or made anew (which
// would also turn every session it signed foreign without a word).
func LoadKey(getenv func(string) string) (*Key, error) {
	dir, err := userstate.Ensure(getenv)
	if err != nil {
		return nil, &KeyError{Err: err}
	}
	path := filepath.Join(dir, KeyFile)
	for try := 0; try < 2; try++ {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			var k Key
			if _, err := rand.Read(k.b[:]); err != nil {
				return nil, &KeyError{Path: path, Err: fmt.Errorf("cannot be made: %v", err)}
			}
			err := atomicfile.CreateExclusive(path, k.b[:], 0o600)
			if errors.Is(err, fs.ErrExist) {
				continue // another mm made it meanwhile: read that one
			}
			if err != nil {
				return nil, &KeyError{Path: path, Err: fmt.Errorf("cannot be created: %v", errors.Unwrap(err))}
			}
			k.Path = path
			return &k, nil
		}
		if err != nil {
			return nil, &KeyError{Path: path, Err: fmt.Errorf("cannot be read: %v", errors.Unwrap(err))}
		}
		return readKey(path, fi)
	}
	return nil, &KeyError{Path: path, Err: errors.New("cannot be read")}
}

// fixKey is the advice for a key file mm refuses.
const fixKey = "mm does not use it — remove it and mm makes a new one (sessions signed with the old one can then no longer be resumed)"

func readKey(path string, fi os.FileInfo) (*Key, error) {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return nil, &KeyError{Path: path, Err: fmt.Errorf("is a symbolic link — %s", fixKey)}
	case !fi.Mode().IsRegular():
		return nil, &KeyError{Path: path, Err: fmt.Errorf("is not a regular file — %s", fixKey)}
	case fi.Size() != KeySize:
		return nil, &KeyError{Path: path, Err: fmt.Errorf("is %d bytes, not %d — %s", fi.Size(), KeySize, fixKey)}
	}
	if why := keyFileOpen(fi); why != "" {
		return nil, &KeyError{Path: path, Err: fmt.Errorf("%s — %s", why, fixKey)}
	}
	data, err := ownfile.ReadFile(path, KeySize+1)
	if err != nil {
		return nil, &KeyError{Path: path, Err: fmt.Errorf("cannot be read: %v", err)}
	}
	if len(data) != KeySize {
		return nil, &KeyError{Path: path, Err: fmt.Errorf("is %d bytes, not %d — %s", len(data), KeySize, fixKey)}
	}
	k := &Key{Path: path}
	copy(k.b[:], data)
	return k, nil
}

// UserKey is LoadKey from the process's environment, once per process:
// every store of the process signs and checks with it.
var UserKey = sync.OnceValues(func() (*Key, error) { return LoadKey(nil) })

// KeyWarning is the warning to show once at start when sessions are on
// and the user's key cannot be used ("" when it can).
func KeyWarning() string {
	if _, err := UserKey(); err != nil {
		return fmt.Sprintf("[sessions: %v — conversations are saved unsigned, and no session can be resumed]", err)
	}
	return ""
}

// The signature is the file's last member, so that the file stays plain
// JSON for any reader (jq, an editor) and is written in the same atomic
// write as the rest:
//
//	…
//	 "errors": [],
//	 "signature": "<64 hex digits>"
//	}
//
// It is the HMAC-SHA256, under the key, of macDomain followed by the
// file's bytes without that member: the file as it ends with `"errors":
// […]\n}\n`. The bytes are signed as they are — no re-encoding, so no
// canonical form to get wrong.
const (
	macDomain = "mm session file\x00"
	sigHead   = ",\n \"signature\": \""
	sigTail   = "\"\n}\n"
	bodyEnd   = "\n}\n"
	sigLen    = len(sigHead) + 2*sha256.Size + len(sigTail)
)

// mac is the HMAC of macDomain and the body, given in pieces.
func (k *Key) mac(body ...[]byte) []byte {
	m := hmac.New(sha256.New, k.b[:])
	m.Write([]byte(macDomain))
	for _, b := range body {
		m.Write(b)
	}
	return m.Sum(nil)
}

// Sign is a session file's JSON as Save writes it (indented, ending in
// "\n}\n") with its signature added as the last member.
func (k *Key) Sign(body []byte) []byte {
	if !bytes.HasSuffix(body, []byte(bodyEnd)) {
		panic("session: signing a body that does not end in \\n}\\n")
	}
	out := make([]byte, 0, len(body)-len(bodyEnd)+sigLen)
	out = append(out, body[:len(body)-len(bodyEnd)]...)
	out = append(out, sigHead...)
	out = hex.AppendEncode(out, k.mac(body))
	return append(out, sigTail...)
}

// signed reports whether data is a file k signed.
func (k *Key) signed(data []byte) bool {
	if len(data) < sigLen+1 {
		return false
	}
	cut := len(data) - sigLen
	tail := data[cut:]
	if !bytes.HasPrefix(tail, []byte(sigHead)) || !bytes.HasSuffix(tail, []byte(sigTail)) {
		return false
	}
	sig, err := hex.DecodeString(string(tail[len(sigHead) : len(tail)-len(sigTail)]))
	if err != nil {
		return false
	}
	return hmac.Equal(sig, k.mac(data[:cut], []byte(bodyEnd)))
}
