// Package skills finds the skills in skillsDir: markdown files of
// instructions for one kind of task that the model loads with the
// read_skill tool when the task matches.
//
// A skill is either a flat file `<name>.md` or a directory `<name>/SKILL.md`
// directly in the skills directory; when both exist for one name the flat
// file wins. Its one-line description comes from the file's YAML front
// matter (Anthropic's SKILL.md format), else from the first line of text of
// the body.
//
// Load runs at every start, so it reads only the head of each file.
package skills

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"mm/internal/textcut"
)

// Skill is one skill found in the skills directory.
type Skill struct {
	// Name is the file name without `.md`, or the directory name: the name
	// the model passes to read_skill. A `name` in the front matter does not
	// change it, since the model's call is resolved against the file system.
	Name string
	// Description is one line, for the read_skill catalogue.
	Description string
	// Path is the file to read: `<dir>/<name>.md` or `<dir>/<name>/SKILL.md`.
	Path string
}

// File names and sizes of the two forms and of the description.
const (
	// Ext is the extension of a flat skill file.
	Ext = ".md"
	// DirFile is the file a directory skill is read from.
	DirFile = "SKILL.md"

	// HeadSize is how much of each file Load reads: the front matter or the
	// first line of text sit at the top, and reading whole files at every
	// start would cost for nothing.
	HeadSize = 8 << 10

	// MaxBodyDescription is the length (in characters) a description taken
	// from the body is cut to: it is a first line, not written to be one,
	// and the catalogue goes out with every request.
	MaxBodyDescription = 100
	// MaxFrontMatterDescription is the length a front-matter description is
	// cut to. It was written as a description, so it gets more room, but a
	// small model still reads it on every request.
	MaxFrontMatterDescription = 300
)

