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
	"time"
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
func (o FileOptions) apply(ctx context.Context, c FileChange) error {
	if err := c.apply(ctx); err != nil {
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
	// Preview is the report as the permission prompt shows it, before
	// the change is made ("1 edit would apply"); "" means Report.
	Preview string

	// editor, when set, is where Old was read and where New is written
	// (FileOptions.Editor); onDisk says whether the file existed on disk
	// too (a buffer the editor holds for a path not on disk has none).
	editor Editor
	onDisk bool
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
// keeps its mode. The error's text is for the model. A change planned
// from an editor's buffer is written through the editor (applyEditor).
func (c FileChange) Apply() error {
	return c.apply(context.Background())
}

func (c FileChange) apply(ctx context.Context) error {
	if c.editor != nil {
		return c.applyEditor(ctx)
	}
	info, err := c.stillAsPlanned(c.Existed)
	if err != nil {
		return err
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
	editor  Editor // content came from this editor's buffer
	onDisk  bool   // the file exists on disk (info is set)
}

// change is the start of a FileChange to this file.
func (tf textFile) change(path string) FileChange {
	return FileChange{Path: path, AbsPath: tf.abs, Old: tf.content, Existed: tf.exists, editor: tf.editor, onDisk: tf.onDisk}
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
//
// With an editor (o.Editor), the disk is checked first, the same way, and
// the text is then the editor's buffer (loadFromEditor).
func loadText(ctx context.Context, o FileOptions, path, refuse string) (tf textFile, failure string) {
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
		if o.Editor != nil {
			return loadFromEditor(ctx, o.Editor, tf, path, refuse)
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
	content := string(data)
	if failure := textFailure(path, content, refuse); failure != "" {
		return tf, failure
	}
	tf.exists, tf.info, tf.content, tf.onDisk = true, info, content, true
	if o.Editor != nil {
		return loadFromEditor(ctx, o.Editor, tf, path, refuse)
	}
	return tf, ""
}

// textFailure is the refusal of content that is not text, or "".
func textFailure(path, content, refuse string) string {
	if strings.IndexByte(content[:min(len(content), binarySniff)], 0) >= 0 {
		return path + " is a binary file (it contains NUL bytes)" + refuse
	}
	if !utf8.ValidString(content) {
		return path + " is not UTF-8 text" + refuse
	}
	return ""
}

// EditorTimeout bounds each call to an editor (FileOptions.Editor). A
// planned write reads the buffer before any context exists (Tool.Plan
// takes none), and an editor answers from memory at once: the bound only
// keeps a client that never answers from holding the turn forever.
var EditorTimeout = 10 * time.Second

// loadFromEditor replaces what the disk said of tf by the editor's buffer:
// unsaved changes are what the model must see and edit. The disk's checks
// have passed; the buffer gets the same ones. A file missing on disk but
// held by the editor (a new buffer not saved yet, a file deleted under an
// open buffer) exists with the buffer's text; a failed read, or an empty
// buffer, of a file missing on disk means no file, as on disk (an editor
// may answer "" for a path it does not hold).
func loadFromEditor(ctx context.Context, e Editor, tf textFile, path, refuse string) (textFile, string) {
	tf.editor = e // a new file too is written through the editor
	text, err := editorRead(ctx, e, tf.abs)
	if !tf.onDisk {
		if err != nil || text == "" {
			return tf, ""
		}
	} else if err != nil {
		return tf, fmt.Sprintf("cannot read %s: %v", path, err)
	}
	if len(text) > MaxFileSize {
		return tf, fmt.Sprintf("%s is too large (%d bytes in the editor; the file tools stop at %d MiB)", path, len(text), MaxFileSize>>20)
	}
	if failure := textFailure(path, text, refuse); failure != "" {
		return tf, failure
	}
	tf.exists, tf.content = true, text
	return tf, ""
}

// editorRead and editorWrite call the editor within EditorTimeout, and
// turn a timeout into a text the model can act on.
func editorRead(ctx context.Context, e Editor, abs string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, EditorTimeout)
	defer cancel()
	text, err := e.ReadTextFile(ctx, abs)
	return text, editorErr(ctx, err)
}

func editorWrite(ctx context.Context, e Editor, abs, content string) error {
	ctx, cancel := context.WithTimeout(ctx, EditorTimeout)
	defer cancel()
	return editorErr(ctx, e.WriteTextFile(ctx, abs, content))
}

func editorErr(ctx context.Context, err error) error {
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("the editor did not answer within %v", EditorTimeout)
	}
	return err
}

// stillAsPlanned checks the disk before a write: a file created since the
// plan (of a new file) or deleted since (onDisk: the plan saw it there) is
// refused. It returns the file's info, nil when there is no file.
func (c FileChange) stillAsPlanned(onDisk bool) (os.FileInfo, error) {
	info, err := os.Stat(c.AbsPath)
	switch {
	case err == nil && !c.Existed:
		return nil, fmt.Errorf("%s was created by someone else meanwhile — nothing written; read it first", c.Path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("cannot write %s: %v", c.Path, pathErr(err))
	case err != nil && onDisk:
		return nil, fmt.Errorf("%s was deleted meanwhile — nothing written", c.Path)
	case err != nil:
		return nil, nil
	}
	return info, nil
}

// applyEditor is Apply for a change planned from an editor's buffer: the
// disk's refusals first (a file created or deleted meanwhile, one mm may
// not replace), then the buffer is read again and must still hold Old
// (or, for a new file, still hold nothing), then New is written through
// the editor, which shows it and saves it. The disk itself is not
// written: two writers of one file would race.
func (c FileChange) applyEditor(ctx context.Context) error {
	info, err := c.stillAsPlanned(c.onDisk)
	if err != nil {
		return err
	}
	if info != nil {
		if err := atomicfile.CheckReplace(c.AbsPath, info); err != nil {
			return refusal(c.Path, err)
		}
	}
	cur, err := editorRead(ctx, c.editor, c.AbsPath)
	switch {
	case c.Existed && err != nil:
		return fmt.Errorf("cannot read %s again before writing: %v", c.Path, err)
	case c.Existed && cur != c.Old:
		return fmt.Errorf("%s changed in the editor since it was read — nothing written; read it again", c.Path)
	case !c.Existed && err == nil && cur != "":
		return fmt.Errorf("%s was created by someone else meanwhile — nothing written; read it first", c.Path)
	case !c.Existed:
		// An editor may not create missing directories; write_file does.
		if err := os.MkdirAll(filepath.Dir(c.AbsPath), 0o777); err != nil {
			return fmt.Errorf("cannot create the directory of %s: %v", c.Path, pathErr(err))
		}
	}
	if err := editorWrite(ctx, c.editor, c.AbsPath, c.New); err != nil {
		return fmt.Errorf("cannot write %s: %v", c.Path, err)
	}
	return nil
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
