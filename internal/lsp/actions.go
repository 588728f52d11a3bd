package lsp

// The six actions of the lsp tool and their texts.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Request is one call of the lsp tool, as the model sends it.
type Request struct {
	Action  string `json:"action"`
	Path    string `json:"path"`
	Symbol  string `json:"symbol"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	NewName string `json:"new_name"`
}

// Actions are the tool's actions, in the order the description gives them.
var Actions = []string{"definition", "references", "hover", "symbols", "diagnostics", "rename"}

// DiagnosticsWait is how long diagnostics waits for the server to publish.
const DiagnosticsWait = 3 * time.Second

// diagnosticsSettle is how long diagnostics waits after a publication for
// another one: a server may publish the syntax errors first and the type
// errors a moment later. unversionedSettle is longer: a publication
// without a document version may have been computed before the last
// change (typescript-language-server checks files 300 ms after a change,
// and a check under way goes on), and the one for the change follows.
var (
	diagnosticsSettle = 100 * time.Millisecond
	unversionedSettle = 500 * time.Millisecond
)

// maxTries bounds how many occurrences of a symbol are tried.
const maxTries = 12

// normalize cleans the request the way the tool reads it: the action in
// lower case, the symbol and the new name cleaned, and for rename the
// multi-word symbol read as "symbol … new name". hint is a line the
// multi-word form named (0 = none).
func (r Request) normalize() (req Request, hint int) {
	req = r
	req.Action = strings.ToLower(strings.TrimSpace(r.Action))
	req.Path = strings.TrimSpace(r.Path)
	sym := strings.TrimSpace(r.Symbol)
	req.NewName = cleanSymbol(r.NewName)
	if len(strings.Fields(sym)) > 1 {
		ids := identifiers(sym)
		if req.Action == "rename" && req.NewName == "" && len(ids) >= 2 {
			// "Greet 1 12 Hello": a small model put symbol, line, column
			// and new name in one string.
			req.Symbol, req.NewName = ids[0], ids[len(ids)-1]
			for _, w := range strings.Fields(sym) {
				if n, err := strconv.Atoi(strings.Trim(w, ",:;")); err == nil && n > 0 {
					hint = n
					break
				}
			}
			return req, hint
		}
		req.Symbol = sym // resolved against the file in pickSymbol
		return req, 0
	}
	req.Symbol = cleanSymbol(sym)
	return req, 0
}

// Summary is the call's terminal line after `🔎 lsp: `: `definition
// main.go greet`, `definition main.go:9:14`, `rename main.go greet → hello`.
func (r Request) Summary() string {
	req, _ := r.normalize()
	if req.Action == "" {
		return req.Path
	}
	where := req.Path
	if req.Line > 0 {
		where += ":" + strconv.Itoa(req.Line)
		if req.Column > 0 && req.Symbol == "" {
			where += ":" + strconv.Itoa(req.Column)
		}
	}
	s := req.Action + " " + where
	if req.Symbol != "" && req.Action != "symbols" && req.Action != "diagnostics" {
		s += " " + req.Symbol
	}
	if req.Action == "rename" && req.NewName != "" {
		s += " → " + req.NewName
	}
	return s
}

// Mutates reports whether the call changes files: only rename does.
func (r Request) Mutates() bool {
	return strings.ToLower(strings.TrimSpace(r.Action)) == "rename"
}

// call is one action under way.
type call struct {
	m       *Manager
	s       *server
	p       *proc
	req     Request
	hint    int
	qual    string // the qualifier the symbol came with (`g` in `g.Greet`)
	died    bool   // the server went away during the call
	abs     string
	shown   string // the file as the texts name it
	doc     *document
	text    *lines
	changed bool // the file was (re)sent to the server for this call
}

// Run runs one call and returns what the model reads.
func (m *Manager) Run(ctx context.Context, r Request) string {
	req, hint := r.normalize()
	known := false
	for _, a := range Actions {
		known = known || a == req.Action
	}
	if !known {
		return fmt.Sprintf("[lsp: unknown action %q — use one of %s]", r.Action, strings.Join(Actions, ", "))
	}
	if req.Path == "" {
		return fmt.Sprintf(`[lsp: %s needs a path: the file, relative to the working directory]`, req.Action)
	}
	s := m.serverFor(req.Path)
	if s == nil {
		return fmt.Sprintf("[lsp: no language server for %q — configured: %s]", req.Path, m.Describe())
	}
	abs := req.Path
	if !strings.HasPrefix(abs, "/") {
		abs = m.root + "/" + abs
	}
	abs = cleanAbs(abs)
	c := &call{m: m, s: s, req: req, hint: hint, abs: abs, shown: m.display(abs)}
	if len(strings.Fields(r.Symbol)) == 1 {
		c.qual = qualifier(r.Symbol)
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("[lsp: %s does not exist]", req.Path)
	case err != nil:
		return fmt.Sprintf("[lsp: cannot read %s: %v]", req.Path, err)
	case info.IsDir():
		return fmt.Sprintf("[lsp: %s is a directory, not a file]", req.Path)
	}
	if ctx.Err() != nil {
		return "[lsp: cancelled]"
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	// A server found dead during the call (killed, crashed, or dead
	// before the call in a way not noticed yet) is started again and the
	// call made once more.
	for attempt := 0; ; attempt++ {
		c.died = false
		out := c.once(ctx)
		if !c.died || attempt > 0 || ctx.Err() != nil {
			return out
		}
	}
}

// once runs the call on a ready server.
func (c *call) once(ctx context.Context) string {
	s := c.s
	p, err := s.ready(ctx)
	if err != nil {
		return fmt.Sprintf("[lsp: %s: could not start %s: %v]", s.Name, s.Command, err)
	}
	c.p = p
	c.doc, c.changed, err = p.sync(c.abs)
	if err != nil {
		c.noteDeath(err)
		return fmt.Sprintf("[lsp: %s: cannot send %s: %v]", s.Name, c.shown, err)
	}
	// The other open files too: bash may have changed them.
	p.resync()
	c.text = splitLines(c.doc.text)

	switch c.req.Action {
	case "definition":
		return c.locations(ctx, "definition", "textDocument/definition", "definitionProvider")
	case "references":
		return c.locations(ctx, "references", "textDocument/references", "referencesProvider")
	case "hover":
		return c.hover(ctx)
	case "symbols":
		return c.symbols(ctx)
	case "diagnostics":
		return c.diagnostics(ctx)
	default:
		return c.rename(ctx)
	}
}

// cleanAbs is filepath.Clean for an absolute path with forward slashes.
func cleanAbs(p string) string {
	out := []string{}
	for _, part := range strings.Split(p, "/") {
		switch part {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, part)
		}
	}
	return "/" + strings.Join(out, "/")
}

// failed is the text of a server error.
func (c *call) failed(action string, err error) string {
	if errors.Is(err, context.Canceled) {
		return "[lsp: cancelled]"
	}
	c.noteDeath(err)
	return fmt.Sprintf("[lsp: %s: %s failed: %s]", c.s.Name, action, oneLine(err.Error()))
}

// noteDeath marks the call when err says the server is gone.
func (c *call) noteDeath(err error) {
	var dead *deadError
	if errors.As(err, &dead) {
		c.died = true
	}
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// at is `main.go:5:4` for a protocol position in the call's file.
func (c *call) at(p position) string {
	line := c.text.line(p.Line)
	return fmt.Sprintf("%s:%d:%d", c.shown, p.Line+1, utf16ToRunes(line, p.Character)+1)
}

// pickSymbol resolves a multi-word symbol outside the rename form: the
// first of its identifiers, keywords aside, that the file holds.
func (c *call) pickSymbol() string {
	sym := c.req.Symbol
	if len(strings.Fields(sym)) <= 1 {
		return sym
	}
	ids := identifiers(sym)
	for _, id := range ids {
		if !keywords[id] && len(findOccurrences(c.text, id, -1)) > 0 {
			return id
		}
	}
	for _, id := range ids {
		if !keywords[id] {
			return id
		}
	}
	return cleanSymbol(sym)
}

// targets are the positions to try, in order: the exact position of line
// and column, or the symbol's occurrences (on line only, when given).
func (c *call) targets() ([]position, string) {
	r := c.req
	if r.Line < 0 || r.Column < 0 {
		return nil, "[lsp: line and column are 1-based: 1 is the first]"
	}
	if r.Line > 0 && r.Line > c.text.editorCount() {
		return nil, fmt.Sprintf("[lsp: line %d is past the end of %s (%d lines)]", r.Line, c.shown, c.text.editorCount())
	}
	sym := c.pickSymbol()
	var exact *position
	if r.Line > 0 && r.Column > 0 {
		line := c.text.line(r.Line - 1)
		n := utf8.RuneCountInString(line)
		if r.Column > n+1 {
			return nil, fmt.Sprintf("[lsp: column %d is past the end of line %d (%d characters)]", r.Column, r.Line, n)
		}
		exact = &position{Line: r.Line - 1, Character: runesToUTF16(line, r.Column-1)}
		if sym == "" {
			return []position{*exact}, ""
		}
	}
	if sym == "" {
		return nil, fmt.Sprintf("[lsp: %s needs a symbol (the identifier as written in the code), or a line and a column]", r.Action)
	}
	onLine := -1
	if r.Line > 0 {
		onLine = r.Line - 1
	}
	occ := findOccurrences(c.text, sym, onLine)
	if exact != nil {
		// A column inside one of the occurrences on its line is taken as
		// given; one elsewhere is most likely miscounted, and the
		// symbol's occurrences on that line are tried instead.
		line := c.text.line(exact.Line)
		for _, o := range occ {
			from := utf16Len(line[:o.byteCol])
			if exact.Character >= from && exact.Character <= from+utf16Len(sym) {
				return []position{*exact}, ""
			}
		}
		if len(occ) == 0 {
			return []position{*exact}, ""
		}
	}
	if len(occ) == 0 {
		if onLine >= 0 {
			msg := fmt.Sprintf("[lsp: %q not found on line %d of %s", sym, r.Line, c.shown)
			if all := findOccurrences(c.text, sym, -1); len(all) > 0 {
				msg += " — it is on line " + joinInts(linesOf(all), ", ")
			}
			return nil, msg + "]"
		}
		return nil, fmt.Sprintf("[lsp: %q not found in %s]", sym, c.shown)
	}
	if c.qual != "" {
		// `g.Greet`: the places written that way go first.
		sort.SliceStable(occ, func(i, j int) bool {
			return occ[i].where == inCode && c.qualified(occ[i]) && !(occ[j].where == inCode && c.qualified(occ[j]))
		})
	}
	if c.hint > 0 {
		// The line a multi-word symbol named goes first, if it has one.
		sort.SliceStable(occ, func(i, j int) bool { return occ[i].line == c.hint-1 && occ[j].line != c.hint-1 })
	}
	if len(occ) > maxTries {
		occ = occ[:maxTries]
	}
	out := make([]position, len(occ))
	for i, o := range occ {
		out[i] = position{Line: o.line, Character: utf16Len(c.text.line(o.line)[:o.byteCol])}
	}
	return out, ""
}

// qualified reports whether the occurrence is written with the call's
// qualifier before it (`g.` `g->` `g::`).
func (c *call) qualified(o occurrence) bool {
	before := strings.TrimRight(c.text.line(o.line)[:o.byteCol], ".:->")
	return strings.HasSuffix(before, c.qual) && len(before) < o.byteCol
}

func joinInts(ns []int, sep string) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, sep)
}

