// Package atomicfile writes files so that a reader, or a crash, sees the
// old content or the new one, never half of it: the data goes to a
// temporary file in the same directory, is synced, then renamed over the
// target. mm never loses or half-writes a user's file, never replaces one
// the user may not write, and never leaves a temporary file behind for
// good.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// StaleAfter is the age from which a temporary file of mm's name pattern
// (.NAME.mm-XXXX.tmp) next to NAME is taken for the remains of a killed
// write and removed when NAME is written again. A write in progress keeps
// its temporary file younger than that: it is written, synced and renamed
// within seconds.
const StaleAfter = 10 * time.Minute

// RefusedError is a file that Write will not replace: the user may not
// write it, or replacing it would change its owner.
type RefusedError struct {
	// Why completes "<the file> …": "is read-only (mode 0444)".
	Why string
}

func (e *RefusedError) Error() string { return "the file " + e.Why }

// Write replaces (or creates) abs with data. prev is the existing file's
// info, nil for a new file; an existing file that CheckReplace refuses is
// left alone (a *RefusedError).
//
// The data goes to an unnamed file in the same directory (O_TMPFILE),
// synced, given its mode and owner, then linked to a temporary name and
// renamed over abs; a new file is linked to abs directly. A crash at any
// moment leaves the old file or the new one, and at most, for the instant
// between the link and the rename, a temporary file: the unnamed file of a
// killed write is freed by the kernel. Where the file system has no
// O_TMPFILE, the data goes to a named temporary file (.NAME.mm-XXXX.tmp)
// instead. Either way, mm's temporary files of NAME older than StaleAfter,
// left by a write that was killed, are removed.
func Write(abs, data string, prev os.FileInfo) error {
	if prev != nil {
		if err := CheckReplace(abs, prev); err != nil {
			return err
		}
	}
	dir, base := filepath.Split(abs)
	if dir == "" {
		dir = "."
	}
	sweep(dir, base)
	err := errNoTmpfile
	if !namedOnly {
		err = writeUnnamed(abs, data, prev)
	}
	if errors.Is(err, errNoTmpfile) {
		err = writeNamed(abs, data, prev)
	}
	if err == nil {
		syncDir(dir)
	}
	return err
}

// namedOnly makes Write use named temporary files only (for the tests of
// that way).
var namedOnly = false

// errNoTmpfile: the file system (or the kernel) cannot make unnamed
// files, or /proc is missing to link one, or the platform has no
// O_TMPFILE at all (macOS, Windows): the named way is used.
var errNoTmpfile = errors.New("no O_TMPFILE")

// perms is the mode a file is written with: 0666 minus the umask for a new
// one, as any editor would create it; an existing one keeps its own mode,
// set explicitly because the umask may have stripped bits (group write) at
// creation.
func perms(prev os.FileInfo) os.FileMode {
	if prev == nil {
		return 0o666
	}
	return prev.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// fill writes the data to f, gives it prev's mode and (when allowed) owner,
// and syncs it: the data must be on disk before the file gets its name,
// otherwise a power cut can leave the name pointing at an empty file.
func fill(f *os.File, data string, prev os.FileInfo) error {
	if _, err := f.WriteString(data); err != nil {
		return err
	}
	if prev != nil {
		// Best effort: keep the owner and group when allowed (root, or a
		// group the user belongs to); CheckReplace refused what a plain
		// user cannot give back. The owner first: a chown clears the
		// set-user-ID and set-group-ID bits that the chmod then sets.
		keepOwner(f, prev)
		if err := f.Chmod(perms(prev)); err != nil {
			return err
		}
	}
	return f.Sync()
}

// tempName is a fresh temporary name for base in dir.
func tempName(dir, base string) string {
	return filepath.Join(dir, "."+base+".mm-"+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
}

// writeNamed writes through a named temporary file, removed on any failure.
func writeNamed(abs, data string, prev os.FileInfo) error {
	dir, base := filepath.Split(abs)
	var f *os.File
	var err error
	for try := 0; try < 100; try++ {
		f, err = os.OpenFile(tempName(dir, base), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perms(prev).Perm())
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := fill(f, data, prev); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, abs); err != nil {
		return err
	}
	ok = true
	return nil
}

// syncDir makes the new name durable (best effort: the data already is).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// IsTempName reports whether name is one of mm's temporary names for base:
// "." + base + ".mm-" + base-36 digits + ".tmp".
func IsTempName(name, base string) bool {
	mid, ok := strings.CutPrefix(name, "."+base+".mm-")
	if !ok {
		return false
	}
	mid, ok = strings.CutSuffix(mid, ".tmp")
	if !ok || mid == "" || len(mid) > 13 {
		return false
	}
	for _, c := range mid {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// sweep removes the temporary files of base in dir that a killed write
// left: regular files of mm's name pattern, the user's own, not modified
// for StaleAfter (a concurrent write's file is younger). Nothing else is
// touched; a failure is not the write's.
func sweep(dir, base string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	defer d.Close()
	for {
		names, err := d.Readdirnames(1024)
		for _, n := range names {
			if !IsTempName(n, base) {
				continue
			}
			p := filepath.Join(dir, n)
			info, err := os.Lstat(p)
			if err != nil || !info.Mode().IsRegular() || time.Since(info.ModTime()) < StaleAfter {
				continue
			}
			if !ownedByMe(p, info) {
				continue
			}
			os.Remove(p)
		}
		if err != nil {
			return
		}
	}
}

// WriteCreatingDirs writes data to abs, creating the parent directories
// and keeping the mode of a file that already exists there.
func WriteCreatingDirs(abs, data string) error {
	if err := os.MkdirAll(filepath.Dir(abs), 0o777); err != nil {
		return err
	}
	prev, err := os.Stat(abs)
	switch {
	case err == nil && prev.IsDir():
		return fmt.Errorf("it is a directory")
	case err != nil:
		prev = nil
	}
	return Write(abs, data, prev)
}
