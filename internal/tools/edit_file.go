package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

//go:embed edit_file.md
var editFileDescription string

const editFileSchema = `{"type":"object","properties":{` +
	`"path":{"type":"string","description":"File path."},` +
	`"edits":{"type":"array","items":{"type":"object","properties":{` +
	`"old":{"type":"string","description":"Exact text to replace, indentation included; add lines until it occurs once."},` +
	`"new":{"type":"string","description":"Replacement; empty deletes."}},"required":["old","new"]}},` +
	`"dry_run":{"type":"boolean","description":"Only report; write nothing."}},` +
	`"required":["path","edits"]}`

// NewEditFile returns the edit_file tool.
func NewEditFile(o FileOptions) *Tool {
	return &Tool{
		Name:        "edit_file",
		Description: strings.TrimSpace(editFileDescription),
		Schema:      MustSchema(editFileSchema),
		SchemaText:  editFileSchema,
		Kind:        KindEdit,
		Paths:       o.pathsOf,
		Mutates: func(args json.RawMessage) bool {
			a, err := decodeEditArgs(args)
			return err != nil || !a.DryRun
		},
		Summary: func(args json.RawMessage) string {
			a, err := decodeEditArgs(args)
			if err != nil || a.Path == "" {
				return string(args)
			}
			s := a.Path + " (" + countNoun(len(a.Edits), "edit")
			if a.DryRun {
				s += ", dry run"
			}
			return s + ")"
		},
		Run: func(ctx context.Context, args json.RawMessage) string {
			return planned(planFileCall(ctx, o, args, planEditChange), ctx)
		},
		Plan: func(args json.RawMessage) Planned { return planFileCall(context.Background(), o, args, planEditChange) },
	}
}

type editItem struct {
	Old *string `json:"old"`
	New *string `json:"new"`
}

type editArgs struct {
	Path   string     `json:"path"`
	Edits  []editItem `json:"edits"`
	DryRun bool       `json:"dry_run"`
}

func decodeEditArgs(args json.RawMessage) (editArgs, error) {
	var a editArgs
	err := json.Unmarshal(args, &a)
	return a, err
}

// editRegion is one resolved edit: the region of the original (normalized)
// text it replaces and what replaces it.
type editRegion struct {
	index      int // 0-based position in edits
	start, end int
	repl       string
	pass       matchPass
}

// editPlan is an edit_file call worked out on the normalized text.
type editPlan struct {
	text, result string // original and edited, normalized
	regions      []editRegion
}

// PlanEdit works out an edit_file call without writing anything: the
// change (whole old and new content, header and diff) or the text of the
// refusal. Run writes exactly the change PlanEdit returns.
func PlanEdit(o FileOptions, args json.RawMessage) (FileChange, string) {
	return planEditChange(context.Background(), o, args)
}

func planEditChange(ctx context.Context, o FileOptions, args json.RawMessage) (FileChange, string) {
	c, _, failure := planEdit(ctx, o, args)
	return c, failure
}

func planEdit(ctx context.Context, o FileOptions, args json.RawMessage) (FileChange, *editPlan, string) {
	a, err := decodeEditArgs(args)
	if err != nil {
		return FileChange{}, nil, fileArgError("edit_file", err)
	}
	if a.Path == "" {
		return FileChange{}, nil, "[error: edit_file needs a path]"
	}
	if len(a.Edits) == 0 {
		return FileChange{}, nil, `[error: edit_file needs edits: [{"old": "<exact text>", "new": "<replacement>"}]]`
	}
	tf, failure := loadText(ctx, o, a.Path, " — edit_file edits UTF-8 text only")
	if failure != "" {
		return FileChange{}, nil, failure
	}
	if !tf.exists {
		return FileChange{}, nil, notExistText(a.Path)
	}
	text, norm := normalize(tf.content)
	plan, failure := resolveEdits(a.Path, text, norm, a.Edits)
	if failure != "" {
		return FileChange{}, nil, failure
	}
	c := tf.change(a.Path)
	c.New, c.DryRun = norm.denormalize(plan.result), a.DryRun
	c.Report, c.Preview = plan.report(a.Path, a.DryRun, o.MaxOutput)
	return c, plan, ""
}

