// Package atomicfile writes files so that a reader, or a crash, sees the
// old content or the new one, never half of it: the data goes to a
// temporary file in the same directory, is synced, then renamed over the
// target. mm never loses or half-writes a user's file.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Write replaces (or creates) abs with data through a temporary file
// in the same directory: rename within one file system is atomic, so a
// reader or a crash sees the old file or the new one, never a mix. prev is
// the existing file's info, nil for a new file.
func Write(abs, data string, prev os.FileInfo) error {
	// A new file gets 0666 minus the umask, as any editor would create it;
	// an existing one keeps its own mode, set explicitly below because the
	// umask may have stripped bits (group write) at creation.
	perm := os.FileMode(0o666)
	if prev != nil {
		perm = prev.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	}
	dir, base := filepath.Split(abs)
	var f *os.File
	var err error
	for try := 0; try < 100; try++ {
		name := filepath.Join(dir, "."+base+".mm-"+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm.Perm())
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
	if _, err := f.WriteString(data); err != nil {
		return err
	}
	if prev != nil {
		if err := f.Chmod(perm); err != nil {
			return err
		}
		// Best effort: keep the owner and group when allowed (root, or a
		// group the user belongs to); a plain user cannot give a file away.
		if st, isStat := prev.Sys().(*syscall.Stat_t); isStat {
			_ = f.Chown(int(st.Uid), int(st.Gid))
		}
	}
	// The data must be on disk before the rename is: otherwise a power cut
	// can leave the new name pointing at an empty file.
	if err := f.Sync(); err != nil {
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
