package project

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"mm/internal/ownfile"
)

// InstructionsFile is the name of the project instructions file.
const InstructionsFile = "AGENTS.md"

// MaxInstructions bounds what of AGENTS.md goes to the model: it is read
// on every request, by a small model, in front of the conversation.
const MaxInstructions = 8 << 10

// Instructions is the AGENTS.md that goes to the model.
type Instructions struct {
	// Path is the file's absolute path, "" when there is none to use.
	Path string
	// Shown is Path as the banner and the warnings show it: relative to the
	// working directory ("AGENTS.md", "../../AGENTS.md").
	Shown string
	// Text is its content, cut at MaxInstructions on a line boundary (on a
	// character boundary when one line is longer), valid UTF-8.
	Text string
	Cut  bool
}

// ReadInstructions finds the nearest AGENTS.md from cwd up to root (the
// project root of cwd) and reads it, once: the caller puts its bytes in
// every request, so a file changed during the session changes nothing.
//
// The file comes with the project, so it is read with care: a symbolic
// link is followed only to a file inside the project (AGENTS.md →
// docs/agents.md), never out of it; anything but a regular file (a FIFO
// that would block, a device) is not opened. Each refusal, and a cut,
// gives a start-up warning.
func ReadInstructions(cwd, root string) (Instructions, []string) {
	path := find(cwd, root)
	if path == "" {
		return Instructions{}, nil
	}
	in := Instructions{Path: path, Shown: path}
	if abs, err := filepath.Abs(cwd); err == nil {
		if rel, err := filepath.Rel(abs, path); err == nil {
			in.Shown = rel
		}
	}
	refuse := func(why string) (Instructions, []string) {
		return Instructions{}, []string{fmt.Sprintf("[warning: %s %s — not read]", in.Shown, why)}
	}

	open := path
	fi, err := os.Lstat(path)
	if err != nil {
		return refuse("cannot be read: " + reason(err))
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return refuse("is a symbolic link that cannot be followed: " + reason(err))
		}
		if !inside(target, root) {
			return refuse("is a symbolic link out of the project")
		}
		if fi, err = os.Lstat(target); err != nil {
			return refuse("cannot be read: " + reason(err))
		}
		open = target
	}
	if !fi.Mode().IsRegular() {
		return refuse("is not a regular file")
	}
	data, err := ownfile.ReadHead(open, MaxInstructions+1)
	if err != nil {
		return refuse("cannot be read: " + reason(err))
	}
	if len(data) > MaxInstructions {
		data, in.Cut = cut(data, MaxInstructions), true
	}
	in.Text = strings.ToValidUTF8(string(data), "\uFFFD")
	if strings.TrimSpace(in.Text) == "" {
		// An empty file says nothing: nothing is added, nothing is shown.
		return Instructions{}, nil
	}
	var warnings []string
	if in.Cut {
		lines := strings.Count(in.Text, "\n")
		if !strings.HasSuffix(in.Text, "\n") {
			lines++
		}
		warnings = append(warnings, fmt.Sprintf("[warning: %s is over %d KB: only its first %d lines go to the model]", in.Shown, MaxInstructions>>10, lines))
	}
	return in, warnings
}

// find is the nearest AGENTS.md at or above cwd, up to root; "" when none.
func find(cwd, root string) string {
	at, err := filepath.Abs(cwd)
	if err != nil {
		return ""
	}
	root = filepath.Clean(root)
	for {
		p := filepath.Join(at, InstructionsFile)
		if _, err := os.Lstat(p); err == nil {
			return p
		}
		up := filepath.Dir(at)
		if at == root || up == at || !inside(up, root) {
			return ""
		}
		at = up
	}
}

// inside reports whether path is root or under it, links resolved on both
// sides (a project reached through a link still holds its own files).
func inside(path, root string) bool {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// cut keeps at most limit bytes of data: up to the last line end, or on a
// character boundary when there is none.
func cut(data []byte, limit int) []byte {
	n := limit
	for n > 0 && !utf8.RuneStart(data[n]) {
		n--
	}
	data = data[:n]
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		return data[:i+1]
	}
	return data
}

// reason is an error without the path the warning already gives.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
