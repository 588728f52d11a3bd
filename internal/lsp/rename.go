package lsp

// rename: ask the server for a WorkspaceEdit, apply it to the files on
// disk, tell the servers, and report what changed.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"mm/internal/atomicfile"
)

// renameNeedsNewName is the reference's text for a rename without a new
// name, with the call to make filled in.
func renameNeedsNewName(r Request) string {
	args := fmt.Sprintf(`"action": "rename", "path": %s`, quoteJSON(r.Path))
	if r.Symbol != "" {
		args += `, "symbol": ` + quoteJSON(r.Symbol)
	} else {
		args += fmt.Sprintf(`, "line": %d, "column": %d`, r.Line, r.Column)
	}
	return `[lsp: rename needs new_name — call lsp again with {` + args + `, "new_name": "<the new identifier>"}; do not use edit_file for a rename]`
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (c *call) rename(ctx context.Context) string {
	if c.req.NewName == "" {
		req := c.req
		req.Symbol = c.pickSymbol()
		return renameNeedsNewName(req)
	}
	if !c.p.supports("renameProvider") {
		return fmt.Sprintf("[lsp: %s: rename failed: the server does not provide rename]", c.s.Name)
	}
	positions, failure := c.targets()
	if failure != "" {
		return failure
	}
	if sym := c.pickSymbol(); sym == c.req.NewName {
		return fmt.Sprintf("[lsp: %q is already called %s: nothing to rename]", sym, c.req.NewName)
	}
	var we workspaceEdit
	_, failure = c.try(ctx, "rename", positions, func(pos position) (bool, error) {
		we = workspaceEdit{}
		params := map[string]any{"textDocument": textDocumentID{URI: c.doc.uri}, "position": pos, "newName": c.req.NewName}
		if err := c.p.call(ctx, "textDocument/rename", params, &we); err != nil {
			return false, err
		}
		return len(we.Changes) > 0 || len(we.DocumentChanges) > 0, nil
	})
	if failure != "" {
		return failure
	}
	plan, err := c.planEdit(we)
	if err != nil {
		return fmt.Sprintf("[lsp: %s: rename failed: %v — nothing written]", c.s.Name, err)
	}
	if err := plan.refused(c.m); err != nil {
		return fmt.Sprintf("[lsp: %s: rename refused: %v — nothing written]", c.s.Name, err)
	}
	changed, created, err := plan.apply()
	if len(changed) > 0 {
		// Whatever was written, every server hears of it, this one first.
		c.p.filesChanged(changed, created)
		c.m.changed(c.s, changed, created)
	}
	if err != nil {
		return fmt.Sprintf("[lsp: %s: rename failed while writing: %v — %s]", c.s.Name, err, plan.writtenSoFar(c.m))
	}
	return plan.report(c.m, c.req.NewName)
}

// editPlan is a WorkspaceEdit worked out in memory before anything is
// written: the steps to take on disk, in order, and the counts to report.
type editPlan struct {
	steps   []editStep
	edits   map[string]int // text edits per file (absolute path at the time of the edit)
	renamed [][2]string    // file renames, old → new
	done    int            // steps carried out
}

type editStep struct {
	op       string // "write", "rename", "delete"
	abs, to  string
	content  string
	info     os.FileInfo // the file's mode to keep (nil: a new file)
	existed  bool
	recurses bool
}

// vfile is a file as the plan sees it while working out the steps.
type vfile struct {
	exists  bool
	content string
	info    os.FileInfo
}

// planEdit checks and works out the whole edit first, so that an edit
// that cannot be applied (a range past the end, overlapping edits, a file
// outside the project) writes nothing at all.
func (c *call) planEdit(we workspaceEdit) (*editPlan, error) {
	plan := &editPlan{edits: map[string]int{}}
	files := map[string]*vfile{}
	get := func(abs string) (*vfile, error) {
		if f, ok := files[abs]; ok {
			return f, nil
		}
		f := &vfile{}
		info, err := os.Stat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		case info.IsDir():
			return nil, fmt.Errorf("%s is a directory", c.m.display(abs))
		default:
			data, err := os.ReadFile(abs)
			if err != nil {
				return nil, err
			}
			f.exists, f.content, f.info = true, string(data), info
		}
		files[abs] = f
		return f, nil
	}
	path := func(uri string) (string, error) {
		abs, ok := uriToPath(uri)
		if !ok {
			return "", fmt.Errorf("the server sent an edit for %s, which is not a file", uri)
		}
		if !c.m.inside(abs) {
			return "", fmt.Errorf("the server wants to change %s, outside the project", abs)
		}
		return abs, nil
	}
	textEdits := func(uri string, edits []textEdit) error {
		abs, err := path(uri)
		if err != nil {
			return err
		}
		f, err := get(abs)
		if err != nil {
			return err
		}
		if !f.exists {
			return fmt.Errorf("the server wants to edit %s, which does not exist", c.m.display(abs))
		}
		out, err := applyTextEdits(f.content, edits)
		if err != nil {
			return fmt.Errorf("%s: %v", c.m.display(abs), err)
		}
		f.content = out
		plan.edits[abs] += len(edits)
		plan.steps = append(plan.steps, editStep{op: "write", abs: abs, content: out, info: f.info, existed: true})
		return nil
	}

	if len(we.DocumentChanges) > 0 {
		for _, raw := range we.DocumentChanges {
			var dc documentChange
			if err := json.Unmarshal(raw, &dc); err != nil {
				return nil, fmt.Errorf("unreadable edit from the server: %v", err)
			}
			switch dc.Kind {
			case "":
				if err := textEdits(dc.TextDocument.URI, dc.Edits); err != nil {
					return nil, err
				}
			case "create":
				abs, err := path(dc.URI)
				if err != nil {
					return nil, err
				}
				f, err := get(abs)
				if err != nil {
					return nil, err
				}
				if f.exists {
					if dc.Options != nil && dc.Options.IgnoreIfExists {
						continue
					}
					if dc.Options == nil || !dc.Options.Overwrite {
						return nil, fmt.Errorf("the server wants to create %s, which exists", c.m.display(abs))
					}
				}
				f.exists, f.content = true, ""
				plan.steps = append(plan.steps, editStep{op: "write", abs: abs, info: f.info})
			case "rename":
				from, err := path(dc.OldURI)
				if err != nil {
					return nil, err
				}
				to, err := path(dc.NewURI)
				if err != nil {
					return nil, err
				}
				src, err := get(from)
				if err != nil {
					return nil, err
				}
				dst, err := get(to)
				if err != nil {
					return nil, err
				}
				if !src.exists {
					return nil, fmt.Errorf("the server wants to rename %s, which does not exist", c.m.display(from))
				}
				if dst.exists {
					if dc.Options != nil && dc.Options.IgnoreIfExists {
						continue
					}
					if dc.Options == nil || !dc.Options.Overwrite {
						return nil, fmt.Errorf("the server wants to rename %s to %s, which exists", c.m.display(from), c.m.display(to))
					}
				}
				*dst = *src
				*src = vfile{}
				plan.renamed = append(plan.renamed, [2]string{from, to})
				plan.steps = append(plan.steps, editStep{op: "rename", abs: from, to: to})
				if n, ok := plan.edits[from]; ok {
					delete(plan.edits, from)
					plan.edits[to] += n
				}
			case "delete":
				abs, err := path(dc.URI)
				if err != nil {
					return nil, err
				}
				f, err := get(abs)
				if err != nil {
					return nil, err
				}
				if !f.exists {
					if dc.Options != nil && dc.Options.IgnoreIfNotExists {
						continue
					}
					return nil, fmt.Errorf("the server wants to delete %s, which does not exist", c.m.display(abs))
				}
				*f = vfile{}
				plan.steps = append(plan.steps, editStep{op: "delete", abs: abs, recurses: dc.Options != nil && dc.Options.Recursive})
			default:
				return nil, fmt.Errorf("unknown change kind %q from the server", dc.Kind)
			}
		}
	} else {
		for _, uri := range sortedKeys(we.Changes) {
			if err := textEdits(uri, we.Changes[uri]); err != nil {
				return nil, err
			}
		}
	}
	plan.compact()
	return plan, nil
}

