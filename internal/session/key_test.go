package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Every store of these tests that has no Key of its own signs with the
// user's key (UserKey): it must come from a temporary state directory,
// never the real home's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mm-session-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func stateEnv(dir string) func(string) string {
	return func(k string) string {
		if k == "XDG_STATE_HOME" {
			return dir
		}
		return ""
	}
}

// The key is made once, 0600, 32 bytes; mm's that start together all get
// the one that was made.
func TestLoadKeyMadeOnce(t *testing.T) {
	state := t.TempDir()
	var wg sync.WaitGroup
	keys := make([]*Key, 8)
	errs := make([]error, 8)
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keys[i], errs[i] = LoadKey(stateEnv(state))
		}()
	}
	wg.Wait()
	for i := range keys {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if keys[i].b != keys[0].b {
			t.Fatalf("two keys were made")
		}
	}
	path := filepath.Join(state, "mm", KeyFile)
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != KeySize || keys[0].Path != path {
		t.Fatalf("%v %v %q", fi, err, keys[0].Path)
	}
	data, _ := os.ReadFile(path)
	if !bytes.Equal(data, keys[0].b[:]) || bytes.Equal(data, make([]byte, KeySize)) {
		t.Errorf("the file does not hold the key")
	}
	ents, _ := os.ReadDir(filepath.Join(state, "mm"))
	if len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	again, err := LoadKey(stateEnv(state))
	if err != nil || again.b != keys[0].b {
		t.Errorf("read again: %v", err)
	}
}

// A key file mm did not make as it makes one is refused, said why, and
// left as it is.
func TestLoadKeyRefused(t *testing.T) {
	cases := map[string]struct {
		make func(path string)
		want string
	}{
		"short":  {func(p string) { os.WriteFile(p, []byte("short"), 0o600) }, "is 5 bytes, not 32"},
		"long":   {func(p string) { os.WriteFile(p, make([]byte, 33), 0o600) }, "is 33 bytes, not 32"},
		"dir":    {func(p string) { os.Mkdir(p, 0o700) }, "is not a regular file"},
		"link":   {func(p string) { os.WriteFile(p+".real", make([]byte, 32), 0o600); os.Symlink(p+".real", p) }, "is a symbolic link"},
		"group":  {func(p string) { os.WriteFile(p, make([]byte, 32), 0o600); os.Chmod(p, 0o640) }, "is open to other users (mode 0640, want 0600)"},
		"others": {func(p string) { os.WriteFile(p, make([]byte, 32), 0o600); os.Chmod(p, 0o602) }, "is open to other users (mode 0602, want 0600)"},
	}
	for name, c := range cases {
		if runtime.GOOS == "windows" && (name == "group" || name == "others" || name == "link") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			state := t.TempDir()
			os.Mkdir(filepath.Join(state, "mm"), 0o700)
			path := filepath.Join(state, "mm", KeyFile)
			c.make(path)
			before, _ := os.Lstat(path)
			_, err := LoadKey(stateEnv(state))
			var ke *KeyError
			if !errors.As(err, &ke) || !strings.Contains(err.Error(), path+" "+c.want) || !strings.Contains(err.Error(), "remove it and mm makes a new one") {
				t.Fatalf("%v, want %q", err, c.want)
			}
			after, _ := os.Lstat(path)
			if !os.SameFile(before, after) || before.Mode() != after.Mode() || before.Size() != after.Size() {
				t.Errorf("the file was changed")
			}
		})
	}
	if _, err := LoadKey(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "no session key: no state directory") {
		t.Errorf("no state directory: %v", err)
	}
}

func testKey(t *testing.T) *Key {
	t.Helper()
	k, err := LoadKey(stateEnv(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// A signature holds for the bytes signed, under the key that signed them,
// and nothing else: any byte changed, a signature removed or another key
// makes the file foreign.
func TestSignature(t *testing.T) {
	k, other := testKey(t), testKey(t)
	body := []byte("{\n \"version\": 1,\n \"errors\": []\n}\n")
	signed := k.Sign(body)
	if !k.signed(signed) {
		t.Fatalf("its own signature refused:\n%s", signed)
	}
	if !regexp.MustCompile(`^\{\n "version": 1,\n "errors": \[\],\n "signature": "[0-9a-f]{64}"\n\}\n$`).Match(signed) {
		t.Errorf("layout:\n%s", signed)
	}
	if other.signed(signed) || k.signed(body) {
		t.Errorf("another key's signature, or none, is taken")
	}
	for i := range signed {
		b := bytes.Clone(signed)
		b[i] ^= 1
		if k.signed(b) {
			t.Fatalf("byte %d changed and still signed:\n%s", i, b)
		}
	}
	if k.signed(append(bytes.Clone(signed), '\n')) || k.signed(signed[1:]) {
		t.Errorf("bytes added or removed are still signed")
	}
}

// -continue (Latest) passes over a foreign file however new; Load refuses
// it with the reason; List marks it without decoding it.
func TestLatestPassesOverForeign(t *testing.T) {
	st := &Store{Base: t.TempDir(), Dir: "s", Key: testKey(t)}
	old := New(time.Now().Add(-time.Hour), "m", "p", "/x")
	old.Messages = []Message{{Role: "user", Parts: []Part{{Type: "text", Text: "mine"}}}}
	if err := st.Save(old); err != nil {
		t.Fatal(err)
	}
	planted := "29991231-235959-aaaaaa"
	body := fmt.Sprintf("{\n \"version\": 1,\n \"id\": %q,\n \"updated\": \"2999-12-31T23:59:59Z\",\n \"messages\": [{\"role\": \"user\", \"parts\": [{\"type\": \"text\", \"text\": \"theirs\"}]}],\n \"errors\": []\n}\n", planted)
	os.WriteFile(filepath.Join(st.Path(), planted+".json"), []byte(body), 0o600)
	// Signed with another user's key.
	other := &Store{Base: st.Base, Dir: "s", Key: testKey(t)}
	alien := New(time.Now().Add(time.Hour), "m", "p", "/x")
	alien.Messages = old.Messages
	if err := other.Save(alien); err != nil {
		t.Fatal(err)
	}

	got, err := st.Latest()
	if err != nil || got.ID != old.ID {
		t.Fatalf("Latest: %v %v", got, err)
	}
	for _, id := range []string{planted, alien.ID} {
		_, err = st.Load(id)
		var fe *ForeignError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "session "+id+" was not written by your mm") {
			t.Errorf("Load %s: %v", id, err)
		}
	}
	list, _ := st.List()
	foreign := 0
	for _, e := range list {
		if e.Foreign {
			foreign++
			if e.Session != nil || e.Updated.Year() == 2999 {
				t.Errorf("a foreign file was decoded: %+v", e)
			}
		}
	}
	if len(list) != 3 || foreign != 2 {
		t.Errorf("list: %+v", list)
	}

	os.Remove(filepath.Join(st.Path(), old.ID+".json"))
	if _, err := st.Latest(); err == nil || !strings.Contains(err.Error(), "there is no session of yours in "+st.Path()+": 2 files there not written by your mm") {
		t.Errorf("only foreign files: %v", err)
	}
}
