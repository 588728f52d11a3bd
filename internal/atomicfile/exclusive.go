package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// CreateExclusive creates abs with data and the mode perm (exactly: the
// umask does not apply), only if no file of that name exists: a file
// already there, even one made a moment ago by another process, is left
// as it is and the error is fs.ErrExist. Whoever reads abs finds it whole
// or not at all: the data goes to a temporary file of mm's name pattern
// (created exclusively with perm, so it is never more open than perm),
// synced, then linked to abs — link never replaces — and the temporary
// name removed. It is for files made once and then only read, such as a
// private key: Write's new files get 0666 minus the umask.
func CreateExclusive(abs string, data []byte, perm os.FileMode) error {
	dir, base := filepath.Split(abs)
	if dir == "" {
		dir = "."
	}
	sweep(dir, base)
	var f *os.File
	var err error
	for try := 0; try < 100; try++ {
		f, err = os.OpenFile(tempName(dir, base), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm&fs.ModePerm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	err = f.Chmod(perm & fs.ModePerm) // what the umask took away
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Link(tmp, abs); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return &fs.PathError{Op: "create", Path: abs, Err: fs.ErrExist}
		}
		return err
	}
	syncDir(dir)
	return nil
}
