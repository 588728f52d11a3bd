package repl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mm/internal/ownfile"
	"mm/internal/termsafe"
)

// historyLimit is how many questions the history keeps.
const historyLimit = 1000

// history is the line mode's .mm/history, kept by mm rather than by
// readline: the project directory is untrusted, and readline opens (and
// rewrites through "history.tmp") whatever a cloned repository put there,
// following symbolic links. mm refuses a link or a special file there,
// with a notice, and creates the file 0600 in a 0700 .mm.
//
// The file holds one question a line. A question of several lines (a
// paste) is written as histQuoted followed by the Go-quoted text, so it
// stays one line; any other line is the question as typed, as in the
// files of earlier versions.
type history struct {
	lines []string // the questions, oldest first; a paste with its newlines
	f     *os.File // nil: no history is written
}

// histQuoted starts a line that holds a quoted question.
const histQuoted = "⏎ "

// encodeEntry is the line of the file that holds the question q.
func encodeEntry(q string) string {
	if strings.ContainsAny(q, "\n\r") || strings.HasPrefix(q, histQuoted) {
		return histQuoted + strconv.Quote(q)
	}
	return q
}

// decodeEntry is the question a line of the file holds: a line that only
// looks quoted (an old file's) is taken as typed.
func decodeEntry(line string) string {
	if rest, ok := strings.CutPrefix(line, histQuoted); ok {
		if q, err := strconv.Unquote(rest); err == nil {
			return q
		}
	}
	return line
}

// openHistory loads and opens the history of the project at dir. The
// warning, when not "", says why there is no history file.
func openHistory(dir string) (*history, string) {
	h := &history{}
	mmDir, err := ownfile.Dir(dir, ".mm")
	if err != nil {
		return h, "no history is kept: " + err.Error()
	}
	path := filepath.Join(mmDir, "history")
	data, err := ownfile.ReadFile(path, 4<<20)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return h, "no history is kept: " + err.Error()
	}
	for _, l := range strings.Split(string(data), "\n") {
		// The file may come with the project: what it holds is shown
		// when recalled, so it is made inert like any outside text
		// (a quoted question too, once unquoted).
		if l = strings.TrimSpace(termsafe.Text(decodeEntry(l))); l != "" {
			h.lines = append(h.lines, l)
		}
	}
	if len(h.lines) > historyLimit {
		h.lines = h.lines[len(h.lines)-historyLimit:]
		h.rewrite(path)
	}
	if h.f, err = ownfile.OpenAppend(path); err != nil {
		return h, "no history is kept: " + err.Error()
	}
	return h, ""
}

// rewrite replaces the file by its last historyLimit lines, through a
// new file renamed over it (a rename replaces a link, never its target).
func (h *history) rewrite(path string) {
	tmp := path + ".new"
	os.Remove(tmp)
	f, err := ownfile.Create(tmp)
	if err != nil {
		return
	}
	var b strings.Builder
	for _, l := range h.lines {
		b.WriteString(encodeEntry(l) + "\n")
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil && cerr == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
}

// add appends a question, a paste as its text (never its placeholder).
func (h *history) add(line string) {
	line = strings.TrimSpace(line)
	if h.f == nil || line == "" {
		return
	}
	h.f.WriteString(encodeEntry(line) + "\n")
}

func (h *history) close() {
	if h.f != nil {
		h.f.Close()
	}
}
