package toolcall

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// corpusCase is one line of testdata/public.jsonl (see its README).
type corpusCase struct {
	ID           string          `json:"id"`
	Family       string          `json:"family"`
	Kind         string          `json:"kind"`
	Content      *string         `json:"content"`
	ToolCalls    []corpusRawCall `json:"tool_calls"`
	FinishReason string          `json:"finish_reason"`
	Tools        []string        `json:"tools"`
	Expected     []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"expected"`
	Breakage []string `json:"breakage"`
	Note     string   `json:"note"`
	// Provenance of a case (testdata/README.md): where it comes from, how
	// close the text is to it, and for an issue thread the words quoted.
	Source     string `json:"source"`
	Provenance string `json:"provenance"`
	Quote      string `json:"quote"`
	Model      string `json:"model"`
	Server     string `json:"server"`
	// Correction, on a reject, is the argument its correction must name.
	Correction string `json:"correction"`

	File string `json:"-"` // the testdata file it was read from
}

type corpusRawCall struct {
	ID string `json:"id"`
	// Name outside function is not the OpenAI wire form: a benchmark's
	// stored shape, which no server sends (TestCorpusProvenance).
	Name     string `json:"name"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// corpusFiles is the public corpus, the cases recorded from a real model
// here, and the widened corpus gathered from public sources, one file per
// group of families (testdata/README.md): one scoring for all.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	widened, err := filepath.Glob("testdata/widened-*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(widened)
	return append([]string{"testdata/public.jsonl", "testdata/recorded.jsonl"}, widened...)
}

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	var out []corpusCase
	for _, name := range corpusFiles(t) {
		for _, c := range loadCorpusFile(t, name) {
			c.File = filepath.Base(name)
			out = append(out, c)
		}
	}
	return out
}

func loadCorpusFile(t testing.TB, name string) []corpusCase {
	return loadJSONL[corpusCase](t, name)
}

