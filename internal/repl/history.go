package repl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
type history struct {
	lines []string
	f     *os.File // nil: no history is written
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
		// when recalled, so it is made inert like any outside text.
		if l = strings.TrimSpace(termsafe.Text(l)); l != "" {
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
	_, err = f.WriteString(strings.Join(h.lines, "\n") + "\n")
	if cerr := f.Close(); err == nil && cerr == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
}

// add appends a question.
func (h *history) add(line string) {
	line = strings.TrimSpace(line)
	if h.f == nil || line == "" || strings.ContainsAny(line, "\n\r") {
		return
	}
	h.f.WriteString(line + "\n")
}

func (h *history) close() {
	if h.f != nil {
		h.f.Close()
	}
}