// resolveEdits finds every edit in the original text, checks they are
// disjoint and builds the edited text. Every failing edit is reported, so
// the model can fix them all in one call.
func resolveEdits(path, text string, norm normalized, edits []editItem) (*editPlan, string) {
	style := detectIndentStyle(text)
	var failures []string
	var regions []editRegion
	for i, e := range edits {
		prefix := fmt.Sprintf("%s: edit #%d: ", path, i+1)
		switch {
		case e.Old == nil || *e.Old == "":
			failures = append(failures, prefix+"old is empty — copy the exact text to replace from the file (to create a file, use write_file)")
			continue
		case e.New == nil:
			failures = append(failures, prefix+`new is missing — send "new": "" to delete the text`)
			continue
		case *e.Old == *e.New:
			failures = append(failures, prefix+"old and new are the same — this edit changes nothing")
			continue
		}
		old, newText := norm.text(*e.Old), norm.text(*e.New)
		m := findOld(text, old)
		switch {
		case m.count == 0:
			failures = append(failures, notFoundText(prefix, text, old, i, edits, norm))
			continue
		case m.count > 1:
			failures = append(failures, prefix+ambiguousText(m))
			continue
		}
		start, end, repl := replacement(text, old, newText, m, style)
		regions = append(regions, editRegion{index: i, start: start, end: end, pass: m.pass, repl: repl})
	}
	if failures == nil {
		failures = overlapFailures(path, text, regions)
	}
	if failures != nil {
		if len(edits) > 1 {
			failures = append(failures, fmt.Sprintf("nothing written: the %d edits of a call apply together or not at all — send them all again, corrected", len(edits)))
		}
		return nil, strings.Join(failures, "\n\n")
	}
	sort.Slice(regions, func(i, j int) bool { return regions[i].start < regions[j].start })
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, r := range regions {
		b.WriteString(text[at:r.start])
		b.WriteString(r.repl)
		at = r.end
	}
	b.WriteString(text[at:])
	return &editPlan{text: text, result: b.String(), regions: regions}, ""
}

// ambiguousText is the reference's message for an old text found more
// than once, in whichever pass found it.
func ambiguousText(m oldMatch) string {
	nums := make([]string, len(m.lines))
	for i, l := range m.lines {
		nums[i] = strconv.Itoa(l)
	}
	list := strings.Join(nums, ", ")
	if m.count > len(m.lines) {
		list += ", …"
	}
	return fmt.Sprintf("old text appears %d times (lines %s) — to change ONE of them, include its surrounding lines in old until the text is unique; to change several, send one edit per place, each with enough surrounding lines to be unique", m.count, list)
}

// numberedPrefix is read_file's `12│ ` prefix, which a model may copy.
var numberedPrefix = regexp.MustCompile(`^\s*\d+│ ?`)

