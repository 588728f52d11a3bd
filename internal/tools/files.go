package tools

// This file holds what read_file, write_file and edit_file share: resolving
// a path, loading a file as text with clear refusals for what is not text,
// and writing a file so that a crash, a full disk or a concurrent change
// never leaves the user with a lost or half-written file.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"mm/internal/atomicfile"
)

// FileOptions configures read_file, write_file and edit_file.
type FileOptions struct {
	Dir       string // working directory: relative paths resolve against it ("" = process cwd)
	MaxOutput int    // maxOutput: what a tool returns is truncated to it with Truncate (<= 0: no limit)
	// Changed, when set, is called with the file's absolute path after
	// write_file or edit_file wrote it, so the language servers hear of the
	// change and never answer from a stale view of the project.
	Changed func(absPaths ...string)
	// Editor, when set, is an editor holding the files (ACP fs/*): the
	// file tools read its buffers, unsaved changes included, and write
	// through it, so the edits appear in the editor. nil means the disk.
	Editor Editor
}

// Editor is a client that reads and writes text files for the file tools
// (ACP fs/read_text_file and fs/write_text_file). Paths are absolute.
type Editor interface {
	ReadTextFile(ctx context.Context, abs string) (string, error)
	WriteTextFile(ctx context.Context, abs, content string) error
}

// apply writes c and tells o.Changed.
func (o FileOptions) apply(c FileChange) error {
	if err := c.Apply(); err != nil {
		return err
	}
	if o.Changed != nil {
		o.Changed(c.AbsPath)
	}
	return nil
}

// MaxFileSize is the largest file the file tools load: a file is held in
// memory whole, twice during an edit.
const MaxFileSize = 64 << 20

// binarySniff is how much of the start of a file is searched for a NUL
// byte: the rule git and grep use to call a file binary.
const binarySniff = 8 << 10

// FileChange is what one write_file or edit_file call does to one file,
// computed before anything is written, so a facade can show the diff
// (old and new text) before asking for permission, and Run writes exactly
// what was shown.
type FileChange struct {
	Path    string // the path as the model wrote it
	AbsPath string // the file written: absolute, symbolic links resolved
	Old     string // whole content before ("" when the file does not exist)
	New     string // whole content after
	Existed bool
	DryRun  bool   // edit_file's dry_run: the report is given, nothing is written
	Report  string // what the model reads once the change is made: header and diff
}

// Unchanged reports whether writing the change would leave the file as it is.
func (c FileChange) Unchanged() bool {
	return c.Existed && c.Old == c.New
}

// Apply writes the change. It first checks that the file still holds Old
// (or still does not exist): the user may have edited it while the
// permission question was on screen, and writing a plan made on stale
// content would silently undo their work. A file the user may not write,
// or whose owner the replacement would change, is refused
// (atomicfile.CheckReplace). The write itself is atomic: a temporary file
// in the same directory, synced, then renamed over the original, which
// keeps its mode. The error's text is for the model.
func (c FileChange) Apply() error {
	info, err := os.Stat(c.AbsPath)
	switch {
	case err == nil && !c.Existed:
		return fmt.Errorf("%s was created by someone else meanwhile — nothing written; read it first", c.Path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: %v", c.Path, pathErr(err))
	case err != nil && c.Existed:
		return fmt.Errorf("%s was deleted meanwhile — nothing written", c.Path)
	}
	if c.Existed {
		if err := atomicfile.CheckReplace(c.AbsPath, info); err != nil {
			return refusal(c.Path, err)
		}
		cur, err := os.ReadFile(c.AbsPath)
		if err != nil {
			return fmt.Errorf("cannot read %s again before writing: %v", c.Path, pathErr(err))
		}
		if string(cur) != c.Old {
			return fmt.Errorf("%s changed on disk since it was read — nothing written; read it again", c.Path)
		}
	} else if err := os.MkdirAll(filepath.Dir(c.AbsPath), 0o777); err != nil {
		return fmt.Errorf("cannot create the directory of %s: %v", c.Path, pathErr(err))
	}
	if err := atomicfile.Write(c.AbsPath, c.New, info); err != nil {
		return refusal(c.Path, err)
	}
	return nil
}

// refusal is the model's text for a failed write: "main.go is read-only
// (mode 0444) — nothing written" for a file mm may not replace, "cannot
// write main.go: …" otherwise.
func refusal(path string, err error) error {
	var re *atomicfile.RefusedError
	if errors.As(err, &re) {
		return fmt.Errorf("%s %s — nothing written", path, re.Why)
	}
	return fmt.Errorf("cannot write %s: %v", path, pathErr(err))
}

// pathErr drops the path from an *fs.PathError: the model knows which file
// it named, and the absolute path would only add noise.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Resolve makes path absolute against o.Dir, the way the file tools do (a
// facade needs it for the location of a call). `~` is not expanded: it is a
// shell convention, and a tool argument is not shell input.
func (o FileOptions) Resolve(path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(o.Dir, path)
	}
	return filepath.Abs(path)
}