// Resolve returns the absolute skills directory for the skillsDir setting.
//
// The reference's rule: a relative skillsDir is resolved from the directory
// mm was started in (terminal mode, or ACP mode without a configuration
// file), or next to the configuration file (ACP mode with a file). The
// caller passes that directory as base; "" means the process's working
// directory. An absolute skillsDir is kept as it is (cleaned).
//
// An empty skillsDir turns skills off: Resolve returns "", for which Load
// finds nothing and Warning says nothing. Resolving it to base would make
// every markdown file of the project (README.md…) a skill.
func Resolve(skillsDir string, base string) string {
	if skillsDir == "" {
		return ""
	}
	if filepath.IsAbs(skillsDir) {
		return filepath.Clean(skillsDir)
	}
	if base == "" {
		base, _ = os.Getwd()
	}
	p := filepath.Join(base, skillsDir)
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// Warning is the banner's warning when dir holds no skill (n == 0), with the
// absolute path, so the user sees where mm looked; "" when there are skills
// or when skills are off (dir == "").
func Warning(dir string, n int) string {
	if n > 0 || dir == "" {
		return ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return fmt.Sprintf("[warning: no skills found in %s — read_skill is not declared]", dir)
}

// Load lists the skills directly in dir, sorted by name.
//
// A missing dir (or dir == "") is not an error: the list is empty. A file
// that cannot be read or whose front matter is malformed is skipped; the
// others are still returned, and the returned error (errors.Join of one
// error per skipped file) says what was skipped. So a non-nil error does not
// mean an empty list: print it as warnings (see Warnings) and use the list.
// Only a dir that exists but cannot be listed gives no skills and an error.
func Load(dir string) ([]Skill, error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("skills directory %s cannot be read: %v", dir, unwrapPath(err))
	}
	var (
		list []Skill
		errs []error
		seen = map[string]bool{}
	)
	for _, e := range entries {
		var name string
		switch {
		case strings.HasSuffix(e.Name(), Ext):
			name = strings.TrimSuffix(e.Name(), Ext)
		case e.IsDir() || e.Type()&fs.ModeSymlink != 0:
			name = e.Name()
		default:
			continue // notes.txt, a script beside the skills: not a skill
		}
		// `x.md` and `x/` are two entries for one name: the first one met
		// settles it, and locate applies the flat-wins rule whichever it is.
		if !validName(name) || seen[name] {
			continue
		}
		seen[name] = true
		path, found, err := locate(dir, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !found {
			continue // a directory without SKILL.md: a helper directory, not a skill
		}
		desc, err := describe(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("skill %s skipped: %v", path, err))
			continue
		}
		list = append(list, Skill{Name: name, Description: desc, Path: path})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list, errors.Join(errs...)
}

// Warnings turns Load's error into the banner's warning lines, one per
// skipped file (or one for an unreadable directory).
func Warnings(err error) []string {
	if err == nil {
		return nil
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, "[warning: "+e.Error()+"]")
	}
	return out
}

// Locate returns the file of the skill called exactly name in dir: the flat
// file `<name>.md` when it is a regular file (or a link to one), else
// `<name>/SKILL.md`. name must be a plain name: one that holds a path
// separator, is hidden, or is "." or ".." is never found, so a name can
// never reach outside dir. Links inside dir are followed: it is the user's
// own directory.
func Locate(dir, name string) (string, bool) {
	if dir == "" || !validName(name) {
		return "", false
	}
	path, found, err := locate(dir, name)
	return path, found && err == nil
}

// locate is Locate for a name already checked. Not found is no error: a
// directory without SKILL.md is a helper directory, not a skill. A skill
// file that exists but cannot be used (a broken link, no permission) is an
// error, since the user put it there to be a skill.
func locate(dir, name string) (string, bool, error) {
	flat := filepath.Join(dir, name+Ext)
	info, err := os.Stat(flat)
	switch {
	case err == nil && info.Mode().IsRegular():
		return flat, true, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return "", false, fmt.Errorf("skill %s skipped: %v", flat, unwrapPath(err))
	}
	nested := filepath.Join(dir, name, DirFile)
	info, err = os.Stat(nested)
	switch {
	case err == nil && info.Mode().IsRegular():
		return nested, true, nil
	case err == nil:
		return "", false, fmt.Errorf("skill %s skipped: not a regular file", nested)
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return "", false, fmt.Errorf("skill %s skipped: %v", nested, unwrapPath(err))
	}
	// Neither form: a link to a file that is gone stats as not existing,
	// yet it was made to be a skill.
	for _, p := range []string{flat, nested} {
		if li, err := os.Lstat(p); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			return "", false, fmt.Errorf("skill %s skipped: broken symbolic link", p)
		}
	}
	return "", false, nil
}

// validName reports whether name can be a skill name: a single path element,
// not hidden, on one line (it goes on a catalogue line).
func validName(name string) bool {
	return name != "" && name != "." && name != ".." &&
		!strings.HasPrefix(name, ".") &&
		!strings.ContainsAny(name, "/\\\n\r") &&
		name == filepath.Base(name)
}

// describe reads the head of a skill file and returns its description.
func describe(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", unwrapPath(err)
	}
	defer f.Close()
	head := make([]byte, HeadSize)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", unwrapPath(err)
	}
	return describeHead(head[:n], n == HeadSize)
}

// describeHead returns the description of a skill from the start of its
// file. cut says the file goes on past head, so a front matter not closed
// within head may be closed further down.
func describeHead(head []byte, cut bool) (string, error) {
	if bytes.IndexByte(head, 0) >= 0 {
		return "", errors.New("binary file (it contains NUL bytes)")
	}
	if cut {
		head = textcut.TrimPartialEnd(head)
	}
	text := strings.ToValidUTF8(string(head), "\uFFFD")
	text = strings.TrimPrefix(text, "\uFEFF")
	fm, body, hasFM, err := splitFrontMatter(text, cut)
	if err != nil {
		return "", err
	}
	if hasFM {
		desc, err := frontMatterDescription(fm)
		if err != nil {
			return "", fmt.Errorf("front matter: %v", err)
		}
		if d := oneLine(desc); d != "" {
			return cutText(d, MaxFrontMatterDescription), nil
		}
	}
	if d := firstLine(body); d != "" {
		return cutText(d, MaxBodyDescription), nil
	}
	return "", errors.New("no description: add a front matter description or a line of text")
}