// compact merges consecutive writes of one file into the last one.
func (p *editPlan) compact() {
	var out []editStep
	for _, st := range p.steps {
		if st.op == "write" && len(out) > 0 {
			last := &out[len(out)-1]
			if last.op == "write" && last.abs == st.abs {
				last.content = st.content
				continue
			}
		}
		out = append(out, st)
	}
	p.steps = out
}

// applyTextEdits applies edits, all relative to text, from the last to
// the first. Overlapping edits are refused, as the protocol forbids them.
func applyTextEdits(text string, edits []textEdit) (string, error) {
	l := splitLines(text)
	type span struct {
		from, to int
		text     string
		order    int
	}
	spans := make([]span, len(edits))
	for i, e := range edits {
		if less(e.Range.End, e.Range.Start) {
			return "", fmt.Errorf("an edit ends before it starts (line %d)", e.Range.Start.Line+1)
		}
		if e.Range.Start.Line >= l.count() {
			return "", fmt.Errorf("an edit starts at line %d, past the end of the file (%d lines)", e.Range.Start.Line+1, l.editorCount())
		}
		spans[i] = span{l.offset(e.Range.Start), l.offset(e.Range.End), e.NewText, i}
	}
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].from != spans[j].from {
			return spans[i].from < spans[j].from
		}
		return spans[i].order < spans[j].order
	})
	for i := 1; i < len(spans); i++ {
		if spans[i].from < spans[i-1].to {
			return "", errors.New("the server sent overlapping edits")
		}
	}
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, s := range spans {
		b.WriteString(text[at:s.from])
		b.WriteString(s.text)
		at = s.to
	}
	b.WriteString(text[at:])
	return b.String(), nil
}

