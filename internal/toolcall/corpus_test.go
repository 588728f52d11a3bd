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

	File string `json:"-"` // the testdata file it was read from
}

type corpusRawCall struct {
	ID       string `json:"id"`
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

func loadCorpus(t *testing.T) []corpusCase {
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

func loadCorpusFile(t *testing.T, name string) []corpusCase {
	return loadJSONL[corpusCase](t, name)
}

// loadJSONL reads a file of one JSON object per line (blank lines skipped).
func loadJSONL[T any](t *testing.T, path string) []T {
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
func (c corpusCase) input(t *testing.T) Input {
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

// callRecoveryFloor is the recovery rate over the public call cases this
// layer reaches; the test fails if a change lowers it.
const callRecoveryFloor = 87

func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	type tally struct{ pass, total int }
	families := map[string]*tally{}
	var callPass, callTotal, wrongRuns, noCorrection, negRejections int
	for _, c := range cases {
		in := c.input(t)
		res := Recover(in)
		ok := true
		why := ""
		switch c.Kind {
		case "call":
			callTotal++
			if len(res.Calls) != len(c.Expected) {
				ok, why = false, fmt.Sprintf("%d calls, want %d", len(res.Calls), len(c.Expected))
			} else {
				for k, e := range c.Expected {
					g := res.Calls[k]
					if g.Name != e.Name || !sameJSON(g.Arguments, e.Arguments) {
						ok, why = false, fmt.Sprintf("call %d: got %s %s, want %s %s", k, g.Name, g.Arguments, e.Name, e.Arguments)
						break
					}
				}
			}
			if ok {
				callPass++
			}
		case "reject", "negative":
			if len(res.Calls) > 0 {
				ok, why = false, fmt.Sprintf("ran %d call(s): %s %s", len(res.Calls), res.Calls[0].Name, res.Calls[0].Arguments)
				wrongRuns += len(res.Calls)
			}
			if c.Kind == "reject" && len(res.Rejections) == 0 {
				ok, why = false, "no correction for the model"
				noCorrection++
			}
			if c.Kind == "negative" {
				// The text is the answer: nothing sent back to the model,
				// and the user sees it.
				if len(res.Rejections) > 0 {
					ok, why = false, "negative answered with a correction: "+res.Rejections[0].Reason
					negRejections++
				}
				if strings.TrimSpace(res.Text) == "" {
					ok, why = false, "the answer text is empty"
				}
			}
		default:
			t.Fatalf("%s: unknown kind %q", c.ID, c.Kind)
		}
		f := families[c.Family]
		if f == nil {
			f = &tally{}
			families[c.Family] = f
		}
		f.total++
		if ok {
			f.pass++
		} else {
			t.Logf("FAIL %s (%s, %v): %s", c.ID, c.Kind, c.Breakage, why)
		}
	}
	names := make([]string, 0, len(families))
	for n := range families {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%-16s %2d/%2d", n, families[n].pass, families[n].total)
	}
	rate := 100 * float64(callPass) / float64(max(callTotal, 1))
	t.Logf("call cases recovered: %d/%d (%.1f%%); calls run on reject+negative cases: %d", callPass, callTotal, rate, wrongRuns)
	if wrongRuns != 0 {
		t.Errorf("%d call(s) would run on reject or negative cases; must be 0", wrongRuns)
	}
	if noCorrection != 0 {
		t.Errorf("%d reject case(s) produced no correction", noCorrection)
	}
	if negRejections != 0 {
		t.Errorf("%d negative case(s) produced a correction instead of an answer", negRejections)
	}
	if callPass < callRecoveryFloor {
		t.Errorf("recovered %d call cases, below the floor of %d", callPass, callRecoveryFloor)
	}
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
	}
}