// pathsOf is the file a file-tool call names, absolute: its location in
// an editor. Arguments that do not decode name none.
func (o FileOptions) pathsOf(args json.RawMessage) []string {
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil || a.Path == "" {
		return nil
	}
	abs, err := o.Resolve(a.Path)
	if err != nil {
		return nil
	}
	return []string{abs}
}

// textFile is a file as the file tools see it.
type textFile struct {
	abs     string // absolute, symbolic links resolved when the file exists
	exists  bool
	info    os.FileInfo
	content string
}

// notExistText is the reference's text for a missing file; edit_file uses
// it too, since the cure is the same.
func notExistText(path string) string {
	return path + " does not exist. Create it with write_file"
}

// loadText reads path as UTF-8 text. A missing file is not a failure here
// (tf.exists is false); everything that is not a regular UTF-8 text file
// under MaxFileSize is, with a text that says what the file is and, through
// refuse, what the tool will not do with it (" — read_file shows text
// only").
func loadText(o FileOptions, path, refuse string) (tf textFile, failure string) {
	abs, err := o.Resolve(path)
	if err != nil {
		return tf, fmt.Sprintf("cannot resolve %s: %v", path, err)
	}
	tf.abs = abs
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		// A symbolic link to nothing: writing through it would replace the
		// link itself by a file, so it is not treated as free space.
		if li, lerr := os.Lstat(abs); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(abs)
			return tf, fmt.Sprintf("%s is a symbolic link to %s, which does not exist", path, target)
		}
		return tf, ""
	}
	if errors.Is(err, syscall.ENOTDIR) {
		return tf, path + " cannot exist: part of its directory path is a file"
	}
	if err != nil {
		return tf, fmt.Sprintf("cannot read %s: %v", path, pathErr(err))
	}
	if info.IsDir() {
		return tf, path + " is a directory, not a file"
	}
	if !info.Mode().IsRegular() {
		// A FIFO would block the read forever; a device is not a document.
		return tf, path + " is not a regular file"
	}
	if info.Size() > MaxFileSize {
		return tf, fmt.Sprintf("%s is too large (%d bytes; the file tools stop at %d MiB)", path, info.Size(), MaxFileSize>>20)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		// Write the file the link points to, not over the link.
		tf.abs = real
	}
	data, err := readRegular(tf.abs) // O_NONBLOCK, checked once open, bounded
	if err != nil {
		return tf, fmt.Sprintf("cannot read %s: %v", path, pathErr(err))
	}
	if strings.IndexByte(string(data[:min(len(data), binarySniff)]), 0) >= 0 {
		return tf, path + " is a binary file (it contains NUL bytes)" + refuse
	}
	if !utf8.Valid(data) {
		return tf, path + " is not UTF-8 text" + refuse
	}
	tf.exists, tf.info, tf.content = true, info, string(data)
	return tf, ""
}

// fileArgError is the text for arguments that do not decode.
func fileArgError(tool string, err error) string {
	return fmt.Sprintf("[error: %s: bad arguments: %v]", tool, err)
}

// lineEnding is how a file ends its lines.
type lineEnding int

const (
	endingLF    lineEnding = iota // "\n" only (or no line break at all)
	endingCRLF                    // every "\n" preceded by "\r"
	endingMixed                   // both: left exactly as found
)

func detectEnding(s string) lineEnding {
	crlf := strings.Count(s, "\r\n")
	if crlf == 0 {
		return endingLF
	}
	if crlf == strings.Count(s, "\n") {
		return endingCRLF
	}
	return endingMixed
}

const utf8BOM = "\uFEFF"

// normalized is a file's text the way the edit logic works on it: without
// a byte-order mark and, for a CRLF file, with "\n" line breaks. Both are
// put back by denormalize, byte for byte.
type normalized struct {
	bom    bool
	ending lineEnding
}

func normalize(s string) (string, normalized) {
	var n normalized
	if strings.HasPrefix(s, utf8BOM) {
		n.bom, s = true, s[len(utf8BOM):]
	}
	n.ending = detectEnding(s)
	if n.ending == endingCRLF {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s, n
}

// text brings text the model sent (old, new, content) to the file's
// convention: "\r\n" becomes "\n" unless the file mixes both.
func (n normalized) text(s string) string {
	if n.ending != endingMixed {
		return strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s
}

func (n normalized) denormalize(s string) string {
	if n.ending == endingCRLF {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	if n.bom {
		s = utf8BOM + s
	}
	return s
}

// countNoun writes "1 edit", "2 edits".
func countNoun(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