// notFoundText is the reference's refusal for an old text found nowhere:
// old as sent, then the region of the file that comes closest, when at
// least half of its lines coincide.
func notFoundText(prefix, text, old string, index int, edits []editItem, norm normalized) string {
	var b strings.Builder
	b.WriteString(prefix)
	b.WriteString("old text not found — it must match the file exactly, including indentation and line breaks:\n")
	for _, l := range strings.Split(strings.TrimSuffix(old, "\n"), "\n") {
		writeBarLine(&b, "│", l)
	}
	if first, lines, ok := closestRegion(text, old); ok {
		b.WriteString("the closest the file comes to it — copy these lines:\n")
		width := len(strconv.Itoa(first + len(lines) - 1))
		for k, l := range lines {
			writeBarLine(&b, fmt.Sprintf("│ %*d │", width, first+k), l)
		}
	}
	// Two slips worth naming, since the model can fix them at once.
	for j, e := range edits {
		if j < index && e.New != nil && *e.New != "" && strings.Contains(norm.text(*e.New), old) {
			fmt.Fprintf(&b, "(old is in the new text of edit #%d: every edit applies to the original file, never to another edit's result)\n", j+1)
			break
		}
	}
	if hasNumberPrefixes(old) {
		b.WriteString("(old carries the line numbers read_file adds: they are not part of the file — leave them out)\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// writeBarLine writes `<bar> <line>`, without a trailing space for an
// empty line.
func writeBarLine(b *strings.Builder, bar, line string) {
	b.WriteString(bar)
	if line = strings.TrimSuffix(line, "\r"); line != "" {
		b.WriteByte(' ')
		b.WriteString(line)
	}
	b.WriteByte('\n')
}

func hasNumberPrefixes(old string) bool {
	n := 0
	for _, l := range strings.Split(old, "\n") {
		if trimBlank(l) == "" {
			continue
		}
		if !numberedPrefix.MatchString(l) {
			return false
		}
		n++
	}
	return n > 0
}

// closestRegion finds the window of the file, as many lines long as old
// (without its blank edges), where the most trimmed lines equal old's. It
// is offered only when at least half of old's non-blank lines coincide:
// pointing at an innocent part of the file is worse than saying nothing.
// One pass over the file: each line that equals some line of old votes
// for the window that would align them.
func closestRegion(text, old string) (first int, lines []string, ok bool) {
	_, core, _ := splitPadding(old)
	if core == "" {
		return 0, nil, false
	}
	want := strings.Split(core, "\n")
	where := map[string][]int{}
	lengths := map[int]bool{}
	nonBlank := 0
	for i, l := range want {
		t := trimBlank(l)
		if t == "" {
			continue
		}
		nonBlank++
		where[t] = append(where[t], i)
		lengths[len(t)] = true
	}
	var starts []int // byte offset of each line of text
	var votes []int32
	for p, j := 0, 0; p <= len(text); j++ {
		e := lineEndAt(text, p)
		starts = append(starts, p)
		votes = append(votes, 0)
		if t := trimBlank(text[p:e]); lengths[len(t)] {
			for _, i := range where[t] {
				if j-i >= 0 {
					votes[j-i]++
				}
			}
		}
		if e == len(text) {
			break
		}
		p = e + 1
	}
	if len(starts) > 0 && starts[len(starts)-1] == len(text) && len(text) > 0 {
		starts = starts[:len(starts)-1] // the empty "line" after a final line break
	}
	best, bestAt := int32(0), -1
	for j := 0; j+len(want) <= len(starts); j++ {
		if votes[j] > best {
			best, bestAt = votes[j], j
		}
	}
	if bestAt < 0 || int(best)*2 < nonBlank {
		return 0, nil, false
	}
	for k := 0; k < len(want); k++ {
		p := starts[bestAt+k]
		lines = append(lines, text[p:lineEndAt(text, p)])
	}
	return bestAt + 1, lines, true
}

// overlapFailures refuses edits whose regions are the same, nested or
// overlapping: resolved against the original text, they cannot both apply.
func overlapFailures(path, text string, regions []editRegion) []string {
	sorted := append([]editRegion(nil), regions...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].start != sorted[j].start {
			return sorted[i].start < sorted[j].start
		}
		return sorted[i].end > sorted[j].end
	})
	var failures []string
	lines := func(r editRegion) string {
		a := 1 + strings.Count(text[:r.start], "\n")
		z := 1 + strings.Count(text[:max(r.end-1, r.start)], "\n")
		if a == z {
			return "line " + strconv.Itoa(a)
		}
		return fmt.Sprintf("lines %d-%d", a, z)
	}
	reach := 0 // the region reaching furthest so far: a long region
	// overlapping several later ones is named with each of them
	for k := 1; k < len(sorted); k++ {
		if sorted[k-1].end > sorted[reach].end {
			reach = k - 1
		}
		p, r := sorted[reach], sorted[k]
		if r.start >= p.end {
			continue
		}
		first, second := min(p.index, r.index)+1, max(p.index, r.index)+1
		switch {
		case r.start == p.start && r.end == p.end:
			failures = append(failures, fmt.Sprintf("%s: edit #%d repeats edit #%d: both change the same text (%s) — send each change once", path, second, first, lines(r)))
		case r.end <= p.end:
			failures = append(failures, fmt.Sprintf("%s: edit #%d (%s) lies inside edit #%d (%s) — merge them into one edit", path, r.index+1, lines(r), p.index+1, lines(p)))
		default:
			failures = append(failures, fmt.Sprintf("%s: edits #%d (%s) and #%d (%s) overlap — merge them into one edit", path, first, lines(p), second, lines(r)))
		}
	}
	return failures
}

// report is the header and the diff the model reads, and the same
// before the edits are made, for the permission prompt ("would apply").
func (p *editPlan) report(path string, dryRun bool, maxOutput int) (report, preview string) {
	chunks, st := p.diff()
	tolerant := 0
	for _, r := range p.regions {
		if r.pass != passExact {
			tolerant++
		}
	}
	var b strings.Builder
	if st.added == 0 && st.removed == 0 && p.result == p.text {
		fmt.Fprintf(&b, "%s: the edits leave the file as it is — nothing written", path)
		return b.String(), b.String()
	}
	verb := "applied"
	if dryRun {
		path += ": dry run, nothing written"
		verb = "would apply"
	}
	header := func(verb string) string {
		h := fmt.Sprintf("%s: %s %s, +%d -%d lines, first change at line %d", path, countNoun(len(p.regions), "edit"), verb, st.added, st.removed, st.first)
		if tolerant > 0 {
			h += fmt.Sprintf(" · %d matched ignoring whitespace", tolerant)
		}
		return h + "\n"
	}
	renderDiff(&b, chunks)
	diff := strings.TrimSuffix(b.String(), "\n")
	return Truncate(header(verb)+diff, maxOutput), Truncate(header("would apply")+diff, maxOutput)
}

// diff builds the diff from the regions alone: each edit's lines, merged
// with a neighbour when their contexts would touch, diffed line by line.
// The untouched rest of the file is never split into lines, so a small
// edit in a large file costs little.
func (p *editPlan) diff() ([][]diffOp, diffStats) {
	type window struct{ ls, le, nls, nle int } // byte ranges in text and result
	var wins []window
	shift := 0
	for _, r := range p.regions {
		ls := strings.LastIndexByte(p.text[:r.start], '\n') + 1
		le := len(p.text)
		if i := strings.IndexByte(p.text[max(r.end-1, r.start):], '\n'); i >= 0 {
			le = max(r.end-1, r.start) + i + 1
		}
		w := window{ls: ls, le: le, nls: ls + shift}
		shift += len(r.repl) - (r.end - r.start)
		w.nle = le + shift
		if n := len(wins); n > 0 && (ls <= wins[n-1].le || strings.Count(p.text[wins[n-1].le:ls], "\n") <= 2*diffContext) {
			wins[n-1].le, wins[n-1].nle = w.le, w.nle
			continue
		}
		wins = append(wins, w)
	}
	var chunks [][]diffOp
	var st diffStats
	oldLine, newLine := 1, 1
	oldAt, newAt := 0, 0
	for _, w := range wins {
		oldLine += strings.Count(p.text[oldAt:w.ls], "\n")
		newLine += strings.Count(p.result[newAt:w.nls], "\n")
		oldAt, newAt = w.ls, w.nls
		// Context lines are taken from the old text: outside the windows
		// both texts are the same.
		var ops []diffOp
		before := lastLines(p.text[:w.ls], diffContext)
		for k, l := range before {
			n := len(before) - k
			ops = append(ops, diffOp{kind: ' ', oldN: oldLine - n, newN: newLine - n, text: l})
		}
		a := splitLinesKeep(p.text[w.ls:w.le])
		b := splitLinesKeep(p.result[w.nls:w.nle])
		ops = append(ops, diffLines(a, b, oldLine, newLine, w.le == len(p.text), w.nle == len(p.result))...)
		after := splitLinesKeep(p.text[w.le : w.le+firstLinesLen(p.text[w.le:], diffContext)])
		for k, l := range after {
			ops = append(ops, diffOp{kind: ' ', oldN: oldLine + len(a) + k, newN: newLine + len(b) + k, text: l})
		}
		st.count(ops)
		chunks = append(chunks, ops)
	}
	return chunks, st
}

// lastLines returns the last n lines of s, which ends a line (or is "").
func lastLines(s string, n int) []string {
	p := len(s)
	for k := 0; k < n && p > 0; k++ {
		p = strings.LastIndexByte(s[:p-1], '\n') + 1
	}
	return splitLinesKeep(s[p:])
}
