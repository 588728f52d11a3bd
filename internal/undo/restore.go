package undo

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Target is what one path must be once restored: Want.Mode "" is no file.
type Target struct {
	Path string
	Want Entry
}

// Restored is what a restore did, by path.
type Restored struct {
	Written, Removed []string
	// Failed are the paths left as they were, each with why.
	Failed []string
}

// restore puts each target path in its wanted state, inside the root only:
// every operation goes through an os.Root of the project root, and a path
// whose parent is a symbolic link (or not a directory) is never written
// through — it fails instead. A symbolic link is restored as a link. keep
// says which directories existed in the state restored (an emptied one
// that did not is removed).
func (r *Repo) restore(targets []Target, keep func(dir string) bool) (Restored, error) {
	var res Restored
	root, err := os.OpenRoot(r.root)
	if err != nil {
		return res, err
	}
	defer root.Close()
	fail := func(p, why string) { res.Failed = append(res.Failed, showName(p)+" ("+why+")") }

	// Removals first, deepest first: a file the turn put where a
	// directory was, or the reverse, is then out of the way.
	var removes, writes []Target
	for _, t := range targets {
		if t.Want.Mode == "" {
			removes = append(removes, t)
		} else {
			writes = append(writes, t)
		}
	}
	// The contents first: a failure to read them changes nothing.
	oids := make([]string, 0, len(writes))
	for _, t := range writes {
		oids = append(oids, t.Want.OID)
	}
	blobs, err := r.blobs(oids)
	if err != nil {
		return res, err
	}
	sort.Slice(removes, func(i, j int) bool { return depth(removes[i].Path) > depth(removes[j].Path) })
	emptied := map[string]bool{}
	for _, t := range removes {
		if why := parentsOK(root, t.Path, false); why != "" {
			if why != "missing" {
				fail(t.Path, why)
			}
			continue
		}
		fi, err := root.Lstat(t.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			fail(t.Path, err.Error())
			continue
		case fi.IsDir():
			fail(t.Path, "a directory now")
			continue
		}
		if err := root.Remove(t.Path); err != nil {
			fail(t.Path, err.Error())
			continue
		}
		res.Removed = append(res.Removed, t.Path)
		for d := path.Dir(t.Path); d != "."; d = path.Dir(d) {
			emptied[d] = true
		}
	}
	// Directories the turn made and that are empty now go too; one that
	// still holds something, or that the restored state has, stays.
	dirs := make([]string, 0, len(emptied))
	for d := range emptied {
		dirs = append(dirs, d)
	}
	sort.Slice(dirs, func(i, j int) bool { return depth(dirs[i]) > depth(dirs[j]) })
	for _, d := range dirs {
		if keep(d) {
			continue
		}
		if fi, err := root.Lstat(d); err == nil && fi.IsDir() {
			root.Remove(d) // fails, as it should, when not empty
		}
	}

	sort.Slice(writes, func(i, j int) bool { return writes[i].Path < writes[j].Path })
	for _, t := range writes {
		if why := parentsOK(root, t.Path, true); why != "" {
			fail(t.Path, why)
			continue
		}
		if err := writeOne(root, t, blobs[t.Want.OID]); err != nil {
			fail(t.Path, err.Error())
			continue
		}
		res.Written = append(res.Written, t.Path)
	}
	return res, nil
}

func depth(p string) int { return strings.Count(p, "/") }

// parentsOK checks that every directory above p is a real directory (not
// a symbolic link); with create, the missing ones are made. It returns
// why not, "missing" for a missing parent without create, or "".
func parentsOK(root *os.Root, p string, create bool) string {
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		fi, err := root.Lstat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if !create {
				return "missing"
			}
			if err := root.Mkdir(dir, 0o777); err != nil {
				return err.Error()
			}
		case err != nil:
			return err.Error()
		case fi.Mode()&fs.ModeSymlink != 0:
			return dir + " is a symbolic link: not followed"
		case !fi.IsDir():
			return dir + " is not a directory"
		}
	}
	return ""
}

// writeOne puts one file (or link) in place. A regular file is written to
// a temporary name next to it, synced, then renamed over the path: the
// rename replaces a link there instead of writing through it, and a
// crash leaves the old file or the new one.
func writeOne(root *os.Root, t Target, data []byte) error {
	prev, err := root.Lstat(t.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		prev = nil
	case err != nil:
		return err
	case prev.IsDir():
		// The turn put a directory where the file was: an empty one
		// goes, one that holds files is left alone.
		if err := root.Remove(t.Path); err != nil {
			return errors.New("a directory that is not empty now")
		}
		prev = nil
	}
	if t.Want.Mode == "120000" {
		if prev != nil {
			if err := root.Remove(t.Path); err != nil {
				return err
			}
		}
		return root.Symlink(string(data), t.Path)
	}
	exec := t.Want.Mode == "100755"
	perm := fs.FileMode(0o666)
	if exec {
		perm = 0o777
	}
	keep := prev != nil && prev.Mode().IsRegular()
	if keep {
		// The file's own permissions, with the execute bits the snapshot
		// had (git keeps only those).
		perm = prev.Mode().Perm() &^ 0o111
		if exec {
			perm |= (perm & 0o444) >> 2
		}
	}
	dir, base := path.Split(t.Path)
	var f *os.File
	var tmp string
	for try := 0; try < 100; try++ {
		tmp = dir + "." + base + ".mm-" + strconv.FormatUint(rand.Uint64(), 36) + ".tmp"
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			root.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if keep {
		if err := f.Chmod(perm); err != nil {
			return err
		}
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := root.Rename(tmp, t.Path); err != nil {
		return err
	}
	ok = true
	return nil
}

// dirsOf is the set of directories that hold the files of a snapshot.
func (r *Repo) dirsOf(commit string) (map[string]bool, error) {
	out, err := r.run(nil, "ls-tree", "-r", "-z", "--name-only", commit)
	if err != nil {
		return nil, err
	}
	dirs := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		for d := path.Dir(string(p)); d != "." && d != "/" && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	return dirs, nil
}