// frontMatterDescription reads the description key of a front matter. It
// decodes to a yaml.Node rather than a struct so that the messages say
// what is wrong in the user's words, not in Go types.
func frontMatterDescription(fm string) (string, error) {
	var doc yaml.Node
	// The leading newline stands for the opening `---`, so the line
	// numbers in yaml's errors are the file's.
	if err := yaml.Unmarshal([]byte("\n"+fm), &doc); err != nil {
		return "", errors.New(oneLine(err.Error()))
	}
	if len(doc.Content) == 0 {
		return "", nil // an empty front matter
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return "", fmt.Errorf("line %d: expected `key: value` lines", m.Line)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != "description" {
			continue
		}
		v := m.Content[i+1]
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
			return "", nil
		case v.Kind == yaml.ScalarNode:
			return v.Value, nil
		}
		return "", fmt.Errorf("line %d: description must be one line of text", v.Line)
	}
	return "", nil
}

// splitFrontMatter separates a leading `---` … `---` (or `...`) block. A
// first line `---` without a closing line is an error, not a thematic
// break: the user who writes it at the top of a skill means front matter.
func splitFrontMatter(text string, cut bool) (fm, body string, ok bool, err error) {
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t\r") != "---" {
		return "", text, false, nil
	}
	for pos := 0; pos < len(rest); {
		line, after, more := strings.Cut(rest[pos:], "\n")
		if l := strings.TrimRight(line, " \t\r"); l == "---" || l == "..." {
			if !more && cut {
				break // the head ends here: this may be the start of a longer line
			}
			return rest[:pos], after, true, nil
		}
		if !more {
			break
		}
		pos += len(line) + 1
	}
	if cut {
		return "", "", false, fmt.Errorf("front matter is not closed within the first %d KiB", HeadSize>>10)
	}
	return "", "", false, errors.New("front matter is not closed (no line `---` after it)")
}

// firstLine is the first line of text of a markdown body: not blank, not a
// heading, not an HTML comment or a rule, with a list or quote marker
// dropped. Without one, the first heading's text will do: a skill that is
// only a title still says something.
func firstLine(body string) string {
	heading, fence := "", false
	for _, line := range strings.Split(body, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			fence = !fence // code is not a description
			continue
		}
		switch {
		case fence, l == "", strings.HasPrefix(l, "<!--"), isRule(l):
			continue
		case strings.HasPrefix(l, "#"):
			if heading == "" {
				heading = strings.TrimSpace(strings.Trim(l, "#"))
			}
			continue
		}
		for _, m := range []string{"> ", "- ", "* ", "+ "} {
			l = strings.TrimPrefix(l, m)
		}
		if l = oneLine(l); l != "" {
			return l
		}
	}
	return oneLine(heading)
}

// isRule reports a thematic break or a setext underline (`---`, `===`,
// `***`): a line of one repeated mark says nothing.
func isRule(l string) bool {
	l = strings.ReplaceAll(l, " ", "")
	if len(l) < 3 {
		return false
	}
	return strings.Trim(l, string(l[0])) == "" && strings.ContainsRune("-=*_", rune(l[0]))
}

// oneLine collapses every run of white space (newlines included) to one
// space: a description sits on one catalogue line.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// cutText cuts s to at most max characters, on a word boundary when one is
// near, and marks the cut with an ellipsis.
func cutText(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)[:max-1]
	if i := lastSpace(r); i > max/2 {
		r = r[:i]
	}
	return strings.TrimRight(string(r), " ,;:.-—") + "…"
}

func lastSpace(r []rune) int {
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] == ' ' {
			return i
		}
	}
	return -1
}

// unwrapPath drops the operation and path of an *fs.PathError: the
// messages already name the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