// apply carries the steps out on disk, each file written atomically. It
// returns the files that changed (for the servers) and which of them are
// new.
func (p *editPlan) apply() (changed []string, created map[string]bool, err error) {
	created = map[string]bool{}
	seen := map[string]bool{}
	note := func(abs string) {
		if !seen[abs] {
			seen[abs] = true
			changed = append(changed, abs)
		}
	}
	for _, st := range p.steps {
		switch st.op {
		case "write":
			if st.info == nil {
				if err = os.MkdirAll(filepath.Dir(st.abs), 0o777); err == nil {
					err = atomicfile.Write(st.abs, st.content, nil)
				}
				created[st.abs] = true
			} else {
				err = atomicfile.Write(st.abs, st.content, st.info)
			}
			note(st.abs)
		case "rename":
			if err = os.MkdirAll(filepath.Dir(st.to), 0o777); err == nil {
				err = os.Rename(st.abs, st.to)
			}
			note(st.abs)
			note(st.to)
			created[st.to] = true
		case "delete":
			if st.recurses {
				err = os.RemoveAll(st.abs)
			} else {
				err = os.Remove(st.abs)
			}
			note(st.abs)
		}
		if err != nil {
			return changed, created, err
		}
		p.done++
	}
	return changed, created, nil
}

// refused checks, before anything is written, that every file the plan
// replaces may be replaced (atomicfile.Write would refuse it too, but
// half-way through the plan): "main.go is read-only (mode 0444)".
func (p *editPlan) refused(m *Manager) error {
	for _, st := range p.steps {
		if st.op != "write" || st.info == nil {
			continue
		}
		if err := atomicfile.CheckReplace(st.abs, st.info); err != nil {
			var re *atomicfile.RefusedError
			if errors.As(err, &re) {
				return fmt.Errorf("%s %s", m.display(st.abs), re.Why)
			}
			return err
		}
	}
	return nil
}

// writtenSoFar says what a failed apply left behind.
func (p *editPlan) writtenSoFar(m *Manager) string {
	if p.done == 0 {
		return "nothing written"
	}
	var names []string
	for _, st := range p.steps[:p.done] {
		names = append(names, m.display(st.abs))
	}
	return "already changed: " + strings.Join(names, ", ")
}

// report is `renamed to <new>: N edit(s) in M file(s)` and a line per file.
func (p *editPlan) report(m *Manager, newName string) string {
	total := 0
	byShown := map[string]int{}
	for abs, n := range p.edits {
		total += n
		byShown[m.display(abs)] += n
	}
	var b strings.Builder
	fmt.Fprintf(&b, "renamed to %s: %d edit(s) in %d file(s)", newName, total, len(byShown))
	for _, f := range sortedKeys(byShown) {
		fmt.Fprintf(&b, "\n%s: %d edit(s)", f, byShown[f])
	}
	for _, r := range p.renamed {
		fmt.Fprintf(&b, "\n%s → %s: file renamed", m.display(r[0]), m.display(r[1]))
	}
	return b.String()
}