// try asks at each position in turn until one answers (ask returns true).
// It returns the position that answered; when none did, the failure text:
// the server's error when every try failed with one, else notFound.
func (c *call) try(ctx context.Context, action string, positions []position, ask func(position) (bool, error)) (position, string) {
	var firstErr error
	errs := 0
	for _, pos := range positions {
		if ctx.Err() != nil {
			return pos, "[lsp: cancelled]"
		}
		ok, err := ask(pos)
		if ok {
			return pos, ""
		}
		if err != nil {
			if errors.Is(err, context.Canceled) || !c.p.alive() {
				return pos, c.failed(action, err)
			}
			errs++
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	if errs == len(positions) && firstErr != nil {
		return positions[0], c.failed(action, firstErr)
	}
	what := map[string]string{"definition": "definition", "references": "references", "hover": "hover information", "rename": "symbol to rename"}[action]
	msg := fmt.Sprintf("[lsp: no %s found for the symbol at %s", what, c.at(positions[0]))
	if len(positions) > 1 {
		msg += fmt.Sprintf(" (nor at the %d other occurrence(s) tried)", len(positions)-1)
	}
	return positions[0], msg + "]"
}

func (c *call) params(pos position) textDocumentPosition {
	return textDocumentPosition{TextDocument: textDocumentID{URI: c.doc.uri}, Position: pos}
}

// locations runs definition or references and lists the places.
func (c *call) locations(ctx context.Context, action, method, capability string) string {
	if !c.p.supports(capability) {
		return fmt.Sprintf("[lsp: %s: %s failed: the server does not provide %s]", c.s.Name, action, action)
	}
	positions, failure := c.targets()
	if failure != "" {
		return failure
	}
	var locs []location
	_, failure = c.try(ctx, action, positions, func(pos position) (bool, error) {
		var raw json.RawMessage
		var params any = c.params(pos)
		if action == "references" {
			params = map[string]any{
				"textDocument": textDocumentID{URI: c.doc.uri}, "position": pos,
				"context": map[string]bool{"includeDeclaration": true},
			}
		}
		if err := c.p.call(ctx, method, params, &raw); err != nil {
			return false, err
		}
		locs = decodeLocations(raw)
		return len(locs) > 0, nil
	})
	if failure != "" {
		return failure
	}
	out := c.formatLocations(locs)
	if action == "references" {
		return fmt.Sprintf("%d reference(s):\n%s", len(out), strings.Join(out, "\n"))
	}
	return strings.Join(out, "\n")
}

// decodeLocations reads Location, Location[] or LocationLink[].
func decodeLocations(raw json.RawMessage) []location {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var items []json.RawMessage
	if raw[0] == '[' {
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
	} else {
		items = []json.RawMessage{raw}
	}
	var out []location
	for _, it := range items {
		var l struct {
			location
			locationLink
		}
		if json.Unmarshal(it, &l) != nil {
			continue
		}
		switch {
		case l.URI != "":
			out = append(out, l.location)
		case l.TargetURI != "":
			out = append(out, location{URI: l.TargetURI, Range: l.TargetSelectionRange})
		}
	}
	return out
}

// formatLocations makes the `path:line:column <source line>` lines, sorted
// by path then position, each place once.
func (c *call) formatLocations(locs []location) []string {
	type place struct {
		path      string
		line, col int
		src       string
	}
	files := map[string]*lines{}
	seen := map[string]bool{}
	var places []place
	for _, l := range locs {
		abs, ok := uriToPath(l.URI)
		if !ok {
			// A virtual document (a decompiled class, a generated
			// file): its URI, without a source line.
			abs = l.URI
		}
		text := files[abs]
		if text == nil {
			text = c.fileLines(abs)
			files[abs] = text
		}
		src := text.line(l.Range.Start.Line)
		shown := l.URI
		if ok {
			shown = c.m.display(abs)
		}
		col := utf16ToRunes(src, l.Range.Start.Character) + 1
		if src == "" {
			col = l.Range.Start.Character + 1 // no text to count on
		}
		pl := place{path: shown, line: l.Range.Start.Line + 1, col: col, src: strings.TrimSpace(src)}
		key := fmt.Sprintf("%s:%d:%d", pl.path, pl.line, pl.col)
		if seen[key] {
			continue
		}
		seen[key] = true
		places = append(places, pl)
	}
	sort.Slice(places, func(i, j int) bool {
		a, b := places[i], places[j]
		if a.path != b.path {
			return a.path < b.path
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.col < b.col
	})
	out := make([]string, len(places))
	for i, pl := range places {
		out[i] = strings.TrimSuffix(fmt.Sprintf("%s:%d:%d %s", pl.path, pl.line, pl.col, pl.src), " ")
	}
	return out
}

// fileLines is a file's text: as the server was shown it when open, else
// from disk (empty when unreadable).
func (c *call) fileLines(abs string) *lines {
	if d := c.p.docs[abs]; d != nil {
		return splitLines(d.text)
	}
	data, _ := os.ReadFile(abs)
	return splitLines(string(data))
}

// hover gives the server's text as sent.
func (c *call) hover(ctx context.Context) string {
	if !c.p.supports("hoverProvider") {
		return fmt.Sprintf("[lsp: %s: hover failed: the server does not provide hover]", c.s.Name)
	}
	positions, failure := c.targets()
	if failure != "" {
		return failure
	}
	var text string
	_, failure = c.try(ctx, "hover", positions, func(pos position) (bool, error) {
		var raw json.RawMessage
		if err := c.p.call(ctx, "textDocument/hover", c.params(pos), &raw); err != nil {
			return false, err
		}
		text = hoverText(raw)
		return strings.TrimSpace(text) != "", nil
	})
	if failure != "" {
		return failure
	}
	return strings.TrimSpace(text)
}

// hoverText reads Hover.contents: MarkupContent, a MarkedString, or a list
// of MarkedStrings (a code block each, joined by blank lines).
func hoverText(raw json.RawMessage) string {
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(raw, &h) != nil || len(h.Contents) == 0 {
		return ""
	}
	var items []json.RawMessage
	if h.Contents[0] == '[' {
		json.Unmarshal(h.Contents, &items)
	} else {
		items = []json.RawMessage{h.Contents}
	}
	var parts []string
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) == nil {
			parts = append(parts, s)
			continue
		}
		var m struct {
			Kind     string `json:"kind"`
			Language string `json:"language"`
			Value    string `json:"value"`
		}
		if json.Unmarshal(it, &m) != nil {
			continue
		}
		if m.Language != "" {
			parts = append(parts, "```"+m.Language+"\n"+m.Value+"\n```")
		} else {
			parts = append(parts, m.Value)
		}
	}
	return strings.Join(parts, "\n\n")
}

// symbols lists the file's symbols, children indented by two spaces.
func (c *call) symbols(ctx context.Context) string {
	if !c.p.supports("documentSymbolProvider") {
		return fmt.Sprintf("[lsp: %s: symbols failed: the server does not provide document symbols]", c.s.Name)
	}
	var raw []json.RawMessage
	err := c.p.call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": textDocumentID{URI: c.doc.uri}}, &raw)
	if err != nil {
		return c.failed("symbols", err)
	}
	var b strings.Builder
	var walk func(list []documentSymbol, depth int)
	walk = func(list []documentSymbol, depth int) {
		sort.SliceStable(list, func(i, j int) bool { return less(list[i].SelectionRange.Start, list[j].SelectionRange.Start) })
		for _, s := range list {
			b.WriteString(strings.Repeat("  ", depth) + symbolKindName(s.Kind) + " " + s.Name)
			if d := oneLine(s.Detail); d != "" {
				b.WriteString(" [" + d + "]")
			}
			fmt.Fprintf(&b, " line %d\n", s.SelectionRange.Start.Line+1)
			walk(s.Children, depth+1)
		}
	}
	var tree []documentSymbol
	var flat []symbolInformation
	for _, it := range raw {
		var probe struct {
			Location *location `json:"location"`
		}
		json.Unmarshal(it, &probe)
		if probe.Location != nil {
			var si symbolInformation
			if json.Unmarshal(it, &si) == nil {
				flat = append(flat, si)
			}
			continue
		}
		var ds documentSymbol
		if json.Unmarshal(it, &ds) == nil {
			tree = append(tree, ds)
		}
	}
	walk(tree, 0)
	sort.SliceStable(flat, func(i, j int) bool { return less(flat[i].Location.Range.Start, flat[j].Location.Range.Start) })
	for _, s := range flat {
		b.WriteString(symbolKindName(s.Kind) + " " + s.Name)
		if s.ContainerName != "" {
			b.WriteString(" [in " + s.ContainerName + "]")
		}
		fmt.Fprintf(&b, " line %d\n", s.Location.Range.Start.Line+1)
	}
	if b.Len() == 0 {
		return fmt.Sprintf("no symbols in %s", c.shown)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func less(a, b position) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Character < b.Character
}

// diagnostics answers with what the server published for the file. A
// publication is fresh when it came after everything mm told the server;
// the server gets DiagnosticsWait from the last change it was told of to
// publish one. Without a fresh one, the last publication is given as such,
// and only a server that never published for the file gets "no
// diagnostics received".
func (c *call) diagnostics(ctx context.Context) string {
	p, abs, doc := c.p, c.abs, c.doc
	fresh := func(pub *published) bool {
		return pub != nil && pub.seq > doc.sentSeq && pub.seq > p.changeSeq &&
			(pub.version == nil || *pub.version >= doc.version)
	}
	pub, _, wake := p.lastPublished(abs)
	if !c.changed && fresh(pub) {
		return c.formatDiagnostics(pub, true)
	}
	since := doc.synced
	if p.changedAt.After(since) {
		since = p.changedAt
	}
	wait := time.Until(since.Add(DiagnosticsWait))
	if c.changed {
		wait = DiagnosticsWait
	}
	if wait > 0 {
		deadline := time.NewTimer(wait)
		defer deadline.Stop()
		for !fresh(pub) {
			select {
			case <-wake:
			case <-deadline.C:
				return c.lastDiagnostics(pub)
			case <-ctx.Done():
				return "[lsp: cancelled]"
			case <-p.conn.Done():
				return c.failed("diagnostics", p.explain(errConnClosed))
			}
			pub, _, wake = p.lastPublished(abs)
		}
		// More may follow at once: syntax, then type errors; and a server
		// that does not say which version it published for may have sent
		// one computed before the change. Wait until it is quiet.
		quiet := diagnosticsSettle
		if pub.version == nil {
			quiet = unversionedSettle
		}
		settle := time.NewTimer(quiet)
		defer settle.Stop()
	settling:
		for {
			select {
			case <-wake:
				next, _, w := p.lastPublished(abs)
				wake = w
				if next != pub {
					pub = next
					settle.Reset(quiet)
				}
			case <-settle.C:
				break settling
			case <-ctx.Done():
				return "[lsp: cancelled]"
			}
		}
		return c.formatDiagnostics(pub, false)
	}
	return c.lastDiagnostics(pub)
}

// lastDiagnostics is the answer when nothing fresh came in time: the last
// publication as such (a server may not publish again when nothing
// changed for the file), or "no diagnostics received" when there never was
// one.
func (c *call) lastDiagnostics(pub *published) string {
	if pub != nil {
		return c.formatDiagnostics(pub, true)
	}
	return fmt.Sprintf("no diagnostics received for %s within %s (the server may still be loading the project, or it does not publish diagnostics for this file; call again in a moment)", c.shown, formatSeconds(DiagnosticsWait))
}

func formatSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// formatDiagnostics writes the header and one line per diagnostic, sorted
// by position.
func (c *call) formatDiagnostics(pub *published, asLast bool) string {
	suffix := ""
	if asLast {
		suffix = " (as last published)"
	}
	if len(pub.diags) == 0 {
		return fmt.Sprintf("no diagnostics: %s is clean%s", c.shown, suffix)
	}
	ds := append([]diagnostic(nil), pub.diags...)
	sort.SliceStable(ds, func(i, j int) bool { return less(ds[i].Range.Start, ds[j].Range.Start) })
	var b strings.Builder
	fmt.Fprintf(&b, "%d diagnostic(s) in %s%s:", len(ds), c.shown, suffix)
	for _, d := range ds {
		line := c.text.line(d.Range.Start.Line)
		msg := strings.ReplaceAll(strings.TrimSpace(d.Message), "\n", "\n  ")
		fmt.Fprintf(&b, "\n%s %s:%d:%d %s", severityName(d.Severity), c.shown, d.Range.Start.Line+1, utf16ToRunes(line, d.Range.Start.Character)+1, msg)
		if d.Source != "" {
			b.WriteString(" [" + d.Source + "]")
		}
	}
	return b.String()
}