// loadJSONL reads a file of one JSON object per line (blank lines skipped).
func loadJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// input builds the assistant message a server would have returned.
func (c corpusCase) input(t testing.TB) Input {
	in := Input{FinishReason: c.FinishReason, Tools: toolsFor(t, c.Tools...)}
	if c.Content != nil {
		in.Content = *c.Content
	}
	for _, tc := range c.ToolCalls {
		args := string(tc.Function.Arguments)
		// arguments is usually a JSON string; when the server sent an
		// object, the text of that object is what mm receives.
		var s string
		if json.Unmarshal(tc.Function.Arguments, &s) == nil {
			args = s
		}
		in.ToolCalls = append(in.ToolCalls, RawCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
	}
	return in
}

// sameJSON compares two JSON texts as values: key order ignored, 1 and 1.0
// equal, "1" and 1 not.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// The bar the issue sets for the whole corpus: at least 99 % of the call
// and reject cases recovered or precisely corrected, and no call ever run
// on a reject or a negative.
const corpusFloorPercent = 99.0

// outcome is how one case fared.
type outcome struct {
	c   corpusCase
	ok  bool
	why string
	// runs counts the calls that would run on a reject or negative case.
	runs int
}

// scoreCase lets Recover decide on one case and compares with what the
// case expects (testdata/README.md, "How a test scores a case").
func scoreCase(t testing.TB, c corpusCase) outcome {
	in := c.input(t)
	res := Recover(in)
	o := outcome{c: c, ok: true}
	switch c.Kind {
	case "call":
		if len(res.Calls) != len(c.Expected) {
			o.ok, o.why = false, fmt.Sprintf("%d calls, want %d", len(res.Calls), len(c.Expected))
			break
		}
		for k, e := range c.Expected {
			g := res.Calls[k]
			if g.Name != e.Name || !sameJSON(g.Arguments, e.Arguments) {
				o.ok, o.why = false, fmt.Sprintf("call %d: got %s %s, want %s %s", k, g.Name, g.Arguments, e.Name, e.Arguments)
				break
			}
		}
	case "reject", "negative":
		if len(res.Calls) > 0 {
			o.ok, o.why = false, fmt.Sprintf("ran %d call(s): %s %s", len(res.Calls), res.Calls[0].Name, res.Calls[0].Arguments)
			o.runs = len(res.Calls)
		}
		if c.Kind == "reject" && len(res.Rejections) == 0 {
			o.ok, o.why = false, "no correction for the model"
		}
		if c.Kind == "negative" {
			// The text is the answer: nothing sent back to the model,
			// and the user sees it.
			if len(res.Rejections) > 0 {
				o.ok, o.why = false, "negative answered with a correction: "+res.Rejections[0].Reason
			}
			if strings.TrimSpace(res.Text) == "" {
				o.ok, o.why = false, "the answer text is empty"
			}
		}
	default:
		t.Fatalf("%s: unknown kind %q", c.ID, c.Kind)
	}
	return o
}

// familyScore is one row of the report: cases of each kind and how many
// passed.
type familyScore struct {
	name                    string
	call, reject, negative  int
	callOK, rejectOK, negOK int
	files                   map[string]bool
}

func (f *familyScore) add(o outcome) {
	switch o.c.Kind {
	case "call":
		f.call++
		if o.ok {
			f.callOK++
		}
	case "reject":
		f.reject++
		if o.ok {
			f.rejectOK++
		}
	default:
		f.negative++
		if o.ok {
			f.negOK++
		}
	}
	f.files[o.c.File] = true
}

// corpusTable is the per-family report of docs/tool-calls.md, made from
// the cases themselves so that the page cannot drift from the corpus.
func corpusTable(outs []outcome) string {
	fams := map[string]*familyScore{}
	total := &familyScore{name: "**total**", files: map[string]bool{}}
	for _, o := range outs {
		f := fams[o.c.Family]
		if f == nil {
			f = &familyScore{name: o.c.Family, files: map[string]bool{}}
			fams[o.c.Family] = f
		}
		f.add(o)
		total.add(o)
	}
	names := make([]string, 0, len(fams))
	for n := range fams {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("| family | cases | calls recovered | rejects corrected | negatives left alone | from |\n|---|---|---|---|---|---|\n")
	row := func(f *familyScore) {
		files := make([]string, 0, len(f.files))
		for n := range f.files {
			files = append(files, strings.TrimSuffix(strings.TrimPrefix(n, "widened-"), ".jsonl"))
		}
		sort.Strings(files)
		from := strings.Join(files, ", ")
		if f == total {
			from = ""
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s |\n", f.name, f.call+f.reject+f.negative,
			ratio(f.callOK, f.call), ratio(f.rejectOK, f.reject), ratio(f.negOK, f.negative), from)
	}
	for _, n := range names {
		row(fams[n])
	}
	row(total)
	return b.String()
}

func ratio(ok, n int) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%d/%d", ok, n)
}

func scoreCorpus(t testing.TB) []outcome {
	var outs []outcome
	for _, c := range loadCorpus(t) {
		outs = append(outs, scoreCase(t, c))
	}
	return outs
}

func TestCorpus(t *testing.T) {
	outs := scoreCorpus(t)
	var scored, good, wrongRuns, noCorrection, negRejections int
	for _, o := range outs {
		if !o.ok {
			t.Logf("FAIL %s %s (%s, %v): %s", o.c.File, o.c.ID, o.c.Kind, o.c.Breakage, o.why)
			if _, known := knownMisses[o.c.ID]; !known {
				t.Errorf("%s %s is a new miss: %s", o.c.File, o.c.ID, o.why)
			}
		} else if why, known := knownMisses[o.c.ID]; known {
			t.Errorf("%s %s is listed as a known miss (%s) but passes: take it off the list", o.c.File, o.c.ID, why)
		}
		wrongRuns += o.runs
		if o.c.Kind != "negative" {
			scored++
			if o.ok {
				good++
			}
		}
		if o.c.Kind == "reject" && !o.ok && o.runs == 0 {
			noCorrection++
		}
		if o.c.Kind == "negative" && !o.ok && o.runs == 0 {
			negRejections++
		}
	}
	t.Logf("\n%s", corpusTable(outs))
	rate := 100 * float64(good) / float64(max(scored, 1))
	t.Logf("%d cases; call and reject cases recovered or corrected: %d/%d (%.1f%%); calls run on reject+negative cases: %d", len(outs), good, scored, rate, wrongRuns)
	if wrongRuns != 0 {
		t.Errorf("%d call(s) would run on reject or negative cases; must be 0", wrongRuns)
	}
	if negRejections != 0 {
		t.Errorf("%d negative case(s) were not left as the answer", negRejections)
	}
	// A reject left without a correction runs nothing: it is a miss of
	// "precisely corrected", counted in the rate below like a call not
	// recovered (the bar), and listed above.
	if noCorrection != 0 {
		t.Logf("%d reject case(s) produced no correction", noCorrection)
	}
	if rate < corpusFloorPercent {
		t.Errorf("recovered or corrected %.1f%% of the call and reject cases, below the floor of %.0f%%", rate, corpusFloorPercent)
	}
}

// checkCorpusFile scores one file's cases alone (a red team's, run on its
// own while its rules are written): each call must run, each reject be
// corrected, each negative run nothing and get no correction, knownMisses
// aside. TestCorpus scores them all together.
func checkCorpusFile(t *testing.T, name string) {
	t.Helper()
	for _, c := range loadCorpusFile(t, name) {
		if _, known := knownMisses[c.ID]; known {
			continue
		}
		if o := scoreCase(t, c); !o.ok {
			t.Errorf("%s: %s", c.ID, o.why)
		}
	}
}

// knownMisses are the cases mm does not get right, each with why it is left
// (its note says more): any other failure is a regression, and a case that
// starts to pass must leave the list, so that the floor below never hides
// a case lost to a new rule.
var knownMisses = map[string]string{
	"qwen3_coder_xml-10a012": "a Qwen3-Coder call cut by the token limit after a complete parameter: mm rejects every length-cut call (hermes-w014, seed_oss-w011…); running it would overturn that decision",
	"qwen3_coder_xml-12l001": "the test's eight-space indent inside string values: mlx-lm's qwen3_coder parser keeps it (it strips one newline each side; only the test's numbers lose it), so dedenting a value would be a guess",
	"cline_xml-x009":         "an undeclared todo tool as nested XML tags: telling it from an XML answer needs a guess",
	"structured_args-b016":   "google:tool:shell:index:0: the bare word shell is never guessed to be bash",
	"structured_args-b017":   "a tool word glued to an opaque MCP id: only a suffix match would read it",
	"bare_json-o004":         "{\"function\": {name, arguments}} outside call markup: round 4a corrects a written tool_calls element, running this part of one would contradict it",
	"glm-l002":               "'name: bash, arguments: {}' inside <tool_call>: no parser reads it as a call (LocalAI's test calls it garbage); nothing runs, no correction",
	"hermes-11t018":          "'Now the Python version:' before python3 --version: the words are those of 'Now the Hermes version:' before a shown format (negative_quoted-11t019); only the call tells them apart",
	"bare_json-13p030":       "Inkling's {\"name\", \"args\"} object after a word glued to its <|content_invoke_tool_json|> token, naming an undeclared tool (smg's tool_parser_inkling.rs drops it): with no declared name and no line of its own, generic_markup does not take the word-glued token as a call, and args outside call markup is Google's data shape (TestRuleGoogleArgs)",
	"fetch_content-13n118":   "&amp; in a Cline-format URL: Cline and Roo decode entities only in execute_command's command (cline/cline#11305 keeps every other tool's input as written; cline_command_entities, rule_round12q.go), so the URL is kept as written",
	"structured_args-13n111": "edit_file's edits as nested <edits><edit><old>…</old><new>…</new></edit></edits> elements (constructed by red team 13): the XML readers take a parameter's value as text, and edits must be an array; nothing runs, the correction names edits",
	"deepseek_dsml-14p017":   "a DeepSeek V4.1 calls block holding only the word 'broken' after a sentence: xinference keeps it as text, and a block of plain words is a call attempt only as the whole reply (unreadableCallBlock, rule_round10p.go); after prose it may be quoted",
	"cline_xml-15t014":       "a Cline block after \"Here's the file content:\" on its own line (cline's parseAssistantMessage.spec.ts): the colon lead-in must be the model's step, since red team 15r found \"…reads like this one from its logs:\" and \"Input:\" before shown blocks; \"Here's …:\" reads as both",
	"qwen3-17r015":           "an MCP tools/call fence after \"I'll run the tests:\" followed by \"This will show whether the fix works.\" (red team 17r): fenced_wire_calls reads the wire formats only when nothing follows the fence but made-up results, since \"That is what the API sends.\" after the same fence shows it; telling the two sentences apart would be a guess",
	"cline_xml-18p029":       "a Cline value escaped twice (&amp;lt;), which the middleware's XML parser decodes once: file content keeps its entities in this format (cline/cline#11305, rule cline_command_entities), and an HTML file that shows \"&lt;\" holds exactly &amp;lt;",
	"glm-20d003":             "GLM markup mangled with JSON residue (read_file<arg_key>path\":\"apple-notes\"}<tool_call>bash<arg_key>command\":\"which memo</arg_value>): no </arg_key>, no <arg_value>, a closer never opened; factory-droid-openai's repair decoder guesses the pairs, but where a key ends and its value begins is a guess here, so nothing runs and no correction is made",
	"cline_xml-21b009":       "a Cline-style <bash><command>…</command></bash> wrapped again in a <command> element, inside a plain fence whose 'xml' word fell onto its first line: the tool element is not the block's outer element and the fence reads as shown code, so nothing runs (the helper who gathered it doubts the call too)",
	"gpt_oss-24a003":         "a harmony header inside <tool_call> (assistant to=functions.write_file json) whose body is 'not json': SGLang returns no call and mm shows the text; a correction would serve the model better, but a stripped header in a wrapper with an unreadable body has nothing else that says it is this reply's call",
	"fenced_json-24b034":     "a fenced [{\"tool\": \"Grep\", \"parameters\": {…}}] list naming an undeclared tool: lists of {tool, parameters} objects are read only when every name is declared (function_key_list), since such a list naming unknown tools is as often data (tool definitions, red team 22r) as a call",
	"bare_json-24c002":       "a bare {\"tool\": \"list_files\", \"parameters\": {…}} after \"Here's the tool call:\" naming an undeclared tool: an object keyed tool outside call markup is data unless it names a declared tool, and the same lead-in presents examples",
	"write_file-21r018":      "a Qwen3-Coder write_file whose content holds another Qwen3-Coder call (<function_bash>, <parameter=command>, </parameter>, </function>) unescaped: the content's value ends at the first closer its tags allow, which is the nested one, so the file gets '<function_bash>' (so it did before round 21); where a value that holds the format's own closers ends is a guess",
	"bare_json-18t029":       "gpt-oss reasoning that ends \"Let's count.\" and a bare {\"command\": …}, its recipient gone: an object of one tool's arguments after a sentence is also data an answer shows, and nothing in the text names the call",
	"multi_call-16t025":      "an MCP-namespaced Cline block after \"I'll call the filesystem tool using Cline syntax:\" and a fenced {\"function\"} object after \"And also JSON format:\" (mcp-client-for-ollama's parser test): a lead-in ending by naming a format shows its block (lead_describes_block, round 14t), and the test's reply demonstrates two syntaxes",
	"bare_json-15t032":       "a ReAct Action line that is a sentence with no tool name and no Action Input, as the whole reply (crewAI#358): react_action needs its Action Input, react_action_args a name and parenthesised arguments after a Thought line; a lone 'Action: …' sentence is also how plans and checklists read, so it stays text",
	"hermes-11t028":          "'You shared the output, and the panic comes from cache.go:': a place, not a step, after the paste; reading it as the model's would also run 'You pasted this, and the call is in deploy.sh:'",
}

// TestCorpusProvenance checks that every case says where it comes from
// (the issue asks for a URL and a quote, or the test file), that ids are
// unique across the files, and that the expectation matches the kind.
func TestCorpusProvenance(t *testing.T) {
	seen := map[string]string{}
	provenances := map[string]bool{"quoted": true, "completed": true, "test": true, "reproduced": true, "constructed": true, "recorded": true, "documented": true}
	for _, c := range loadCorpus(t) {
		where := c.File + ": " + c.ID
		if c.ID == "" || c.Family == "" {
			t.Errorf("%s: id and family are required", where)
		}
		if f, dup := seen[c.ID]; dup {
			t.Errorf("%s: id already used in %s", where, f)
		}
		seen[c.ID] = c.File
		if strings.TrimSpace(c.Source) == "" {
			t.Errorf("%s: no source", where)
		}
		if !provenances[c.Provenance] {
			t.Errorf("%s: provenance %q is not one of the README's", where, c.Provenance)
		}
		// The widened corpus quotes its issue threads and pages: the words
		// the case was taken from, so that a reader can find them.
		if strings.HasPrefix(c.File, "widened-") && (c.Provenance == "quoted" || c.Provenance == "completed") && strings.TrimSpace(c.Quote) == "" {
			t.Errorf("%s: a %s case needs the quote it was taken from", where, c.Provenance)
		}
		if (c.Kind == "call") != (len(c.Expected) > 0) {
			t.Errorf("%s: kind %s with %d expected calls", where, c.Kind, len(c.Expected))
		}
		if c.Content == nil && len(c.ToolCalls) == 0 {
			t.Errorf("%s: neither content nor tool_calls", where)
		}
		for _, tc := range c.ToolCalls {
			if tc.Name != "" {
				t.Errorf("%s: a tool_calls entry with name outside function is not what a server sends", where)
			}
		}
	}
}

// TestCorpusTableInDocs keeps the report in docs/tool-calls.md true: its
// table between the corpus-table markers is the one the corpus gives now.
// MM_UPDATE_DOCS=1 rewrites it.
func TestCorpusTableInDocs(t *testing.T) {
	const page = "../../docs/tool-calls.md"
	const open, close = "<!-- corpus-table: made by TestCorpusTableInDocs -->\n", "<!-- /corpus-table -->"
	doc, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, open), strings.Index(s, close)
	if i < 0 || j < i {
		t.Fatalf("%s has no corpus table between %q and %q", page, strings.TrimSpace(open), close)
	}
	want := corpusTable(scoreCorpus(t))
	if got := s[i+len(open) : j]; got != want {
		if os.Getenv("MM_UPDATE_DOCS") == "1" {
			if err := os.WriteFile(page, []byte(s[:i+len(open)]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the corpus table in %s is not the corpus's (MM_UPDATE_DOCS=1 go test ./internal/toolcall -run TestCorpusTableInDocs rewrites it):\n%s", page, want)
	}
}

// TestCorpusCorrectionsNameTheArgument: a call that names a tool but lacks
// a required argument is not run and not dropped: it is answered with a
// correction that names the argument (issue #25). Every case of every file
// that gives the argument (`correction`) must get a correction naming it —
// beside the calls a `call` case expects, and with no call at all on a
// reject.
func TestCorpusCorrectionsNameTheArgument(t *testing.T) {
	checked := 0
	for _, c := range loadCorpus(t) {
		if c.Correction == "" {
			continue
		}
		checked++
		res := Recover(c.input(t))
		if c.Kind != "call" && len(res.Calls) > 0 {
			t.Errorf("%s %s: a call ran: %s %s", c.File, c.ID, res.Calls[0].Name, res.Calls[0].Arguments)
		}
		found := false
		for _, r := range res.Rejections {
			found = found || strings.Contains(r.Reason, c.Correction)
		}
		if !found && knownMisses[c.ID] == "" {
			t.Errorf("%s %s: no correction names %s: %v", c.File, c.ID, c.Correction, res.Rejections)
		}
	}
	if checked < 30 {
		t.Errorf("only %d cases name the argument their correction must give", checked)
	}
}
